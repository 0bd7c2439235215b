package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire/decode"
)

type inspectDoc struct {
	Requests []struct {
		Source   string `json:"source"`
		Index    int    `json:"index"`
		Line     int    `json:"line"`
		Format   string `json:"format"`
		Model    string `json:"model"`
		Segments []struct {
			ID       string `json:"id"`
			Channel  string `json:"channel"`
			Role     string `json:"role"`
			Kind     string `json:"kind"`
			Trust    string `json:"trust"`
			Envelope string `json:"envelope"`
			Bytes    int    `json:"bytes"`
			Tokens   int    `json:"tokens"`
			Escapes  []struct {
				Rule   string `json:"rule"`
				Offset int    `json:"offset"`
				Text   string `json:"text"`
			} `json:"escapes"`
		} `json:"segments"`
		Usage *struct {
			InputTokens  int `json:"input_tokens"`
			CachedTokens int `json:"cached_tokens"`
		} `json:"usage"`
	} `json:"requests"`
	Errors []struct {
		Source  string `json:"source"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"errors"`
}

func TestInspectJSONIsolatedBuild(t *testing.T) {
	code, built, stderr := runCLI(t, "", "build", filepath.Join("testdata", "workspaces", "poisoned"),
		"--now", "2026-11-29T22:08:44Z")
	if code != 0 {
		t.Fatalf("build exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI(t, built, "inspect", "-", "--json")
	if code != 0 || stderr != "" {
		t.Fatalf("inspect exit %d, stderr %q", code, stderr)
	}
	var doc inspectDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(doc.Requests) != 1 || doc.Errors == nil || len(doc.Errors) != 0 {
		t.Fatalf("requests %d, errors %v (want 1 request and an empty errors array)", len(doc.Requests), doc.Errors)
	}
	r := doc.Requests[0]
	if r.Source != "-" || r.Index != 1 || r.Format != "anthropic" {
		t.Errorf("request source %q index %d format %q", r.Source, r.Index, r.Format)
	}
	var agents, system int
	for _, s := range r.Segments {
		if s.Bytes <= 0 && s.Kind != "other" {
			t.Errorf("%s: %d bytes", s.ID, s.Bytes)
		}
		if s.Bytes > 8 && s.Tokens <= 0 {
			t.Errorf("%s: %d bytes but %d tokens", s.ID, s.Bytes, s.Tokens)
		}
		if s.Escapes == nil {
			t.Errorf("%s: escapes is null, want an array", s.ID)
		}
		if s.Channel == "system" {
			system++
			if s.Trust != "trusted" {
				t.Errorf("isolated build has %s %s in the system channel", s.Trust, s.Kind)
			}
		}
		if s.Envelope == "untrusted_agents_md" {
			agents++
			if s.Trust != "untrusted" || s.Kind != "agents-md" {
				t.Errorf("agents body: kind %s trust %s", s.Kind, s.Trust)
			}
			if len(s.Escapes) == 0 {
				t.Errorf("the poisoned AGENTS.md body lists no escapes")
			}
			for _, e := range s.Escapes {
				if e.Offset < 0 || e.Offset >= s.Bytes || e.Text == "" {
					t.Errorf("escape %+v outside the %d-byte body", e, s.Bytes)
				}
			}
		}
	}
	if agents != 1 || system == 0 {
		t.Errorf("%d agents-md envelopes, %d system segments", agents, system)
	}
}

func TestInspectTextAndErrors(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "session.jsonl")
	lines := `{"model":"claude-sonnet-4-6","system":"Be brief.","messages":[{"role":"user","content":"one"}]}
{"model":"claude-sonnet-4-6","messages":[{"role":"user","content":"tw
{"model":"claude-sonnet-4-6","system":"Be brief.","messages":[{"role":"user","content":"three \u202e"}]}
`
	if err := os.WriteFile(session, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "inspect", session)
	if code != 2 {
		t.Errorf("exit %d, want 2 for a broken line", code)
	}
	wantErr := "wirelens: " + session + ":2: invalid JSON"
	if !strings.HasPrefix(stderr, wantErr) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", stderr, wantErr)
	}
	for _, want := range []string{session + "  anthropic", session + "@2  anthropic", "SEGMENT", "system[0]", "host-rules", "user-input"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, '\u202e') {
		t.Error("a bidi override reached the output raw")
	}

	code, out, _ = runCLI(t, "", "inspect", "--json", session, filepath.Join(dir, "missing.json"))
	var doc inspectDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != 2 || len(doc.Requests) != 2 || len(doc.Errors) != 2 {
		t.Fatalf("exit %d, %d requests, %d errors; want 2, 2, 2", code, len(doc.Requests), len(doc.Errors))
	}
	if doc.Errors[0].Line != 2 || doc.Requests[1].Line != 3 || doc.Requests[1].Index != 2 {
		t.Errorf("error line %d, second request line %d index %d", doc.Errors[0].Line, doc.Requests[1].Line, doc.Requests[1].Index)
	}
	if doc.Errors[1].Message != "no such file" {
		t.Errorf("missing file: %q", doc.Errors[1].Message)
	}
}

func TestInspectNeedsAFile(t *testing.T) {
	code, _, stderr := runCLI(t, "", "inspect")
	if code != 2 || !strings.HasPrefix(stderr, "wirelens: ") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d stderr %q, want exit 2 and one line", code, stderr)
	}
}

// inspectHeaders counts the request blocks of inspect's text output: each
// block starts with a line at the left margin naming the request.
func inspectHeaders(out string) int {
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if line != "" && line[0] != ' ' {
			n++
		}
	}
	return n
}

// Every bad input of the foundation issue, through the command line: one
// "wirelens: FILE[:LINE]: ..." line on standard error, exit 2, and what
// could be read still printed; the same error in the JSON errors array.
func TestInspectBadInputThroughTheCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := `{"model":"gpt-a","messages":[{"role":"user","content":"one"}]}`
	deep := `{"model":"x","messages":[{"role":"user","content":"a","x":` + strings.Repeat("[", 600) +
		strings.Repeat("]", 600) + `}]}`
	sub := filepath.Join(dir, "adir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		path     string
		stdin    string // read from "-" when path is "-"
		line     int    // the line the error names (0: none)
		msg      string
		requests int // still printed
	}{
		{name: "truncated body", path: write("trunc.json", []byte(`{"model":"claude-x","system":"s","messages":[{"role":"user","content":"hel`)),
			line: 1, msg: "invalid JSON at byte 74: unexpected end of input"},
		{name: "invalid JSON", path: write("invalid.json", []byte(`{"model": "x", "messages": [}`)),
			line: 1, msg: "invalid JSON at byte 28: invalid character '}' at start of value"},
		{name: "broken line in the middle of a JSONL", path: write("mid.jsonl", []byte(good+"\n"+`{"model":"cut","messages":[`+"\n"+strings.Replace(good, "gpt-a", "gpt-b", 1)+"\n")),
			line: 2, msg: "invalid JSON at byte 27: unexpected end of input", requests: 2},
		{name: "broken line on standard input", path: "-", stdin: good + "\n" + `{"model":` + "\n" + good + "\n",
			line: 2, msg: "invalid JSON at byte 9: unexpected end of input", requests: 2},
		{name: "empty file", path: write("empty.json", nil), msg: "empty input"},
		{name: "empty standard input", path: "-", msg: "empty input"},
		{name: "binary data", path: write("bin.dat", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00")),
			line: 1, msg: "binary data, not JSON (a NUL byte at byte 7)"},
		{name: "unknown shape", path: write("x.json", []byte(`{"foo": 1, "bar": [1, 2]}`)),
			msg: "not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"},
		{name: "invalid UTF-8", path: write("utf8.json", []byte(`{"model":"claude-x","system":"s","messages":[{"role":"user","content":"caf`+"\xe9"+`"}]}`)),
			line: 1, msg: "invalid UTF-8 at byte 74 (decoded with U+FFFD)", requests: 1},
		{name: "nesting deeper than any payload", path: write("deep.json", []byte(deep)),
			line: 1, msg: "JSON nested deeper than 512 levels at byte 567"},
		{name: "a directory", path: sub,
			msg: "is a directory with no agent recordings (looked for kimi-cli context.jsonl, kimi-code agents/*/wire.jsonl, Codex rollout-*.jsonl, Claude Code <session>.jsonl)"},
		{name: "a missing file", path: filepath.Join(dir, "missing.json"), msg: "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loc := c.path
			if c.line > 0 {
				loc += ":" + strconv.Itoa(c.line)
			}
			want := "wirelens: " + loc + ": " + c.msg + "\n"
			code, out, stderr := runCLI(t, c.stdin, "inspect", c.path)
			if code != 2 || stderr != want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
			}
			if n := inspectHeaders(out); n != c.requests {
				t.Errorf("%d requests printed, want %d:\n%s", n, c.requests, out)
			}
			code, out, stderr = runCLI(t, c.stdin, "inspect", "--json", c.path)
			var doc inspectDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("--json: not JSON: %v\n%s", err, out)
			}
			if code != 2 || len(doc.Requests) != c.requests || len(doc.Errors) != 1 || stderr != want {
				t.Fatalf("--json: exit %d, %d requests, errors %+v, stderr %q", code, len(doc.Requests), doc.Errors, stderr)
			}
			if e := doc.Errors[0]; e.Source != c.path || e.Line != c.line || e.Message != c.msg {
				t.Errorf("--json error %+v, want source %q line %d message %q", e, c.path, c.line, c.msg)
			}
		})
	}
}

// inspectFixtureInputs lists every file under testdata and the recording
// directories, each an input a user might give.
func inspectFixtureInputs(t *testing.T) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || strings.HasPrefix(path, filepath.Join("testdata", "recordings")) {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, filepath.Join("testdata", "workspaces", "poisoned"))
	if len(paths) < 30 {
		t.Fatalf("only %d fixture inputs found", len(paths))
	}
	return paths
}

// Every fixture with every --format, in text and JSON: no panic, exit 0 or
// 2, exit 2 exactly when something was reported, every report one
// "wirelens: SOURCE..." line, and the text and JSON runs agreeing on the
// requests and the errors. Without --format, the recorded payloads decode
// cleanly.
func TestInspectEveryFixtureEveryFormat(t *testing.T) {
	formats := []string{""}
	for _, f := range decode.Formats() {
		formats = append(formats, string(f))
	}
	clean := func(path string) bool {
		slash := filepath.ToSlash(path)
		if slash == "testdata/check/session.jsonl" || slash == "testdata/sessions/broken.jsonl" {
			return false // broken on purpose
		}
		if strings.HasSuffix(slash, ".md") {
			return false // a fixture folder's README
		}
		for _, dir := range []string{"testdata/payloads/", "testdata/cache/", "testdata/check/"} {
			if strings.HasPrefix(slash, dir) {
				return true
			}
		}
		return strings.HasPrefix(slash, "testdata/sessions/") ||
			strings.HasPrefix(slash, "testdata/recordings") && !strings.HasSuffix(slash, "/wire.jsonl") && !strings.HasSuffix(slash, ".md") ||
			strings.HasSuffix(slash, "/agents/main/wire.jsonl")
	}
	for _, path := range inspectFixtureInputs(t) {
		for _, format := range formats {
			args := []string{"inspect", path}
			if format != "" {
				args = append(args, "--format", format)
			}
			name := path + " --format=" + format
			var code, jcode int
			var out, stderr, jout, jstderr string
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s: panic: %v", name, p)
					}
				}()
				code, out, stderr = runCLI(t, "", args...)
				jcode, jout, jstderr = runCLI(t, "", append(args, "--json")...)
			}()
			if code != 0 && code != 2 || code != jcode || stderr != jstderr {
				t.Errorf("%s: exit %d (--json %d), stderr differs: %v", name, code, jcode, stderr != jstderr)
			}
			var lines []string
			if stderr != "" {
				lines = strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			}
			if (code == 2) != (len(lines) > 0) {
				t.Errorf("%s: exit %d with %d error lines", name, code, len(lines))
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "wirelens: "+path) || strings.Contains(l, "goroutine") || strings.Contains(l, "panic") {
					t.Errorf("%s: error line %q is not one \"wirelens: %s...\" line", name, l, path)
				}
			}
			var doc inspectDoc
			if err := json.Unmarshal([]byte(jout), &doc); err != nil {
				t.Errorf("%s --json: not JSON: %v", name, err)
				continue
			}
			if len(doc.Errors) != len(lines) || len(doc.Requests) != inspectHeaders(out) {
				t.Errorf("%s: text has %d requests and %d errors, --json %d and %d",
					name, inspectHeaders(out), len(lines), len(doc.Requests), len(doc.Errors))
			}
			for _, e := range doc.Errors {
				if e.Message == "" || !strings.HasPrefix(e.Source, path) {
					t.Errorf("%s --json: error %+v", name, e)
				}
			}
			if format == "" && clean(path) && (code != 0 || len(doc.Requests) == 0) {
				t.Errorf("%s: exit %d, %d requests; want a clean decode: %s", name, code, len(doc.Requests), stderr)
			}
		}
	}
}

// inspect --json has the members of CONTRACT.md (and only the documented
// additions), the contract's vocabulary, and a usage object only where a
// response recorded one, normalised so that input_tokens includes cached
// tokens whatever the provider's convention.
func TestInspectJSONContractShape(t *testing.T) {
	har := filepath.Join("testdata", "payloads", "capture.har")
	trace := filepath.Join("testdata", "payloads", "claude-trace.jsonl")
	body := filepath.Join("testdata", "payloads", "anthropic-messages.json")
	code, out, stderr := runCLI(t, "", "inspect", "--json", har, trace, body)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	inspectKeys(t, "document", doc, []string{"requests", "errors"}, nil)
	if errs, ok := doc["errors"].([]any); !ok || len(errs) != 0 {
		t.Errorf("errors %v, want an empty array", doc["errors"])
	}
	reqs, _ := doc["requests"].([]any)
	// Usage as each provider records it (the numbers are the fixtures'):
	// Anthropic's input_tokens excludes cache reads and writes, OpenAI's
	// prompt_tokens (Moonshot's too) and Gemini's promptTokenCount include
	// the cached tokens, and so does the Responses API's input_tokens.
	type usage struct {
		source, format         string
		input, cached, written int
	}
	want := []*usage{
		{har, "anthropic", 12 + 400 + 2048, 2048, 400},
		{har + "@2", "openai-chat", 1320, 1024, 0},
		{har + "@3", "openai-chat", 300, 256, 0},
		{har + "@4", "gemini", 5000, 4096, 0},
		{har + "@5", "openai-responses", 2200, 2048, 0},
		{trace, "anthropic", 12 + 400 + 2048, 2048, 400},
		{trace + "@2", "anthropic", 30 + 1800, 1800, 0},
		{body, "anthropic", -1, 0, 0}, // no response recorded: no usage member
	}
	if len(reqs) != len(want) {
		t.Fatalf("%d requests, want %d", len(reqs), len(want))
	}
	channels := map[string]bool{"tools": true, "system": true, "messages": true}
	trusts := map[string]bool{"trusted": true, "untrusted": true, "user": true, "model": true}
	kinds := map[string]bool{}
	for _, k := range []string{"host-rules", "time", "cwd-listing", "additional-dirs", "agents-md", "skills-listing",
		"skill-loaded", "environment", "reminder", "user-input", "assistant", "tool-call", "tool-result", "tool-schema", "other"} {
		kinds[k] = true
	}
	for i, rv := range reqs {
		r, _ := rv.(map[string]any)
		w := want[i]
		inspectKeys(t, w.source, r, []string{"source", "index", "line", "format", "model", "segments"},
			[]string{"usage", "endpoint", "tokens", "bytes", "notes"})
		name := r["source"].(string)
		if idx := r["index"].(float64); idx > 1 {
			name += "@" + strconv.Itoa(int(idx))
		}
		if name != w.source || r["format"] != w.format {
			t.Errorf("request %d is %s (%v), want %s (%s)", i+1, name, r["format"], w.source, w.format)
		}
		u, has := r["usage"].(map[string]any)
		switch {
		case w.input < 0 && has:
			t.Errorf("%s: usage %v, but no response was recorded", w.source, u)
		case w.input >= 0 && !has:
			t.Errorf("%s: no usage, want input %d", w.source, w.input)
		case has:
			inspectKeys(t, w.source+" usage", u, []string{"input_tokens", "cached_tokens", "cache_write_tokens"}, []string{"output_tokens"})
			if u["input_tokens"] != float64(w.input) || u["cached_tokens"] != float64(w.cached) || u["cache_write_tokens"] != float64(w.written) {
				t.Errorf("%s: usage %v, want input %d cached %d cache write %d", w.source, u, w.input, w.cached, w.written)
			}
		}
		segs, _ := r["segments"].([]any)
		if len(segs) == 0 {
			t.Errorf("%s: no segments", w.source)
		}
		for _, sv := range segs {
			s, _ := sv.(map[string]any)
			inspectKeys(t, w.source+" segment", s, []string{"id", "channel", "role", "kind", "trust", "envelope", "bytes", "tokens", "escapes"},
				[]string{"label", "cache_breakpoint"})
			if !channels[s["channel"].(string)] || !trusts[s["trust"].(string)] || !kinds[s["kind"].(string)] {
				t.Errorf("%s %v: channel %v trust %v kind %v outside the contract's vocabulary", w.source, s["id"], s["channel"], s["trust"], s["kind"])
			}
			if _, ok := s["escapes"].([]any); !ok {
				t.Errorf("%s %v: escapes %v, want an array", w.source, s["id"], s["escapes"])
			}
		}
	}
}

// inspectKeys checks that m has every required member and no member outside
// required and extra.
func inspectKeys(t *testing.T, what string, m map[string]any, required, extra []string) {
	t.Helper()
	allowed := map[string]bool{}
	for _, k := range required {
		allowed[k] = true
		if _, ok := m[k]; !ok {
			t.Errorf("%s: no %q member", what, k)
		}
	}
	for _, k := range extra {
		allowed[k] = true
	}
	for k := range m {
		if !allowed[k] {
			t.Errorf("%s: member %q is neither in CONTRACT.md nor a known addition", what, k)
		}
	}
}

// Naming a fixture's own format with --format reads it exactly as detection
// does, for every format --format accepts.
func TestInspectFormatOverrideMatchesDetection(t *testing.T) {
	p := func(parts ...string) string { return filepath.Join(append([]string{"testdata"}, parts...)...) }
	cases := []struct{ path, format string }{
		{p("payloads", "openai-chat.json"), "openai-chat"},
		{p("payloads", "openai-responses.json"), "openai-responses"},
		{p("payloads", "openai-responses-string.json"), "openai-responses"},
		{p("payloads", "anthropic-messages.json"), "anthropic"},
		{p("payloads", "anthropic-system-string.json"), "anthropic"},
		{p("sessions", "session.jsonl"), "anthropic"},
		{p("payloads", "gemini.json"), "gemini"},
		{p("payloads", "gemini-snake-case.json"), "gemini"},
		{p("payloads", "capture.har"), "har"},
		{p("payloads", "claude-trace.jsonl"), "claude-trace"},
		{p("cache", "recorded.claude-trace.jsonl"), "claude-trace"},
		{p("batch", "chat-input.jsonl"), "openai-batch"},
		{p("batch", "responses-input.jsonl"), "openai-batch"},
		{p("har", "polly-openai-chat.har"), "har"},
		{p("otel", "genai-spans.json"), "otel"},
		{p("recordings", "kimi-cli"), "kimi-cli"},
		{p("recordings", "kimi-cli", "3f2a9c", "7d1e5b2a-0c4f-4e8e-9a51-6b2d0e4c1f00", "context.jsonl"), "kimi-cli"},
		{p("recordings", "kimi-code"), "kimi-code"},
		{p("recordings", "codex"), "codex"},
		{p("recordings", "claude-code"), "claude-code"},
		{p("recordings", "gemini-cli"), "gemini-cli"},
		{p("recordings", "gemini-cli", "8a1f3c", "chats", "session-2025-09-18T10-02-7b3e1c2a.json"), "gemini-cli"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.format] = true
		code, auto, stderr := runCLI(t, "", "inspect", "--json", c.path)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, %s", c.path, code, stderr)
		}
		var doc inspectDoc
		if err := json.Unmarshal([]byte(auto), &doc); err != nil || len(doc.Requests) == 0 {
			t.Fatalf("%s: %d requests, %v", c.path, len(doc.Requests), err)
		}
		code, forced, stderr := runCLI(t, "", "inspect", "--json", "--format", c.format, c.path)
		if code != 0 || stderr != "" || forced != auto {
			t.Errorf("%s --format %s: exit %d, stderr %q, output differs from detection: %v", c.path, c.format, code, stderr, forced != auto)
		}
	}
	for _, f := range decode.Formats() {
		if !seen[string(f)] {
			t.Errorf("no fixture checks --format %s", f)
		}
	}
}

// inspect --json carries hostile names as the same JSON values, but with
// every controlling or invisible code point written as a \u escape, so the
// output is safe on a terminal; "<", ">" and "&" stay readable.
func TestInspectJSONEscapesHiddenCharacters(t *testing.T) {
	model := "gpt\u202e-x\u009b2J\u200b<&>\U000e0041\u2028\x7f"
	tool := "sh\u2066ell\u00ad"
	in, err := json.Marshal(map[string]any{"model": model, "messages": []any{
		map[string]any{"role": "user", "content": "hi"},
		map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": tool, "arguments": "{}"}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, string(in), "inspect", "--json", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, r := range []rune{'\x7f', '\u202e', '\u009b', '\u200b', '\U000e0041', '\u2028', '\u2066', '\u00ad'} {
		if strings.ContainsRune(out, r) {
			t.Errorf("U+%04X reached the output raw", r)
		}
	}
	if !strings.Contains(out, `<&>`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("output does not keep <&> readable and escape U+202E:\n%s", out)
	}
	var doc struct {
		Requests []struct {
			Model    string `json:"model"`
			Segments []struct {
				Label string `json:"label"`
			} `json:"segments"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) != 1 {
		t.Fatalf("not one request: %v\n%s", err, out)
	}
	if doc.Requests[0].Model != model {
		t.Errorf("model %q, want %q", doc.Requests[0].Model, model)
	}
	labels := ""
	for _, s := range doc.Requests[0].Segments {
		labels += s.Label
	}
	if labels != tool {
		t.Errorf("labels %q, want the tool's name %q", labels, tool)
	}
}

// A sessions root through the command line: the recordings inside it,
// newest first, each request's block saying what the recording could not
// tell and the usage it recorded (Codex's input_tokens 5000, of which
// cached_input_tokens 4096, for the first request).
func TestInspectSessionsRoot(t *testing.T) {
	root := t.TempDir()
	copyTo := func(from, to string, mod time.Time) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(to, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	day := time.Date(2025, 10, 29, 12, 0, 0, 0, time.UTC)
	codex := filepath.Join(root, "2025", "10", "29", "rollout-b.jsonl")
	older := filepath.Join(root, "2025", "10", "28", "rollout-a.jsonl")
	src := filepath.Join("testdata", "recordings", "codex", "2025", "10", "29",
		"rollout-2025-10-29T00-59-38-019a2d7a-41c4-78b1-b7cc-a45d62a89cd5.jsonl")
	copyTo(src, older, day.Add(-24*time.Hour))
	copyTo(src, codex, day)
	code, out, stderr := runCLI(t, "", "inspect", root)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var heads []string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && line[0] != ' ' {
			heads = append(heads, strings.Fields(line)[0])
		}
	}
	want := []string{codex, codex + "@2", codex + "@3", older, older + "@2", older + "@3"}
	if strings.Join(heads, " ") != strings.Join(want, " ") {
		t.Errorf("requests\n %q\nwant, newest file first,\n %q", heads, want)
	}
	first := out[:strings.Index(out, "\n\n")]
	for _, line := range []string{
		"  recorded usage: input 5,000 (cached 4,096, cache write 0)",
		"  note: recording: codex 0.46.0",
		"  note: tool schemas not recorded",
	} {
		if !strings.Contains(first, line+"\n") {
			t.Errorf("the first block lacks %q:\n%s", line, first)
		}
	}
}

// TestInspectMarksMeanWhatTheViewerSays: a cache breakpoint is ◆ in
// inspect, as in the viewer ("◆bp"), with a legend line; ⚑ (findings in the
// viewer) and ✂ (a cache break) never stand for it; the README says the
// same of each mark.
func TestInspectMarksMeanWhatTheViewerSays(t *testing.T) {
	code, out, errs := runCLI(t, "", "inspect", filepath.Join("testdata", "payloads", "anthropic-messages.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "tools[1] ◆ ") || !strings.Contains(out, "\n  ◆ cache breakpoint (cache_control") {
		t.Errorf("the breakpoint is not marked ◆ with its legend:\n%s", out)
	}
	if strings.ContainsAny(out, "⚑✂") {
		t.Errorf("inspect uses a mark of another meaning:\n%s", out)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| `✂` | the prompt-cache prefix breaks here", "| `⚑` | `check` found something",
		"| `◆` | an explicit cache breakpoint", "`✂`\nwhere the prompt-cache prefix broke, `⚑` where `check` found something",
	} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README does not say %q", want)
		}
	}
	if strings.Contains(string(readme), "breakpoint is marked `⚑`") {
		t.Error("README still gives ⚑ to cache breakpoints")
	}
}
