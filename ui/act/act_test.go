package act

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// key is shaped like a GitHub token, which redact finds.
var key = "ghp_" + strings.Repeat("Xq7Lm3Np9R", 3) + "abcdef"

// TestTextShowsHazardsAndMasksSecrets: Text keeps lines and shows every
// hazard; Lines keeps one row a line; neither lets the key through.
func TestTextShowsHazardsAndMasksSecrets(t *testing.T) {
	in := "a\x1b[31mred\x1b[0m\n\u202eevil\ttab\ntoken " + key + "\n"
	got := Text(in)
	if got != "a␛[31mred␛[0m\n[U+202E]evil\ttab\ntoken "+"[redacted by wirelens]\n" {
		t.Errorf("Text = %q", got)
	}
	if got := Lines([]string{"one\nrow\x07", key}); got != "one␤row␇\n[redacted by wirelens]\n" {
		t.Errorf("Lines = %q", got)
	}
}

// TestJSONStaysJSON: a JSON body keeps its meaning with hazards as \u
// escapes and the key masked; a text that is not JSON is shown as Text.
func TestJSONStaysJSON(t *testing.T) {
	body := `{"text": "left ` + "\u202e" + ` right", "esc": "\u001b[2J", "key": "` + key + `"}`
	got := JSON(body)
	var v map[string]string
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("JSON(%q) = %q: %v", body, got, err)
	}
	if strings.ContainsRune(got, 0x202e) || !strings.Contains(got, `\u202e`) || v["text"] != "left \u202e right" || v["key"] != "[redacted by wirelens]" {
		t.Errorf("JSON = %q", got)
	}
	if got := JSON("not json \x1b[2J"); got != "not json ␛[2J" {
		t.Errorf("JSON of a text = %q", got)
	}
}

// TestCommand: $PAGER is a program and its arguments; unset or blank, the
// fallback.
func TestCommand(t *testing.T) {
	t.Setenv("WIRELENS_TEST_PAGER", "  less  -R ")
	if got := Command("WIRELENS_TEST_PAGER", "more"); strings.Join(got, "|") != "less|-R" {
		t.Errorf("Command = %q", got)
	}
	t.Setenv("WIRELENS_TEST_PAGER", " ")
	if got := Command("WIRELENS_TEST_PAGER", "more"); strings.Join(got, "|") != "more" {
		t.Errorf("Command of a blank = %q", got)
	}
}

// TestOpenRemovesItsFile: the program's failure is reported with its name,
// and the temporary file is gone either way.
func TestOpenRemovesItsFile(t *testing.T) {
	if _, err := os.Stat("/bin/false"); err != nil {
		t.Skip("no /bin/false")
	}
	t.Setenv("WIRELENS_TEST_PAGER", "/bin/false")
	o := &Open{Env: "WIRELENS_TEST_PAGER", Fallback: "less", Text: "x", Ext: ".txt"}
	err := o.Run()
	if err == nil || !strings.HasPrefix(err.Error(), "/bin/false: exit status 1") {
		t.Fatalf("Run = %v", err)
	}
	if !strings.HasSuffix(o.Path, ".txt") || !strings.HasPrefix(filepath.Base(o.Path), "wirelens-") {
		t.Errorf("temporary file %q", o.Path)
	}
	if _, err := os.Lstat(o.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is left: %v", err)
	}
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteRefuses: an existing file needs overwrite, an input is refused
// by any spelling and even with overwrite, and CreateOutput's refusals hold
// (a link, a folder), each error naming the file; a new file is 0600 and
// its size is counted.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	if _, n, err := Write(out, nil, false, writeString("hello\n")); err != nil || n != 6 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	if _, _, err := Write(out, nil, false, writeString("again\n")); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), out) {
		t.Errorf("over an existing file: %v", err)
	}
	if _, n, err := Write(out, nil, true, writeString("again!\n")); err != nil || n != 7 {
		t.Errorf("overwrite: %d, %v", n, err)
	}
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte("{}\n"), 0o600)
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, in)
	if _, _, err := Write(filepath.Join(dir, "..", filepath.Base(dir), "in.jsonl"), []string{rel}, true, writeString("x")); !errors.Is(err, ErrInput) {
		t.Errorf("an input: %v", err)
	}
	if b, _ := os.ReadFile(in); string(b) != "{}\n" {
		t.Errorf("the input was written: %q", b)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(filepath.Join(dir, "target"), link)
	if _, _, err := Write(link, nil, true, writeString("x")); !errors.Is(err, wire.ErrOutputLink) {
		t.Errorf("a link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "target")); err == nil {
		t.Error("the link's target was made")
	}
	if _, _, err := Write(dir, nil, true, writeString("x")); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("a folder: %v", err)
	}
	if _, _, err := Write(" ", nil, true, writeString("x")); err == nil {
		t.Error("a blank name was written")
	}
}

// TestCopiedIsCapped: past MaxClipboard nothing is copied, and the status
// says why and what to do instead.
func TestCopiedIsCapped(t *testing.T) {
	small := Copied{Text: "abc", What: "x"}
	if small.Cmd() == nil || small.Status() != "copied x: 3 bytes to the clipboard, secrets masked, hazards shown" {
		t.Errorf("small: %q", small.Status())
	}
	big := Copied{Text: strings.Repeat("a", MaxClipboard+1), What: "the raw JSON of request #1"}
	if big.Cmd() != nil || !strings.HasPrefix(big.Status(), "not copied: the raw JSON of request #1 is 1048577 bytes") {
		t.Errorf("big: %q", big.Status())
	}
}

// BenchmarkSegmentOneMB makes the clipboard's text of a 1 MB segment
// with a hazard and a (masked) key on every line, what y does in its
// command.
func BenchmarkSegmentOneMB(b *testing.B) {
	line := "some tool output \x1b[2J and \u202e and ANTHROPIC_API_KEY=ghp_*************************************\n"
	s := Segment("messages[0].content[0]", 1, strings.Repeat(line, (1<<20)/len(line)), nil)
	b.SetBytes(1 << 20)
	for b.Loop() {
		_ = s.Text()
	}
}
