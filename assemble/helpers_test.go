package assemble

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// corpusStrings is every hostile string of the corpora: the hostile seeds,
// the Big List of Naughty Strings, the raw byte seeds and the Trojan Source
// samples.
func corpusStrings(t testing.TB) []string { return wiretest.Strings(t) }

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
