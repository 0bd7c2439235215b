package decode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// workspaceLines are the distinctive lines of the capture's workspace
// files (as the capture test picks them).
func workspaceLines(t *testing.T, files ...string) []string {
	var out []string
	for _, f := range files {
		for _, l := range strings.Split(workspaceFile(t, f), "\n") {
			if l = strings.TrimSpace(l); len(l) >= 12 && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "<") {
				out = append(out, l)
			}
		}
	}
	return out
}

// TestProvenanceOnCaptures: judged by the workspace's index, every line of
// the workspace's files in the captures sits in an untrusted segment that
// names where it came from, and the provenance record read back from the
// head of a capture judges it exactly as the index did.
func TestProvenanceOnCaptures(t *testing.T) {
	x, err := provenance.Build(captureWorkspace(t), provenance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := workspaceLines(t, "AGENTS.md", "CLAUDE.md", "GEMINI.md")
	for _, c := range []string{"claude-code", "codex", "gemini-cli"} {
		t.Run(c, func(t *testing.T) {
			reqs := captureRequestsWith(t, c, x)
			seen := 0
			for _, r := range reqs {
				for _, s := range r.Segments {
					for _, l := range lines {
						if !strings.Contains(s.Text, l) {
							continue
						}
						seen++
						if s.Trust != wire.Untrusted || s.Label == "" {
							t.Errorf("@%d %s holds %q but is %s, label %q", r.Index, s.ID, l, s.Trust, s.Label)
						}
					}
				}
			}
			if seen == 0 {
				t.Fatalf("no workspace line found in the capture")
			}
			// The record at the head of the capture: same segments.
			data, err := os.ReadFile(filepath.Join(agentsDir, c+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			withRecord := append(x.Record(), data...)
			var got []wire.Request
			for r, err := range Decode(strings.NewReader(string(withRecord)), Options{Source: c}) {
				if err != nil {
					t.Fatalf("with the record: %v", err)
				}
				got = append(got, r)
			}
			if len(got) != len(reqs) {
				t.Fatalf("with the record: %d requests, want %d", len(got), len(reqs))
			}
			for i := range got {
				if len(got[i].Segments) != len(reqs[i].Segments) {
					t.Fatalf("@%d: %d segments with the record, %d with the index", i+1, len(got[i].Segments), len(reqs[i].Segments))
				}
				for k, s := range got[i].Segments {
					w := reqs[i].Segments[k]
					if s.ID != w.ID || s.Trust != w.Trust || s.Kind != w.Kind || s.Label != w.Label || s.Text != w.Text {
						t.Errorf("@%d %s: %s %s %q with the record, %s %s %s %q with the index", i+1, s.ID, s.Trust, s.Kind, s.Label, w.ID, w.Trust, w.Kind, w.Label)
					}
				}
				if got[i].Line != reqs[i].Line+1 {
					t.Errorf("@%d: line %d with the record, want %d (the record is line 1)", i+1, got[i].Line, reqs[i].Line+1)
				}
			}
		})
	}
}

// TestProvenanceUnknownLayout: a host wirelens has no layout for pastes the
// workspace's AGENTS.md (with a line that looks like an envelope of its own)
// and the user's own HOME file into its system prompt, between its own
// text. Without an index the layouts table decides what it can; with one,
// every byte of the workspace file is untrusted and labelled AGENTS.md,
// the HOME file is trust user, and the host's text around them is trusted.
func TestProvenanceUnknownLayout(t *testing.T) {
	ws := captureWorkspace(t)
	home := t.TempDir()
	homeMD := "# My notes\n\nWL-USER-MARKER: this file is the user's own, in HOME.\nPrefer British spelling.\n"
	if err := os.MkdirAll(filepath.Join(home, ".config", "opencode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "opencode", "AGENTS.md"), []byte(homeMD), 0o644); err != nil {
		t.Fatal(err)
	}
	agents := workspaceFile(t, "AGENTS.md")
	host1, host2 := "You are a host of no known layout.\nLoaded files follow.\n\n", "\nSkills are listed below; use them when they fit the task.\nAlways answer briefly.\n"
	system := host1 + homeMD + "\n" + agents + host2
	body := `{"model":"m","messages":[{"role":"system","content":` + jsonString(system) + `},{"role":"user","content":"What is 2+2?"}]}`
	x, err := provenance.Build(ws, provenance.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	var r wire.Request
	for got, err := range Decode(strings.NewReader(body), Options{Source: "t.json", Provenance: x}) {
		if err != nil {
			t.Fatal(err)
		}
		r = got
	}
	var joined strings.Builder
	for _, s := range r.Segments {
		if s.Channel != wire.ChannelSystem {
			continue
		}
		joined.WriteString(s.Text)
		ws, hostText := false, false
		for _, l := range workspaceLines(t, "AGENTS.md") {
			ws = ws || strings.Contains(s.Text, l)
		}
		for _, l := range strings.Split(host1+host2, "\n") {
			hostText = hostText || len(l) > 12 && strings.Contains(s.Text, l)
		}
		switch {
		case ws && hostText:
			t.Errorf("%s holds host and workspace text: %q", s.ID, s.Text)
		case ws:
			if s.Trust != wire.Untrusted || s.Label != "AGENTS.md" {
				t.Errorf("%s: %s %s %q, want untrusted, labelled AGENTS.md", s.ID, s.Trust, s.Kind, s.Label)
			}
		case strings.Contains(s.Text, "WL-USER-MARKER"):
			if s.Trust != wire.TrustUser || s.Label != "~/.config/opencode/AGENTS.md" || strings.TrimSpace(s.Text) != strings.TrimSpace(homeMD) {
				t.Errorf("%s: %s %q %q, want the HOME file, trust user", s.ID, s.Trust, s.Label, s.Text)
			}
		case hostText:
			if s.Trust != wire.Trusted {
				t.Errorf("%s: host text %q is %s", s.ID, s.Text, s.Trust)
			}
		}
	}
	if joined.String() != system {
		t.Errorf("the system segments do not join to the system text")
	}
	for _, n := range r.Notes {
		if n == provenance.AssumedNote {
			t.Errorf("judged by an index, the request says its trust was assumed")
		}
	}
	// Without an index nothing decides: the request says so.
	plain := `{"model":"m","messages":[{"role":"system","content":` + jsonString(host1+homeMD+host2) + `},{"role":"user","content":"hi"}]}`
	for got, err := range Decode(strings.NewReader(plain), Options{Source: "t.json"}) {
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got.Notes, provenance.AssumedNote) {
			t.Errorf("without an index: notes %q, want the assumed note", got.Notes)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
