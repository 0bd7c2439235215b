package main

import (
	"os"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/decode"
)

// TestREADMECurrent: the README's table of inputs names every format
// --format takes, and its check section every rule check --rules lists.
func TestREADMECurrent(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## Supported inputs")
	end := strings.Index(readme, "## Exit codes")
	if start < 0 || end < start {
		t.Fatal("README has no Supported inputs section before Exit codes")
	}
	table := readme[start:end]
	for _, f := range decode.Formats() {
		if !strings.Contains(table, "| `"+string(f)+"` |") {
			t.Errorf("README's format table has no row for %s", f)
		}
	}
	check := readme[strings.Index(readme, "### check"):]
	if k := strings.Index(check, "\n## "); k > 0 {
		check = check[:k]
	}
	for _, r := range audit.Rules {
		if !strings.Contains(check, "`"+r.ID+"`") {
			t.Errorf("README's check section does not name %s", r.ID)
		}
	}
}
