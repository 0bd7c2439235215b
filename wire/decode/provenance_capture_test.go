package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/provenance"
)

// captureWorkspace lays the capture's workspace out in a temporary folder
// as capture.sh's workspace.js wrote it (testdata/agents/workspace keeps its
// files flat): the instruction files at the root, the skill in each agent's
// skills folder, a source file and a README.
func captureWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"} {
		write(f, workspaceFile(t, f))
	}
	skill := workspaceFile(t, "SKILL.md")
	for _, root := range []string{".claude/skills", ".agents/skills", ".gemini/skills", ".codex/skills"} {
		write(root+"/wl-deploy/SKILL.md", skill)
	}
	write("src/main.go", "package main\n\nfunc main() {}\n")
	write("README.md", "# demo\n\nA workspace for capture.sh.\n")
	return dir
}

// captureRequestsWith decodes one capture judged by an index.
func captureRequestsWith(t *testing.T, name string, x *provenance.Index) []wire.Request {
	t.Helper()
	f, err := os.Open(filepath.Join(agentsDir, name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reqs []wire.Request
	for r, err := range Decode(f, Options{Source: name + ".jsonl", Provenance: x}) {
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		reqs = append(reqs, r)
	}
	return reqs
}

func TestProvenanceDump(t *testing.T) {
	x, err := provenance.Build(captureWorkspace(t), provenance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"claude-code", "codex", "gemini-cli"} {
		for _, r := range captureRequestsWith(t, c, x)[:1] {
			for _, s := range r.Segments {
				if s.Kind == wire.KindToolSchema {
					continue
				}
				t.Logf("%s %s %s %s %s %q", c, s.ID, s.Kind, s.Trust, s.Label, clipT(s.Text))
			}
		}
	}
}

func clipT(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 90 {
		return s[:45] + "…" + s[len(s)-45:]
	}
	return s
}
