package ui

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/act"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// hostileKey is a key shaped like Anthropic's, which the content pane masks.
var hostileKey = "sk-ant-api03-" + strings.Repeat("Hq4Tz8Wm2B", 9) + "c5dAA"

// hostileText is a tool result with a clear-screen, an OSC 52 of its own
// (a payload trying to set the clipboard), a right-to-left override and a
// key.
var hostileText = "Run `make` first.\x1b[2J\x1b]52;c;ZXZpbA==\x07\nThe file \u202egnp.sh is an image.\nANTHROPIC_API_KEY=" + hostileKey + "\n"

// hostileModel is a model on one request whose last segment (selected) is
// hostileText, with the golden session's findings' shape.
func hostileModel(t *testing.T, opts Options) *Model {
	t.Helper()
	r := testReq("claude-sonnet-4-6", 1,
		wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "You are a coding agent.\n"},
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "tool_result", Text: hostileText})
	opts.Requests, opts.Theme = []wire.Request{r}, themes.Mono
	m := startModel(t, opts, 120, 40)
	m.seg = len(m.reqs[0].order) - 1
	drive(t, m)
	m.selectionCmd()
	if s := m.curSeg(); s < 0 || m.reqs[0].req.Segments[s].Text != hostileText {
		t.Fatalf("the hostile segment is not selected (%d)", s)
	}
	return m
}

// actMsgs presses a key and runs what it asks for, feeding the action's
// own answers back (act.Copied, act.Written, ...), and returns every
// message met (the clipboard's, for Bubble Tea, among them).
func actMsgs(t *testing.T, m *Model, key string) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	_, cmd := m.Update(keyPress(key))
	queue := runCmds(cmd)
	for len(queue) > 0 {
		msg := queue[0]
		queue = queue[1:]
		out = append(out, msg)
		if _, ok := msg.(act.Msg); ok {
			_, cmd := m.Update(msg)
			queue = append(queue, runCmds(cmd)...)
		}
	}
	return out
}

// clipboard is the text of the OSC 52 message among msgs (tea.SetClipboard
// makes one of a type of its own), "" and false when there is none.
func clipboard(msgs []tea.Msg) (string, bool) {
	for _, msg := range msgs {
		v := reflect.ValueOf(msg)
		if v.Kind() == reflect.String && v.Type().Name() == "setClipboardMsg" && v.Type().PkgPath() == "charm.land/bubbletea/v2" {
			return v.String(), true
		}
	}
	return "", false
}

// assertSafe fails when text holds a raw escape, the bidi override or the
// key in the clear.
func assertSafe(t *testing.T, where, text string) {
	t.Helper()
	if strings.ContainsAny(text, "\x1b\x07\u202e") {
		t.Errorf("%s holds a raw control or bidi character: %q", where, text)
	}
	if strings.Contains(text, hostileKey[14:40]) {
		t.Errorf("%s holds the key in the clear: %q", where, text)
	}
}

// TestActionCopySegment: y puts the selected segment's text on the
// clipboard as the screen shows it (the escapes and the override visible,
// the key masked, even once S shows it in the clear), and the status line
// says what and how much; loading the session sets no clipboard.
func TestActionCopySegment(t *testing.T) {
	r := testReq("m", 1, wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: hostileText})
	m := New(Options{Requests: []wire.Request{r}})
	if _, ok := clipboard(runCmds(m.Init())); ok {
		t.Fatal("opening the viewer set the clipboard")
	}
	m = hostileModel(t, Options{})
	for _, secrets := range []bool{false, true} {
		if secrets {
			pressKeys(t, m, "S")
		}
		text, ok := clipboard(actMsgs(t, m, "y"))
		if !ok {
			t.Fatal("y set no clipboard")
		}
		assertSafe(t, "the clipboard", text)
		for _, want := range []string{"Run `make` first.␛[2J␛]52;c;ZXZpbA==␇\n", "[U+202E]gnp.sh", "ANTHROPIC_API_KEY=sk-a***"} {
			if !strings.Contains(text, want) {
				t.Errorf("the clipboard lacks %q: %q", want, text)
			}
		}
		if st := statusLine(m); !strings.Contains(st, "copied messages[0].content[0] of #1: ") || !strings.Contains(st, " bytes to the clipboard, secrets masked") {
			t.Errorf("status line: %q", st)
		}
	}
}

// TestActionCopyRawJSON: Y copies the request's JSON as sent (encoded,
// since this one is not on disk), still JSON, the escape and the override
// as \u escapes and the key masked.
func TestActionCopyRawJSON(t *testing.T) {
	m := hostileModel(t, Options{})
	text, ok := clipboard(actMsgs(t, m, "Y"))
	if !ok {
		t.Fatal("Y set no clipboard")
	}
	assertSafe(t, "the clipboard", text)
	if !json.Valid([]byte(text)) {
		t.Fatalf("Y's text is not JSON: %s", text)
	}
	if !strings.Contains(text, `\u001b[2J`) || !strings.Contains(text, `\u202e`) || !strings.Contains(text, "[redacted by wirelens]") {
		t.Errorf("Y's JSON: %s", text)
	}
	if st := statusLine(m); !strings.Contains(st, "copied the raw JSON of request #1") {
		t.Errorf("status line: %q", st)
	}
}

// TestActionCopyTableRow: in a table view y copies the selected row (as
// one line), in Findings the finding with its severity, rule and request;
// o opens every row shown.
func TestActionCopyTableRow(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 120, 40)
	pressKeys(t, m, "3", "j")
	text, _ := clipboard(actMsgs(t, m, "y"))
	if strings.Count(text, "\n") != 1 || !strings.HasPrefix(text, "HIGH  bidi-control  #4 messages[1].content[0] @51  right-to-left override") {
		t.Errorf("y in Findings copied %q", text)
	}
	sub := m.subject(false, false)
	if all, what := sub.Text(), sub.What; what != "3 rows of Findings" || strings.Count(all, "\n") != 3 || !strings.Contains(all, "untrusted-in-system") {
		t.Errorf("o in Findings: %s: %q", what, all)
	}
	pressKeys(t, m, "2")
	text, _ = clipboard(actMsgs(t, m, "y"))
	if !strings.HasPrefix(text, "entity ") || strings.Count(text, "\n") != 1 {
		t.Errorf("y in Escapes copied %q", text)
	}
	pressKeys(t, m, "5")
	if msgs := actMsgs(t, m, "y"); len(msgs) != 0 || !strings.Contains(statusLine(m), "nothing here to copy or open") {
		t.Errorf("y in Diff: %v, status %q", msgs, statusLine(m))
	}
}

// pagerScript writes a program that copies the file it is given (its last
// argument) to dir/got, its mode to dir/mode and its name to dir/path, and
// returns its path.
func pagerScript(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "pager.sh")
	script := "#!/bin/sh\nfor f; do :; done\ncp -p \"$f\" '" + dir + "/got'\necho \"$f\" > '" + dir + "/path'\n"
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// openOf is the program o or e asks Bubble Tea to run.
func openOf(t *testing.T, m *Model, key string) act.Opened {
	t.Helper()
	_, cmd := m.Update(keyPress(key))
	for _, msg := range runCmds(cmd) {
		if o, ok := msg.(act.Opened); ok {
			return o
		}
	}
	t.Fatalf("%s asked to run no program (status %q)", key, statusLine(m))
	return act.Opened{}
}

// TestActionOpenInPager: o runs $PAGER (e: $EDITOR) on a temporary file in
// os.TempDir, mode 0600, holding the segment's text as the screen shows it,
// and removes it after; a missing program is an error in the status line.
func TestActionOpenInPager(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the pager script")
	}
	dir := t.TempDir()
	t.Setenv("PAGER", pagerScript(t, dir)+" --ignored-flag")
	t.Setenv("EDITOR", pagerScript(t, dir))
	m := hostileModel(t, Options{})
	for _, key := range []string{"o", "e"} {
		o := openOf(t, m, key)
		if err := o.Open.Run(); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "got"))
		assertSafe(t, key+"'s file", string(got))
		if want := act.Text(maskSecrets(hostileText, m.reqs[0].segSecrets[m.curSeg()])); string(got) != want || !strings.Contains(want, "[U+202E]") {
			t.Errorf("%s's file holds %q, want %q", key, got, want)
		}
		st, err := os.Stat(filepath.Join(dir, "got"))
		path, _ := os.ReadFile(filepath.Join(dir, "path"))
		if err != nil || st.Mode().Perm() != 0o600 || filepath.Dir(strings.TrimSpace(string(path))) != filepath.Clean(os.TempDir()) {
			t.Errorf("%s's file: %v, at %s", key, st, path)
		}
		if _, err := os.Lstat(o.Open.Path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s's temporary file %s is left: %v", key, o.Open.Path, err)
		}
		drive(t, m, o.Done(nil))
		if !strings.Contains(statusLine(m), "pager.sh closed; its temporary file is removed") {
			t.Errorf("status after %s: %q", key, statusLine(m))
		}
	}
	// A missing pager: said at once, the terminal kept (no exec asked).
	t.Setenv("PAGER", filepath.Join(dir, "no-such-pager"))
	for _, msg := range actMsgs(t, m, "o") {
		if _, ok := msg.(act.Opened); ok {
			t.Fatal("a missing pager was run")
		}
	}
	if st := statusLine(m); !strings.Contains(st, "could not open: $PAGER:") || !strings.Contains(st, "no-such-pager") {
		t.Errorf("status after a missing pager: %q", st)
	}
	o := &act.Open{Env: "PAGER", Fallback: "less", Text: "x"}
	if err := o.Run(); err == nil || o.Path != "" {
		t.Fatalf("a missing pager ran (%v) or left a file (%q)", err, o.Path)
	}
}

// TestActionOpenRawAndFindings: in Raw o opens the body (JSON, hazards as
// \u escapes), in Findings every finding shown.
func TestActionOpenRawAndFindings(t *testing.T) {
	m := hostileModel(t, Options{Analysis: Analysis{Findings: func(reqs []wire.Request) [][]audit.Finding {
		return [][]audit.Finding{{{Rule: "bidi-control", Severity: audit.SeverityHigh, Segment: "messages[0].content[0]", Offset: 30,
			Message: "override \u202e here", Excerpt: "The file \u202egnp.sh"}}}
	}}})
	pressKeys(t, m, "6")
	o := openOf(t, m, "o")
	if assertSafe(t, "Raw's file", o.Open.Text); !json.Valid([]byte(o.Open.Text)) || o.Open.Ext != ".json" {
		t.Errorf("Raw's file (%s) is not the JSON body: %s", o.Open.Ext, o.Open.Text)
	}
	pressKeys(t, m, "3")
	o = openOf(t, m, "o")
	if assertSafe(t, "Findings' file", o.Open.Text); o.Open.Text != "HIGH  bidi-control  #1 messages[0].content[0] @30  override [U+202E] here  excerpt: The file [U+202E]gnp.sh\n" {
		t.Errorf("Findings' file: %q", o.Open.Text)
	}
}

// testExport writes the request's model and the findings' rules, one a
// line (main's writers are tested in the main package).
var testExport = act.Export{
	Request: func(w io.Writer, r *wire.Request) error {
		_, err := io.WriteString(w, "request "+r.Model+"\n")
		return err
	},
	Findings: func(w io.Writer, fs []audit.Finding) error {
		for _, f := range fs {
			if _, err := io.WriteString(w, f.Rule+"\n"); err != nil {
				return err
			}
		}
		return nil
	},
}

// TestActionWrite: w opens a prompt with a name suggested; enter writes
// the request (in Findings, the findings shown) and the status says where
// and how many bytes; a file that exists is written over only when enter
// names it again; esc writes nothing; an input of the viewer and a link
// are refused.
func TestActionWrite(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(input, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	reqs, a := goldenSession()
	for i := range reqs {
		reqs[i].Source = input
	}
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono, Export: testExport}, 120, 40)
	pressKeys(t, m, "w")
	if st := statusLine(m); !m.pr.Active || !strings.HasPrefix(st, "write request #1 (inspect --json --redact) to: wirelens-request-1.json▏") {
		t.Fatalf("w's prompt: %q", st)
	}
	out := filepath.Join(dir, "out.json")
	writeAs := func(name string) {
		t.Helper()
		pressKeys(t, m, "ctrl+u")
		typeText(t, m, name)
		pressKeys(t, m, "enter")
	}
	writeAs(out)
	if b, _ := os.ReadFile(out); string(b) != "request claude-sonnet-4-6\n" || !strings.Contains(statusLine(m), "wrote 26 bytes to "+out+": request #1 (inspect --json --redact)") {
		t.Fatalf("wrote %q; status %q", b, statusLine(m))
	}
	// Again, from Findings: the file exists, so the prompt asks.
	pressKeys(t, m, "3", "w")
	writeAs(out)
	if b, _ := os.ReadFile(out); string(b) != "request claude-sonnet-4-6\n" || !m.pr.Active || !strings.HasPrefix(statusLine(m), "exists; enter overwrites it: "+out) {
		t.Fatalf("an existing file: %q, status %q", b, statusLine(m))
	}
	pressKeys(t, m, "enter")
	if b, _ := os.ReadFile(out); string(b) != "untrusted-in-system\nbidi-control\ncontrol-char\n" || !strings.Contains(statusLine(m), "bytes to "+out+": 3 findings (check --json)") {
		t.Fatalf("overwritten with %q; status %q", b, statusLine(m))
	}
	pressKeys(t, m, "w", "esc")
	if m.pr.Active || !strings.Contains(statusLine(m), "nothing written") {
		t.Errorf("esc: %q", statusLine(m))
	}
	// The viewer's input, by another spelling, even when confirmed.
	pressKeys(t, m, "1", "w")
	writeAs(filepath.Join(dir, ".", "session.jsonl"))
	if b, _ := os.ReadFile(input); string(b) != "{}\n" || !strings.Contains(statusLine(m), "is a file this viewer reads") {
		t.Errorf("an input: %q, status %q", b, statusLine(m))
	}
	// A link to another file: it exists, and once confirmed, is refused.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "target"), link); err != nil {
		t.Fatal(err)
	}
	pressKeys(t, m, "w")
	writeAs(link)
	pressKeys(t, m, "enter")
	if _, err := os.Lstat(filepath.Join(dir, "target")); err == nil || !strings.Contains(statusLine(m), "symbolic link") {
		t.Errorf("a link: target made (%v), status %q", err, statusLine(m))
	}
	// No export plugged in: w says so.
	m = startModel(t, Options{Requests: reqs, Theme: themes.Mono}, 120, 40)
	if pressKeys(t, m, "w"); m.pr.Active || !strings.Contains(statusLine(m), "nothing to write here") {
		t.Errorf("w without an export: %q", statusLine(m))
	}
}

// TestUIGoldenWrite goldens the status line of w's second prompt (the
// file named exists), of what w wrote, and of a pager that could not run,
// at 80x24 and 120x40 in the dark, light and mono themes.
func TestUIGoldenWrite(t *testing.T) {
	reqs, a := goldenSession()
	exists := act.Written{Path: "wirelens-request-4.json", What: "request #4", Err: &fs.PathError{Op: "write", Path: "wirelens-request-4.json", Err: act.ErrExists}}
	states := []struct {
		name string
		msgs []tea.Msg
	}{
		{"overwrite", []tea.Msg{keyPress("w"), exists}},
		{"wrote", []tea.Msg{act.Written{Path: "/home/dev/wirelens-request-4.json", What: "request #4 (inspect --json --redact)", N: 2048}}},
		{"open-error", []tea.Msg{act.Opened{Open: &act.Open{Env: "PAGER", Fallback: "less"}}.Done(errors.New("$PAGER: exec: \"nosuch\": executable file not found in $PATH"))}},
	}
	for _, theme := range []string{themes.Dark, themes.Light, themes.Mono} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			for _, s := range states {
				name := s.name + "_" + strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1]) + "_" + theme
				t.Run(name, func(t *testing.T) {
					m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: theme, Title: "golden", Export: testExport}, size[0], size[1])
					pressKeys(t, m, "shift+tab", "G", "tab")
					drive(t, m, s.msgs...)
					out := m.Render()
					assertClean(t, name, out)
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
	}
}
