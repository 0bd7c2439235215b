package decode

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// decodeFile decodes the file at path as the commands open it
// (wire.OpenInput), its JSONL lines read from a mapping of it when mapped
// is set and through the reader's buffer when it is not.
func decodeFile(t *testing.T, path string, opts Options, mapped bool) decoded {
	t.Helper()
	defer func(was int64) { mapMin = was }(mapMin)
	mapMin = 1 << 62
	if mapped {
		mapMin = 0
	}
	f, err := wire.OpenInput(path, wire.MaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return decodeEach(f, opts)
}

// sameMappedOrRead decodes the file at path mapped and read, fails when
// anything differs, and returns how many lines were read from the mapping.
func sameMappedOrRead(t *testing.T, path string) int64 {
	t.Helper()
	opts := Options{Source: filepath.Base(path)}
	before := mappedLines.Load()
	read := decodeFile(t, path, opts, false)
	if n := mappedLines.Load() - before; n != 0 {
		t.Fatalf("%s: %d lines read from a mapping with mapping off", path, n)
	}
	got := decodeFile(t, path, opts, true)
	mapped := mappedLines.Load() - before
	sameDecoded(t, path, "mapped", got, "read", read)
	return mapped
}

// Every fixture of the repository decodes the same whether its lines are
// read from a mapping of the file or through the reader's buffer, and the
// JSONLs among them are read from the mapping.
func TestMappedSameAsReadEveryFixture(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	files, mapped := 0, int64(0)
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		files++
		mapped += sameMappedOrRead(t, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 || mapped < 30 {
		t.Errorf("%d fixtures read, %d lines of them from a mapping", files, mapped)
	}
}

// Sessions and broken JSONLs decode the same mapped and read: a generated
// session, its lines ended with CRLF, with blank lines, a broken line, a NUL
// byte and no newline at the end; lines longer than the reader's buffer,
// with a NUL byte in their first buffer's worth and after it; and lines
// longer than the longest read.
func TestMappedSameAsReadEdited(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 40, 3); err != nil {
		t.Fatal(err)
	}
	s := gen.String()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	// Edits after the first lines: a JSONL whose first line is broken is
	// read another way (as a document first).
	head := strings.Join(lines[:4], "\n") + "\n"
	edit := func(old, new string, n int) string { return head + strings.Replace(s[len(head):], old, new, n) }
	long := func(at int) string { // a line of 1.5 MB, a NUL byte at at (none if < 0)
		b := []byte(`{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 3<<19) + `"}]}`)
		if at >= 0 {
			b[at] = 0
		}
		return string(b)
	}
	cases := map[string]string{
		"session":           s,
		"crlf":              strings.ReplaceAll(s, "\n", "\r\n"),
		"blank":             edit("\n", "\n\n   \n", 5),
		"broken":            edit(`"messages":[`, `"messages":[,`, 3),
		"nul":               edit(`"text":"`, "\"text\":\"\x00", 2),
		"no newline":        strings.TrimSuffix(s, "\n"),
		"long":              strings.Join([]string{lines[0], long(-1), lines[1], long(-1), long(-1), lines[2]}, "\n") + "\n",
		"long binary early": strings.Join([]string{lines[0], long(10), lines[1]}, "\n") + "\n",
		"long binary late":  strings.Join([]string{lines[0], long(1<<20 + 5), lines[1]}, "\n") + "\n",
		"long last":         strings.Join([]string{lines[0], lines[1], long(-1)}, "\n"),
	}
	dir := t.TempDir()
	// With one core the decoder compares each line itself; with two a
	// reader ahead finds what the lines share.
	for _, procs := range []int{1, 2} {
		was := runtime.GOMAXPROCS(procs)
		for name, in := range cases {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
			if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
				t.Fatal(err)
			}
			ahead := sharedAhead.Load()
			if n := sameMappedOrRead(t, p); n < 2 {
				t.Errorf("%s: %d lines read from the mapping", name, n)
			}
			n := sharedAhead.Load() - ahead
			switch {
			case procs == 1 && n != 0:
				t.Errorf("%s: %d lines found ahead with one core", name, n)
			case procs == 2 && name == "session" && n != 38:
				// Line 1 is read through the buffer, line 2 compared with
				// its copy: the 38 after are found ahead.
				t.Errorf("%s: %d lines found ahead with two cores, want 38", name, n)
			}
		}
		runtime.GOMAXPROCS(was)
	}
	// Lines longer than the longest read: one error each, either way.
	defer func(was int) { maxLine = was }(maxLine)
	maxLine = 1 << 20
	p := filepath.Join(dir, "too-long.jsonl")
	// The reader's buffer is widened after a long line: a binary line is
	// told apart by its first buffer's worth only when it comes first.
	in := strings.Join([]string{lines[0], long(200), lines[1], long(-1), long(300)}, "\n") + "\n"
	if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	sameMappedOrRead(t, p)
	got := decodeFile(t, p, Options{Source: "too-long.jsonl"}, true)
	if len(got.errs) != 3 || !strings.Contains(got.errs[0], "binary") || !strings.Contains(got.errs[2], "longer than") {
		t.Errorf("too long: errors %q, want three (binary, long, long)", got.errs)
	}
}

// A file cut short while its mapping is read ends the reading with one
// error on the line being read, the requests before it given, and no
// crash (a read of a page past the file's new end faults: SIGBUS).
func TestMappedFileCutShort(t *testing.T) {
	var gen strings.Builder
	for i := range 400 {
		fmt.Fprintf(&gen, `{"model":"m","messages":[{"role":"user","content":"turn %d %s"}]}`+"\n", i, strings.Repeat("y", 16<<10))
	}
	p := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(p, []byte(gen.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	defer func(was int64) { mapMin = was }(mapMin)
	mapMin = 0
	f, err := wire.OpenInput(p, wire.MaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := mappedLines.Load()
	reqs, cut := 0, 0
	var errs []string
	for _, err := range Decode(f, Options{Source: "cut.jsonl"}) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		reqs++
		if reqs == 100 {
			if err := os.Truncate(p, 0); err != nil {
				t.Fatal(err)
			}
			cut = reqs
		}
	}
	if mappedLines.Load() == before {
		t.Skip("the file was not mapped here")
	}
	if reqs != cut || len(errs) != 1 || !strings.Contains(errs[0], "cut short while it was read") || !strings.HasPrefix(errs[0], "cut.jsonl:101") {
		t.Errorf("%d requests (cut after %d), errors %q; want the requests before the cut and one error on line 101", reqs, cut, errs)
	}
}

// The pages released while a session is read are only those of lines the
// reader ahead has left behind: it never faults on them, and finds what
// every line after the second shares with the line before; the requests
// are the same as read.
func TestMappedReleaseKeepsReaderAhead(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 60, 5); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, gen.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	defer func(was int) { releaseStep = was }(releaseStep)
	releaseStep = 16 << 10 // a release before almost every line
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	faults, ahead := aheadFaults.Load(), sharedAhead.Load()
	if n := sameMappedOrRead(t, p); n != 59 {
		t.Errorf("%d lines read from the mapping, want 59", n)
	}
	if n := aheadFaults.Load() - faults; n != 0 {
		t.Errorf("the reader ahead faulted %d times", n)
	}
	if n := sharedAhead.Load() - ahead; n != 58 {
		t.Errorf("%d lines found ahead, want 58", n)
	}
}

// Whatever a file holds, decoding it with every shortcut (its lines read
// from a mapping and compared ahead, each walked after the line before, the
// repeated elements' segments taken in place) gives what decoding it
// without any gives: read through the buffer, walked in full, copied.
func FuzzDecodeShortcutsSame(f *testing.F) {
	s := addSessionSeeds(f)
	f.Add([]byte(strings.Replace(s, `"ok 1"`, `"ok 1","x":`, 1)))
	f.Fuzz(func(t *testing.T, in []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(p, in, 0o600); err != nil {
			t.Fatal(err)
		}
		opts := Options{Source: "f.jsonl"}
		fast := decodeFile(t, p, opts, true)
		defer func(w, i bool) { walkAfter, inPlace = w, i }(walkAfter, inPlace)
		walkAfter, inPlace = false, false
		slow := decodeFile(t, p, opts, false)
		sameDecoded(t, "fuzzed", "with the shortcuts", fast, "without", slow)
	})
}
