package decode

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// Tests of inputs made to hold the decoder: many broken lines, lines over
// the cap, one huge line, binary lines.

// decodeLines decodes in, read as a file (which can seek) or as a stream,
// and returns the requests and the error texts.
func decodeLines(t *testing.T, in []byte, stream bool, opts Options) ([]wire.Request, []string) {
	t.Helper()
	var r io.Reader = bytes.NewReader(in)
	if stream {
		r = struct{ io.Reader }{r}
	}
	var reqs []wire.Request
	var errs []string
	for req, err := range Decode(r, opts) {
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, opts.Source) {
				t.Fatalf("error not one line naming the file: %q", msg)
			}
			errs = append(errs, err.Error())
			continue
		}
		reqs = append(reqs, req)
	}
	return reqs, errs
}

// modelBody is a one-line Anthropic body for the given model.
func modelBody(model string) string { return strings.Replace(goodAnthropic, "claude-x", model, 1) }

// A JSONL of thousands of broken lines gives the first maxErrors errors in
// full, then one that counts the others by kind; every good line among them
// is still read.
func TestDecodeCapsErrors(t *testing.T) {
	var in bytes.Buffer
	var want []string // models
	in.WriteString(goodAnthropic + "\n")
	want = append(want, "claude-x")
	const lines = 5001
	binary, broken := 0, 0
	for i := 2; i <= lines; i++ {
		switch {
		case i%1000 == 0:
			m := "claude-" + strconv.Itoa(i)
			in.WriteString(modelBody(m) + "\n")
			want = append(want, m)
		case i%500 == 250:
			in.WriteString("\x00\x00\x01\n")
			binary++
		default:
			in.WriteString("{\n")
			broken++
		}
	}
	for _, stream := range []bool{false, true} {
		reqs, errs := decodeLines(t, in.Bytes(), stream, Options{Source: "x.jsonl"})
		var models []string
		for _, r := range reqs {
			models = append(models, r.Model)
		}
		if strings.Join(models, ",") != strings.Join(want, ",") {
			t.Errorf("requests %q, want %q", models, want)
		}
		if len(errs) != maxErrors+1 {
			t.Fatalf("%d errors, want %d and a summary", len(errs), maxErrors)
		}
		for i, e := range errs[:maxErrors] {
			if w := "x.jsonl:" + strconv.Itoa(i+2) + ": invalid JSON at byte 1: unexpected end of input"; e != w {
				t.Fatalf("error %d: %q, want %q", i+1, e, w)
			}
		}
		more := binary + broken - maxErrors
		w := fmt.Sprintf("x.jsonl: and %s more errors (lines 102 to 5,001): %s invalid JSON, %d binary data",
			wire.GroupDigits(more), wire.GroupDigits(broken-maxErrors), binary)
		if errs[maxErrors] != w {
			t.Errorf("summary %q, want %q", errs[maxErrors], w)
		}
	}
}

// The cap holds for a recording's lines too, read by its own reader.
func TestDecodeCapsRecordingErrors(t *testing.T) {
	lines := recordingLines(readRecording(t, fixtureCodex))
	var out [][]byte
	out = append(out, lines[:2]...)
	for range 300 {
		out = append(out, []byte("{"))
	}
	out = append(out, lines[2:]...)
	reqs, errs := decodeLines(t, joinLines(out), false, Options{Source: "r.jsonl"})
	if len(reqs) != 3 || len(errs) != maxErrors+1 {
		t.Fatalf("%d requests, %d errors; want 3 and %d", len(reqs), len(errs), maxErrors+1)
	}
	if w := "r.jsonl:3: invalid JSON at byte 1: unexpected end of input"; errs[0] != w {
		t.Errorf("first error %q, want %q", errs[0], w)
	}
	if w := "r.jsonl: and 200 more errors (lines 103 to 302): 200 invalid JSON"; errs[maxErrors] != w {
		t.Errorf("summary %q, want %q", errs[maxErrors], w)
	}
}

// setMaxLine lowers the line cap for one test.
func setMaxLine(t *testing.T, n int) {
	old := maxLine
	maxLine = n
	t.Cleanup(func() { maxLine = old })
}

// paddedBody is a one-line body of exactly n bytes (without a newline).
func paddedBody(t *testing.T, model string, n int) string {
	b := modelBody(model)
	b = strings.Replace(b, `"system":"s"`, `"system":"s`+strings.Repeat("p", n-len(b))+`"`, 1)
	if len(b) != n {
		t.Fatalf("padded body of %d bytes, want %d", len(b), n)
	}
	return b
}

// The line cap is exact: a line of maxLine bytes (its newline aside) is
// read, one byte more is an error on its line, and the lines after it are
// read, at their lines and offsets. Short caps test lines that fit the
// reader's buffer, caps past it the long lines, read from a file or a
// stream.
func TestDecodeMaxLineExact(t *testing.T) {
	for _, max := range []int{300, 1<<20 + 300} {
		setMaxLine(t, max)
		first := modelBody("m1") + "\n"
		at := paddedBody(t, "m2", max) + "\n"
		over := paddedBody(t, "m3", max+1) + "\n"
		in := first + at + over + modelBody("m4") + "\n" + paddedBody(t, "m5", max)
		for _, stream := range []bool{false, true} {
			name := fmt.Sprintf("cap %d, stream %v", max, stream)
			reqs, errs := decodeLines(t, []byte(in), stream, Options{Source: "x.jsonl"})
			want := fmt.Sprintf("x.jsonl:3: line longer than %d bytes", max)
			if len(errs) != 1 || errs[0] != want {
				t.Errorf("%s: errors %q, want %q", name, errs, want)
			}
			var models []string
			for _, r := range reqs {
				models = append(models, r.Model)
			}
			if strings.Join(models, ",") != "m1,m2,m4,m5" {
				t.Fatalf("%s: requests %q, want m1,m2,m4,m5", name, models)
			}
			if r := reqs[2]; r.Line != 4 || r.Offset != int64(len(first)+len(at)+len(over)) {
				t.Errorf("%s: m4 at line %d offset %d, want line 4 offset %d", name, r.Line, r.Offset, len(first)+len(at)+len(over))
			}
			// The last line, without a newline, one byte over.
			_, errs = decodeLines(t, []byte(first+paddedBody(t, "m6", max+1)), stream, Options{Source: "x.jsonl"})
			if want := fmt.Sprintf("x.jsonl:2: line longer than %d bytes", max); len(errs) != 1 || errs[0] != want {
				t.Errorf("%s: last line over: errors %q, want %q", name, errs, want)
			}
			// The first line over: the others are still read.
			reqs, errs = decodeLines(t, []byte(over+at), stream, Options{Source: "x.jsonl"})
			if want := fmt.Sprintf("x.jsonl:1: line longer than %d bytes", max); len(reqs) != 1 || len(errs) != 1 || errs[0] != want {
				t.Errorf("%s: first line over: %d requests, errors %q, want 1 and %q", name, len(reqs), errs, want)
			}
		}
	}
}

// A document spread over lines is held to the cap too; a JSONL whose first
// line is broken is read to its end, past the bytes read to tell it from a
// document.
func TestDecodeMaxLineDocument(t *testing.T) {
	setMaxLine(t, 400)
	pretty := "{\n  \"model\": \"claude-x\",\n  \"system\": \"" + strings.Repeat("s", 300) + "\",\n  \"messages\": []\n}\n"
	if reqs, errs := decodeLines(t, []byte(pretty), false, Options{Source: "d.json"}); len(reqs) != 1 || len(errs) != 0 {
		t.Errorf("document under the cap: %d requests, errors %q", len(reqs), errs)
	}
	long := strings.Replace(pretty, strings.Repeat("s", 300), strings.Repeat("s", 400), 1)
	_, errs := decodeLines(t, []byte(long), false, Options{Source: "d.json"})
	if want := "d.json: a JSON document longer than 400 bytes: not read"; len(errs) != 1 || errs[0] != want {
		t.Errorf("document over the cap: errors %q, want %q", errs, want)
	}
	var in strings.Builder
	in.WriteString(`{"model":` + "\n")
	for i := range 20 {
		in.WriteString(modelBody("m"+strconv.Itoa(i)) + "\n")
	}
	reqs, errs := decodeLines(t, []byte(in.String()), false, Options{Source: "s.jsonl"})
	if len(reqs) != 20 || len(errs) != 1 || !strings.HasPrefix(errs[0], "s.jsonl:1: invalid JSON") {
		t.Errorf("JSONL with a broken first line, longer than the cap: %d requests, errors %q; want 20 and one", len(reqs), errs)
	}
	if len(reqs) > 0 && reqs[len(reqs)-1].Line != 21 {
		t.Errorf("last request on line %d, want 21", reqs[len(reqs)-1].Line)
	}
}

// A recording's line over the cap is an error on its line; the other lines
// are read.
func TestDecodeMaxLineRecording(t *testing.T) {
	lines := recordingLines(readRecording(t, fixtureCodex))
	longest := 0
	for _, l := range lines {
		longest = max(longest, len(l))
	}
	setMaxLine(t, longest)
	out := append([][]byte{}, lines[:2]...)
	out = append(out, []byte(`{"x":"`+strings.Repeat("a", longest)+`"}`))
	out = append(out, lines[2:]...)
	reqs, errs := decodeLines(t, joinLines(out), false, Options{Source: "r.jsonl"})
	if want := fmt.Sprintf("r.jsonl:3: line longer than %d bytes", longest); len(reqs) != 3 || len(errs) != 1 || errs[0] != want {
		t.Errorf("%d requests, errors %q; want 3 and %q", len(reqs), errs, want)
	}
}

// allocPerByte is the bytes allocated decoding in, per byte of it.
func allocPerByte(t *testing.T, in []byte, stream bool) float64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	reqs, errs := decodeLines(t, in, stream, Options{Source: "huge.jsonl"})
	runtime.ReadMemStats(&after)
	if len(reqs) != 1 || len(errs) != 0 {
		t.Fatalf("%d requests, errors %q", len(reqs), errs)
	}
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(in))
}

// One huge line costs a few times its size, not the 70 to 100 times that
// a line of tiny members or elements cost when the walk held each of them,
// nor the 7 times of a line grown by appending and a text unquoted twice.
// (BenchmarkDecodeHugeLine measures the peak.)
func TestDecodeHugeLineMemory(t *testing.T) {
	const size = 4 << 20
	for _, c := range []struct {
		name   string
		in     []byte
		stream bool
		most   float64
	}{
		{"tiny elements", padLine(size, false), false, 2.5},
		{"tiny members", padLine(size, true), false, 2.5},
		{"tiny elements, stream", padLine(size, false), true, 3.5},
		{"one string", hugeLine(size, 0), false, 3},
		{"one string, stream", hugeLine(size, 0), true, 4},
	} {
		if got := allocPerByte(t, c.in, c.stream); got > c.most {
			t.Errorf("%s: %.2f bytes allocated per input byte, want at most %.1f", c.name, got, c.most)
		}
	}
	// The text is the text: one huge string, unquoted in pieces.
	in := hugeLine(size, 0)
	reqs, _ := decodeLines(t, in, false, Options{Source: "huge.jsonl"})
	text := reqs[0].Segments[len(reqs[0].Segments)-1].Text
	i := bytes.Index(in, []byte(`"content":"`)) + len(`"content":"`)
	want := strings.ReplaceAll(string(in[i:bytes.LastIndex(in, []byte(`"}`))]), `\"`, `"`)
	if text != want {
		t.Errorf("text of %d bytes differs from the %d bytes sent", len(text), len(want))
	}
}

// A NUL byte on a line makes that line binary, one error naming it; the
// other lines are read. A zero-filled tail (a crash) is one binary line,
// however long. An input binary as a whole is still one error.
func TestDecodeBinaryLines(t *testing.T) {
	good := modelBody("m1") + "\n" + `{"model":"m2","system":"s` + "\x00" + `","messages":[]}` + "\n" + modelBody("m3") + "\n"
	nulAt := strings.Index(good[strings.Index(good, "\n")+1:], "\x00")
	for _, c := range []struct {
		name   string
		in     string
		models string
		errs   []string
	}{
		{"NUL on a line, short zero tail", good + strings.Repeat("\x00", 4096), "m1,m3",
			[]string{fmt.Sprintf("x.jsonl:2: binary data, not JSON (a NUL byte at byte %d)", nulAt),
				"x.jsonl:4: binary data, not JSON (a NUL byte at byte 0)"}},
		{"long zero tail", good + strings.Repeat("\x00", 3<<20), "m1,m3",
			[]string{fmt.Sprintf("x.jsonl:2: binary data, not JSON (a NUL byte at byte %d)", nulAt),
				"x.jsonl:4: binary data, not JSON (a NUL byte at byte 0)"}},
		{"zero tail after a newline", modelBody("m1") + "\n" + strings.Repeat("\x00", 100) + "\n\n", "m1",
			[]string{"x.jsonl:2: binary data, not JSON (a NUL byte at byte 0)"}},
		{"NUL on the first line", `{"model":"` + "\x00" + `"}` + "\n" + modelBody("m1") + "\n" + modelBody("m2") + "\n", "m1,m2",
			[]string{"x.jsonl:1: binary data, not JSON (a NUL byte at byte 10)"}},
		{"a long binary first line", `{"a":"` + strings.Repeat("\x00", 2<<20) + `"}` + "\n" + modelBody("m1") + "\n", "m1",
			[]string{"x.jsonl:1: binary data, not JSON (a NUL byte at byte 6)"}},
		{"PNG", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", "",
			[]string{"x.jsonl:3: binary data, not JSON (a NUL byte at byte 8)"}},
		{"zeros", strings.Repeat("\x00", 20000), "",
			[]string{"x.jsonl:1: binary data, not JSON (a NUL byte at byte 0)"}},
	} {
		for _, stream := range []bool{false, true} {
			reqs, errs := decodeLines(t, []byte(c.in), stream, Options{Source: "x.jsonl"})
			var models []string
			for _, r := range reqs {
				models = append(models, r.Model)
			}
			if strings.Join(models, ",") != c.models || strings.Join(errs, "\n") != strings.Join(c.errs, "\n") {
				t.Errorf("%s (stream %v): requests %q, errors %q; want %q, %q", c.name, stream, models, errs, c.models, c.errs)
			}
		}
	}
	// A file that opens as JSON and goes on as noise is binary as a whole.
	noise := make([]byte, 6000)
	rand.New(rand.NewSource(1)).Read(noise)
	noise[100] = 0
	reqs, errs := decodeLines(t, append([]byte(`{"a":`), noise...), false, Options{Source: "x.jsonl"})
	if len(reqs) != 0 || len(errs) != 1 || !strings.Contains(errs[0], "binary data") {
		t.Errorf("JSON opener then noise: %d requests, errors %q; want one binary error", len(reqs), errs)
	}
}

// A recording with a zero-filled tail keeps its requests.
func TestDecodeBinaryTailRecording(t *testing.T) {
	for _, c := range recordingCases() {
		in := append(readRecording(t, c.path), make([]byte, 5000)...)
		path := filepath.Join(t.TempDir(), filepath.Base(c.path))
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		lines := len(recordingLines(readRecording(t, c.path)))
		reqs, errs := decodeRecording(t, path, Options{})
		want := path + ":" + strconv.Itoa(lines+1) + ": binary data, not JSON (a NUL byte at byte 0)"
		if len(reqs) != c.requests || len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%s: %d requests, errors %v; want %d and %q", c.name, len(reqs), errs, c.requests, want)
		}
	}
}
