package decode

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/wiretest"
)

const goodAnthropic = `{"model":"claude-x","system":"s","messages":[{"role":"user","content":"hi"}]}`

// runDecode decodes in and returns the models of the requests and the error
// texts, in order.
func runDecode(t *testing.T, in []byte, opts Options) (models []string, errs []string) {
	t.Helper()
	for r, err := range Decode(bytes.NewReader(in), opts) {
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("error %v is a %T, not a *DecodeError", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is more than one line: %q", err.Error())
			}
			errs = append(errs, err.Error())
			continue
		}
		models = append(models, r.Model)
	}
	return models, errs
}

func TestDecodeBadInput(t *testing.T) {
	deep := `{"model":"x","messages":[{"role":"user","content":"a","x":` + strings.Repeat("[", body.MaxDepth+10) +
		strings.Repeat("]", body.MaxDepth+10) + `}]}`
	cases := []struct {
		name   string
		in     string
		format wire.Format
		models []string // requests still decoded
		errs   []string
	}{
		{name: "truncated body", in: `{"model":"claude-x","system":"s","messages":[{"role":"user","content":"hel`,
			errs: []string{"x.json:1: invalid JSON at byte 74: unexpected end of input"}},
		{name: "truncated pretty body", in: "{\n  \"model\": \"gpt\",\n  \"messages\": [\n    {\"role\": \"user\",",
			errs: []string{"x.json:4: invalid JSON at byte 56: unexpected end of input"}},
		{name: "invalid JSON", in: `{"model": "x", "messages": [}`,
			errs: []string{"x.json:1: invalid JSON at byte 28: invalid character '}' at start of value"}},
		{name: "broken line in the middle", in: goodAnthropic + "\n" + `{"model":"cut","messages":[` + "\n" +
			strings.Replace(goodAnthropic, "claude-x", "claude-y", 1) + "\n",
			models: []string{"claude-x", "claude-y"},
			errs:   []string{"x.json:2: invalid JSON at byte 27: unexpected end of input"}},
		{name: "broken first line", in: `{"model":` + "\n" + goodAnthropic + "\n" +
			strings.Replace(goodAnthropic, "claude-x", "claude-y", 1) + "\n",
			models: []string{"claude-x", "claude-y"},
			errs:   []string{"x.json:1: invalid JSON at byte 9: unexpected end of input"}},
		{name: "empty file", in: "", errs: []string{"x.json: empty input"}},
		{name: "only white space", in: " \n\t\n", errs: []string{"x.json: empty input (only white space)"}},
		{name: "binary data", in: "\x7fELF\x02\x01\x01\x00\x00\x00", errs: []string{"x.json:1: binary data, not JSON (a NUL byte at byte 7)"}},
		{name: "UTF-16LE with a byte-order mark", in: "\xff\xfe{\x00\"\x00m\x00\"\x00:\x00",
			errs: []string{"x.json: UTF-16 text (a UTF-16LE byte-order mark), not UTF-8: convert it first, for example with iconv -f UTF-16 -t UTF-8"}},
		{name: "UTF-16BE without a byte-order mark", in: "\x00\n\x00{\x00\"\x00m",
			errs: []string{"x.json: UTF-16 text (UTF-16BE without a byte-order mark), not UTF-8: convert it first, for example with iconv -f UTF-16 -t UTF-8"}},
		{name: "plain text", in: "hello world\n", errs: []string{`x.json:1: not JSON (starts with "hello world␤")`}},
		{name: "unknown shape", in: `{"foo": 1, "bar": [1, 2]}`,
			errs: []string{"x.json: not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"}},
		{name: "unknown shape on a JSONL line", in: goodAnthropic + "\n" + `{"foo": 1}` + "\n",
			models: []string{"claude-x"},
			errs:   []string{"x.json:2: not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"}},
		{name: "too deep", in: deep, errs: []string{"x.json:1: JSON nested deeper than 512 levels at byte 567"}},
		{name: "top-level number", in: "42\n", errs: []string{"x.json:1: not a request: a JSON number at the top level"}},
		{name: "top-level string", in: `"hello"`, errs: []string{"x.json:1: not a request: a JSON string at the top level"}},
		{name: "array with non-object elements", in: "[" + goodAnthropic + ",\n 7,\n \"x\"]",
			models: []string{"claude-x"},
			errs: []string{"x.json:2: array element 2 is a JSON number, not a request body",
				"x.json:3: array element 3 is a JSON string, not a request body"}},
		{name: "empty array", in: "[]", errs: []string{"x.json:1: an empty JSON array: no request bodies in it"}},
		{name: "forced format of another shape", in: goodAnthropic, format: wire.FormatGemini,
			errs: []string{"x.json: not a request body in the gemini format (looked for contents, systemInstruction)"}},
		{name: "content of the wrong kind", in: `{"model":"gpt","messages":[{"role":"system","content":true}]}`,
			errs: []string{"x.json:1: openai-chat body: content is a JSON boolean, want a string or an array of parts at /messages/0/content (byte 54)"}},
		{name: "model of the wrong kind", in: `{"model":7,"system":"s","messages":[]}`,
			errs: []string{"x.json:1: anthropic body: a JSON number where a string belongs at /model (byte 9)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			models, errs := runDecode(t, []byte(c.in), Options{Source: "x.json", Format: c.format})
			if strings.Join(models, ",") != strings.Join(c.models, ",") {
				t.Errorf("requests %q, want %q", models, c.models)
			}
			if strings.Join(errs, "\n") != strings.Join(c.errs, "\n") {
				t.Errorf("errors\n %q\nwant\n %q", errs, c.errs)
			}
		})
	}
}

// Invalid UTF-8 is reported once and the text is decoded with U+FFFD.
func TestDecodeInvalidUTF8(t *testing.T) {
	in := []byte(`{"model":"claude-x","system":"s","messages":[{"role":"user","content":"caf` + "\xe9" + ` ok"}]}`)
	var reqs []wire.Request
	var errs []string
	for r, err := range Decode(bytes.NewReader(in), Options{Source: "u.json"}) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		reqs = append(reqs, r)
	}
	if len(errs) != 1 || errs[0] != "u.json:1: invalid UTF-8 at byte 74 (decoded with U+FFFD)" {
		t.Errorf("errors %q", errs)
	}
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	got := reqs[0].Segments[len(reqs[0].Segments)-1].Text
	if got != "caf\uFFFD ok" || !utf8.ValidString(got) {
		t.Errorf("text %q, want %q", got, "caf\uFFFD ok")
	}
}

func TestDecodePathBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		path string
		errs []string
	}{
		{filepath.Join(dir, "missing.json"), []string{filepath.Join(dir, "missing.json") + ": no such file"}},
	}
	for _, c := range cases {
		_, errs := decodeAll(t, c.path, Options{})
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(c.errs, "\n") {
			t.Errorf("%s: errors %q, want %q", c.path, got, c.errs)
		}
	}
	// A directory holding no recordings is one error naming it.
	_, errs := decodeAll(t, dir, Options{})
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), dir+": is a directory") {
		t.Errorf("directory: errors %v", errs)
	}
	// The session fixture with a broken second line.
	reqs, errs := decodeAll(t, filepath.Join("..", "..", "testdata", "sessions", "broken.jsonl"), Options{})
	if len(reqs) != 3 || len(errs) != 1 ||
		errs[0].Error() != filepath.Join("..", "..", "testdata", "sessions", "broken.jsonl")+":2: invalid JSON at byte 74: unexpected end of input" {
		t.Fatalf("broken.jsonl: %d requests, errors %v", len(reqs), errs)
	}
	for i, want := range []int{1, 3, 4} {
		if reqs[i].Line != want || reqs[i].Index != i+1 {
			t.Errorf("request %d: line %d index %d, want line %d", i+1, reqs[i].Line, reqs[i].Index, want)
		}
	}
	if n := len(reqs[2].Segments); n != 6 {
		t.Errorf("last request has %d segments, want 6", n)
	}
}

// fuzzSeeds are fuzz seeds: the fixtures, the raw byte seeds of the
// corpora, and the hostile strings inside request bodies.
func fuzzSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, dir := range []string{filepath.Join("..", "..", "testdata", "payloads"), filepath.Join("..", "..", "testdata", "sessions")} {
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("fixtures: %v", err)
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, b)
		}
	}
	for _, b := range wiretest.RawBytes(t) {
		seeds = append(seeds, b)
		body := append([]byte(`{"model":"claude-x","system":"`), b...)
		seeds = append(seeds, append(body, `","messages":[{"role":"user","content":"x"}]}`...))
	}
	return seeds
}

// FuzzDecode: no input, read as detected or with any --format, makes
// Decode panic, and every error is a *Error of one line.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, format := range append([]wire.Format{wire.FormatAuto}, Formats()...) {
			for r, err := range Decode(bytes.NewReader(in), Options{Source: "f.json", Format: format}) {
				if err != nil {
					var de *Error
					if !errors.As(err, &de) {
						t.Fatalf("error %v is a %T", err, err)
					}
					if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "f.json") {
						t.Fatalf("error not one line naming the file: %q", msg)
					}
					continue
				}
				for _, s := range r.Segments {
					if s.Hash != wire.HashText(s.Text) {
						t.Fatalf("segment %s: hash mismatch", s.ID)
					}
				}
			}
		}
	})
}

// A recording format forced on a JSON document spread over lines (a
// pretty-printed body, a HAR) is one error naming the file, not one error
// for each of its lines; a recording whose first line is broken is still
// read line by line.
func TestDecodeForcedRecordingFormatOnADocument(t *testing.T) {
	doc, err := os.ReadFile(fixture("capture.har"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(strings.TrimRight(string(doc), "\n"), "\n") + 1
	for _, f := range []wire.Format{wire.FormatKimiCLI, wire.FormatKimiCode, wire.FormatCodex, wire.FormatClaudeCode} {
		models, errs := runDecode(t, doc, Options{Source: "cap.har", Format: f})
		want := "cap.har: not a " + string(f) + " recording: one JSON document spread over " + strconv.Itoa(lines) +
			" lines, where a recording has one JSON record a line"
		if len(models) != 0 || len(errs) != 1 || errs[0] != want {
			t.Errorf("--format %s: %d requests, errors %q; want one error %q", f, len(models), errs, want)
		}
	}
	rollout, err := os.ReadFile(filepath.Join("..", "..", "testdata", "recordings", "codex", "2025", "10", "29",
		"rollout-2025-10-29T00-59-38-019a2d7a-41c4-78b1-b7cc-a45d62a89cd5.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(rollout), "\n")
	broken := first[:len(first)/2] + "\n" + rest
	for _, f := range []wire.Format{wire.FormatAuto, wire.FormatCodex} {
		models, errs := runDecode(t, []byte(broken), Options{Source: "r.jsonl", Format: f})
		if len(errs) == 0 || !strings.HasPrefix(errs[0], "r.jsonl:1: invalid JSON at byte ") || len(models) != 3 {
			t.Errorf("--format %q, broken first line: %d requests, errors %q; want the line-1 error and 3 requests", f, len(models), errs)
		}
	}
}

// A JSONL of other records (an application's log) is given up after
// giveUp errors with no request body before them; once a request was
// read, every bad line is reported.
func TestDecodeJSONLOfOtherRecords(t *testing.T) {
	var logLines, want []string
	for i := 1; i <= 30; i++ {
		logLines = append(logLines, `{"level":"info","msg":"started `+strconv.Itoa(i)+`"}`)
	}
	for i := 1; i <= 10; i++ {
		want = append(want, "app.jsonl:"+strconv.Itoa(i)+": "+body.NotRecognised)
	}
	want = append(want, "app.jsonl: stopped after 10 lines without a request body: not a JSONL of request bodies")
	models, errs := runDecode(t, []byte(strings.Join(logLines, "\n")+"\n"), Options{Source: "app.jsonl"})
	if len(models) != 0 || strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d requests, errors\n%s\nwant\n%s", len(models), strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	// Bodies of another format than the one asked for.
	var bodies []string
	for range 12 {
		bodies = append(bodies, goodAnthropic)
	}
	models, errs = runDecode(t, []byte(strings.Join(bodies, "\n")+"\n"), Options{Source: "s.jsonl", Format: wire.FormatGemini})
	if len(models) != 0 || len(errs) != 11 ||
		errs[10] != "s.jsonl: stopped after 10 lines without a request body: not a JSONL of gemini request bodies" {
		t.Errorf("--format gemini: %d requests, errors %q", len(models), errs)
	}
	// A session with a body first: the 30 lines after it are each reported.
	models, errs = runDecode(t, []byte(goodAnthropic+"\n"+strings.Join(logLines, "\n")+"\n"+goodAnthropic+"\n"), Options{Source: "s.jsonl"})
	if len(models) != 2 || len(errs) != 30 || errs[29] != "s.jsonl:31: "+body.NotRecognised {
		t.Errorf("%d requests, %d errors %q; want 2 requests and 30 errors, the last on line 31", len(models), len(errs), errs)
	}
}
