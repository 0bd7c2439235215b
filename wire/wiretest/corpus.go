// Package wiretest gives tests across the module one way to read the hostile
// corpora and reference vectors kept in the repository's testdata folder, so
// that a clone with nothing beside it passes `go test ./...`, and recordings
// made from its fixtures that carry credentials everywhere (WriteLeaks).
package wiretest

import (
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Testdata is the path of the repository's testdata folder joined with elem,
// found from this file's own place in the module (tests run with their
// package folder as the working directory, which differs per package).
func Testdata(tb testing.TB, elem ...string) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("wiretest: cannot locate the module's testdata folder")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	return filepath.Join(append([]string{root}, elem...)...)
}

// Read reads a file under testdata and fails the test when it is missing.
func Read(tb testing.TB, elem ...string) []byte {
	tb.Helper()
	path := Testdata(tb, elem...)
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("wiretest: %v", err)
	}
	return raw
}

// Seeds are the groups of testdata/corpora/hostile-seeds.json:
// envelope_breakout, unicode_smuggling and terminal_escapes.
func Seeds(tb testing.TB) map[string][]string {
	tb.Helper()
	var seeds map[string][]string
	if err := json.Unmarshal(Read(tb, "corpora", "hostile-seeds.json"), &seeds); err != nil {
		tb.Fatalf("wiretest: hostile-seeds.json: %v", err)
	}
	if len(seeds) == 0 {
		tb.Fatal("wiretest: hostile-seeds.json holds no group")
	}
	return seeds
}

// BLNS is the Big List of Naughty Strings.
func BLNS(tb testing.TB) []string {
	tb.Helper()
	var blns []string
	if err := json.Unmarshal(Read(tb, "corpora", "blns.json"), &blns); err != nil {
		tb.Fatalf("wiretest: blns.json: %v", err)
	}
	if len(blns) < 500 {
		tb.Fatalf("wiretest: blns.json holds only %d strings", len(blns))
	}
	return blns
}

// RawBytes are the byte strings of testdata/corpora/raw-byte-seeds.hex:
// invalid UTF-8, raw C1 bytes, encoded surrogates.
func RawBytes(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, line := range strings.Split(string(Read(tb, "corpora", "raw-byte-seeds.hex")), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			tb.Fatalf("wiretest: raw-byte-seeds.hex: %q: %v", line, err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		tb.Fatal("wiretest: raw-byte-seeds.hex holds no seed")
	}
	return out
}

// TrojanFile is one Trojan Source sample.
type TrojanFile struct {
	Path string // relative to testdata/corpora/trojan-source, slash-separated
	Text string
}

// TrojanSource is every Trojan Source sample, in path order.
func TrojanSource(tb testing.TB) []TrojanFile {
	tb.Helper()
	root := Testdata(tb, "corpora", "trojan-source")
	var out []TrojanFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, TrojanFile{Path: filepath.ToSlash(rel), Text: string(data)})
		return nil
	})
	if err != nil || len(out) < 8 {
		tb.Fatalf("wiretest: trojan-source corpus at %s: %d files, %v", root, len(out), err)
	}
	slices.SortFunc(out, func(a, b TrojanFile) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Strings is every hostile string of the corpora, in a fixed order: the
// hostile seeds (groups in name order), the Big List of Naughty Strings, the
// raw byte seeds and the Trojan Source samples whole.
func Strings(tb testing.TB) []string {
	tb.Helper()
	seeds := Seeds(tb)
	var out []string
	for _, group := range slices.Sorted(maps.Keys(seeds)) {
		out = append(out, seeds[group]...)
	}
	out = append(out, BLNS(tb)...)
	for _, b := range RawBytes(tb) {
		out = append(out, string(b))
	}
	for _, f := range TrojanSource(tb) {
		out = append(out, f.Text)
	}
	return out
}
