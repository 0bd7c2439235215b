package assemble

import (
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// corporaDir is ../shared/corpora relative to the repository root.
var corporaDir = filepath.Join("..", "..", "shared", "corpora")

// readCorpus reads a corpus file and fails clearly when it is missing: CI
// has the corpora beside the clone.
func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corporaDir, name))
	if err != nil {
		t.Fatalf("corpus %s missing (expected at %s beside the clone): %v", name, corporaDir, err)
	}
	return data
}

// corpusStrings is every hostile string of the corpora: the hostile seeds,
// the Big List of Naughty Strings, the raw byte seeds and the lines of the
// Trojan Source samples.
func corpusStrings(t testing.TB) []string {
	t.Helper()
	var out []string
	var seeds map[string][]string
	if err := json.Unmarshal(readCorpus(t, "hostile-seeds.json"), &seeds); err != nil {
		t.Fatalf("hostile-seeds.json: %v", err)
	}
	keys := make([]string, 0, len(seeds))
	for k := range seeds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, seeds[k]...)
	}
	var blns []string
	if err := json.Unmarshal(readCorpus(t, "blns.json"), &blns); err != nil {
		t.Fatalf("blns.json: %v", err)
	}
	out = append(out, blns...)
	for _, line := range strings.Split(string(readCorpus(t, "raw-byte-seeds.hex")), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			t.Fatalf("raw-byte-seeds.hex: %q: %v", line, err)
		}
		out = append(out, string(b))
	}
	root := filepath.Join(corporaDir, "trojan-source")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		out = append(out, string(data))
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("trojan-source corpus missing or empty at %s: %v", root, err)
	}
	return out
}

// testNow and testLater are two fixed times.
var (
	testNow   = time.Date(2026, 11, 29, 22, 8, 44, 0, time.UTC)
	testLater = time.Date(2026, 11, 30, 9, 15, 2, 0, time.UTC)
)

// writeTree writes files (slash paths relative to dir; a trailing slash
// makes a directory) and returns dir.
func writeTree(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// collectDir collects a workspace on disk the way `wirelens build` does.
func collectDir(t testing.TB, dir string, now time.Time) *Baseline {
	t.Helper()
	in, closeIn, err := OpenInput(dir, nil, nil, now)
	if err != nil {
		t.Fatalf("OpenInput(%s): %v", dir, err)
	}
	defer closeIn()
	b, err := Collect(in)
	if err != nil {
		t.Fatalf("Collect(%s): %v", dir, err)
	}
	return b
}

// testHost is a fixed host.
var testHost = Host{OS: "linux", Shell: "bash"}
