package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// fixtureInputs are the files of testdata that check reads as inputs: every
// regular file but the goldens, READMEs and scripts.
func fixtureInputs(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(path) {
		case ".golden", ".md", ".sh", ".js", ".txt", ".go":
			return nil
		}
		out = append(out, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// runWorkers runs the program with batchWorkers set to n.
func runWorkers(n int, args ...string) (int, string, string) {
	defer func(old int) { batchWorkers = old }(batchWorkers)
	batchWorkers = n
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestBatchMatchesSerial: check and cache read several inputs at once and
// print what the serial run prints, byte for byte, exit code and errors
// included: on every fixture in testdata given at once (good and broken
// inputs, every format), on a generated folder of transcripts, on the
// folder given twice (a source read twice is read in order) and on a
// folder beside single files and FILE@N references.
func TestBatchMatchesSerial(t *testing.T) {
	fixtures := fixtureInputs(t)
	if len(fixtures) < 100 {
		t.Fatalf("%d fixtures found in testdata, want the whole folder", len(fixtures))
	}
	folder, _ := genFolder(t, 120, 3)
	cases := map[string][]string{
		"fixtures":     fixtures,
		"folder":       {folder},
		"folder twice": {folder, folder},
		"mixed":        {fixtures[0], folder, "testdata/agents/codex.jsonl@2", "testdata/agents/claude-code.jsonl", "testdata/no-such-file"},
	}
	cmds := [][]string{
		{"check", "--json"},
		{"check"},
		{"check", "--sarif"},
		{"check", "--every-request", "--json"},
		{"check", "--cache", "--json"},
		{"cache", "--json"},
		{"cache"},
	}
	for name, inputs := range cases {
		for _, cmd := range cmds {
			args := append(slices.Clone(cmd), inputs...)
			code1, out1, err1 := runWorkers(1, args...)
			code4, out4, err4 := runWorkers(4, args...)
			label := name + ": " + strings.Join(cmd, " ")
			if len(out1) < 100 {
				t.Errorf("%s: the serial run printed %d bytes: %q", label, len(out1), out1)
			}
			if code1 != code4 || out1 != out4 || err1 != err4 {
				t.Errorf("%s: 4 workers differ from the serial run: exit %d/%d, stdout %d/%d bytes (first difference at %d), stderr %q/%q",
					label, code1, code4, len(out1), len(out4), firstDiff(out1, out4), clipText(err1), clipText(err4))
			}
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func clipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestBatchGCLimit: a batch's soft memory limit is 256 MB plus twice its
// input, the collector's target 400, both put back after; a GOGC of the
// user's leaves both alone.
func TestBatchGCLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	restore := batchGC(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != 256<<20+200<<20 {
		t.Errorf("limit %d, want %d", got, 256<<20+200<<20)
	}
	if got := debug.SetGCPercent(-1); got != 400 {
		t.Errorf("GC percent %d, want 400", got)
	}
	debug.SetGCPercent(400)
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after the batch, want %d back", got, before)
	}
	t.Setenv("GOGC", "100")
	restore = batchGC(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOGC set the limit is %d, want %d left alone", got, before)
	}
	restore()
}
