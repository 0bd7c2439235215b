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

// captureRequestsWith decodes one capture judged by an index.
func captureRequestsWith(t *testing.T, name string, x *provenance.Index) []wire.Request {
	t.Helper()
	f, err := os.Open(filepath.Join(*agentsRoot, name+".jsonl"))
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

// TestProvenanceRecordOnCaptures: the provenance record of the capture's
// workspace and HOME, put at the head of each capture, judges it exactly as
// the index does, with the requests' lines counted after it.
func TestProvenanceRecordOnCaptures(t *testing.T) {
	x := indexOf(t, "workspace")
	for _, c := range agentCaptures(t) {
		t.Run(c, func(t *testing.T) {
			reqs := captureRequestsWith(t, c, x)
			data, err := os.ReadFile(filepath.Join(*agentsRoot, c+".jsonl"))
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
	ws := filepath.Join(agentsDir, "workspace")
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
			// The workspace's .clinerules/rules.md repeats all of AGENTS.md
			// but its heading: a piece without the heading is either's.
			if s.Trust != wire.Untrusted || s.Label != "AGENTS.md" && s.Label != ".clinerules/rules.md" {
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
