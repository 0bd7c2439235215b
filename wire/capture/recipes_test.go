package capture

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPiRecipeKeepsItsAgentFolder: with --mock, pi's recipe points pi's
// providers at the proxy through an extension of the run's folder, loaded
// with --extension, and leaves PI_CODING_AGENT_DIR alone, so pi still reads
// ~/.pi/agent (its AGENTS.md there is what it sends; a folder of the run in
// its place lost it from the request). Without --mock, or with --intercept,
// nothing is written or added.
func TestPiRecipeKeepsItsAgentFolder(t *testing.T) {
	r := RecipeFor("/usr/local/bin/pi")
	if r == nil || r.Agent != "pi" {
		t.Fatalf("no pi recipe: %+v", r)
	}
	dir := t.TempDir()
	a, err := r.Apply("http://127.0.0.1:4321", dir, []string{"HOME=/home/u"}, []string{"-p", "hi"}, true, false, false)
	if err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(dir, "pi-wirelens.js")
	if !slices.Equal(a.Args, []string{"--extension", ext}) || !slices.Equal(a.Files, []string{ext}) {
		t.Errorf("args %q, files %q; want --extension %s", a.Args, a.Files, ext)
	}
	for _, kv := range a.Env {
		if strings.HasPrefix(kv, "PI_CODING_AGENT_DIR=") || strings.HasPrefix(kv, "=") {
			t.Errorf("the recipe sets %s", kv)
		}
	}
	b, err := os.ReadFile(ext)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`pi.registerProvider("anthropic", { baseUrl: "http://127.0.0.1:4321" });`,
		`pi.registerProvider("openai", { baseUrl: "http://127.0.0.1:4321/v1" });`, "export default function (pi) {"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the extension has no %q:\n%s", want, b)
		}
	}
	if fi, err := os.Stat(ext); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the extension's mode: %v %v", fi.Mode(), err)
	}
	for _, c := range []struct{ mock, intercept bool }{{false, false}, {true, true}} {
		d := t.TempDir()
		a, err := r.Apply("http://127.0.0.1:4321", d, nil, []string{"-p", "hi"}, c.mock, c.intercept, false)
		if err != nil || len(a.Args) != 0 || len(a.Env) != 0 || len(a.Files) != 0 {
			t.Errorf("mock %v intercept %v: %+v %v", c.mock, c.intercept, a, err)
		}
		if left, _ := os.ReadDir(d); len(left) != 0 {
			t.Errorf("mock %v intercept %v: wrote %v", c.mock, c.intercept, left)
		}
	}
}
