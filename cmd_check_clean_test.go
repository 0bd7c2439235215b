package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkFinding is one finding of check --json.
type checkFinding struct {
	Rule, Severity, Segment, Message string
}

// runCheckJSON runs check --json with args: its exit code and findings.
func runCheckJSON(t *testing.T, args ...string) (int, []checkFinding) {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"check", "--json"}, args...)...)
	var got struct{ Findings []checkFinding }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("check %v: exit %d, %v\n%s%s", args, code, err, out, errs)
	}
	return code, got.Findings
}

// TestCheckExitsZeroOnACleanIsolatedBuild: a host that keeps workspace text
// out of the system channel (wirelens's own isolated build) passes check on
// a clean workspace, with and without --workspace; the legacy build of the
// same workspace fails it, and only for the layout (its files in the system
// channel, the time in the prefix).
func TestCheckExitsZeroOnACleanIsolatedBuild(t *testing.T) {
	for _, ws := range []string{filepath.Join("testdata", "workspaces", "clean"), filepath.Join("testdata", "agents", "workspace-clean")} {
		for _, layout := range []string{"isolated", "legacy"} {
			code, out, errs := runCLI(t, "", "build", ws, "--layout", layout, "--now", "2026-11-29T22:08:44Z")
			if code != 0 {
				t.Fatalf("build %s --layout %s: exit %d %s", ws, layout, code, errs)
			}
			req := filepath.Join(t.TempDir(), layout+".json")
			if err := os.WriteFile(req, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, extra := range [][]string{nil, {"--workspace", ws, "--no-home"}} {
				code, fs := runCheckJSON(t, append(extra, req)...)
				if layout == "isolated" {
					if code != 0 || len(fs) != 0 {
						t.Errorf("%s isolated %v: exit %d, findings %+v", ws, extra, code, fs)
					}
					continue
				}
				if code != 1 {
					t.Errorf("%s legacy %v: exit %d, want 1", ws, extra, code)
				}
				for _, f := range fs {
					if !slices.Contains(layoutRules, f.Rule) {
						t.Errorf("%s legacy %v: %s %s: %s", ws, extra, f.Rule, f.Segment, f.Message)
					}
				}
			}
		}
	}
}

// layoutRules are the findings that stay true of a harmless file: where the
// host puts it (the system channel, its own authority, a message without an
// envelope) and what it puts in its cached prefix.
var layoutRules = []string{"untrusted-in-system", "untrusted-elevated", "unwrapped-workspace", "volatile-in-prefix"}

// TestCheckOnCleanAgentCaptures: on each agent's capture of the clean
// workspace, with and without --workspace, no hazard rule fires: every
// finding is one of the layout's, and names the workspace file or skill
// (or, for the time, the host's prefix). check exits 1 where the agent
// pastes the harmless files into its system channel or frames them with its
// authority (all seven today), as the contract's untrusted-in-system says.
func TestCheckOnCleanAgentCaptures(t *testing.T) {
	m, _ := filepath.Glob(filepath.Join("testdata", "agents", "*-clean.jsonl"))
	if len(m) < 7 {
		t.Fatalf("%d clean captures", len(m))
	}
	ws := filepath.Join("testdata", "agents", "workspace-clean")
	home := filepath.Join("testdata", "agents", "home")
	for _, c := range m {
		for _, extra := range [][]string{nil, {"--workspace", ws, "--home", home}} {
			code, fs := runCheckJSON(t, append(extra, c)...)
			high := 0
			for _, f := range fs {
				if f.Severity == "high" {
					high++
				}
				if !slices.Contains(layoutRules, f.Rule) {
					t.Errorf("%s %v: %s %s: %s", c, extra, f.Rule, f.Segment, f.Message)
					continue
				}
				named := strings.Contains(f.Message, "workspace-clean") || strings.Contains(f.Message, "from skill wl-deploy ") ||
					f.Rule == "volatile-in-prefix" && strings.Contains(f.Message, "in the trusted prefix") ||
					strings.Contains(f.Message, " from ") && (strings.Contains(f.Message, ".md") || strings.Contains(f.Message, "rules"))
				if !named {
					t.Errorf("%s %v: %s %s names no workspace file nor the host's layout: %s", c, extra, f.Rule, f.Segment, f.Message)
				}
			}
			if want := min(high, 1); code != want {
				t.Errorf("%s %v: exit %d with %d high findings", c, extra, code, high)
			}
		}
	}
}

// hazardRules are check's hazard rules (CONTRACT.md): they fire on text of
// any trust, so on a workspace with nothing planted none may fire.
var hazardRules = []string{"bidi-control", "tag-smuggling", "invisible-char", "control-char", "confusable-tag"}

// bareHighs are, per agent, the high findings its capture of the bare
// workspace (testdata/agents/workspace-bare: source files only, no
// instruction file, no skill, no MCP server) raises, measured on the
// captures of 2026-12-02: none puts workspace text in its system channel;
// qwen-code puts the workspace's directory tree in a <system-reminder> of
// its own, which lends it the host's authority (untrusted-elevated), so
// check exits 1 on it. The others exit 0.
var bareHighs = map[string][]string{
	"claude-code": nil, "codex": nil, "gemini-cli": nil, "opencode": nil, "cline": nil, "pi": nil,
	"qwen-code": {"untrusted-elevated"},
}

// workspaceNames are the names of the entries under dir, and .git (which a
// listing of a repository shows).
func workspaceNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{".git": true}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			names[d.Name()] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// tiedToWorkspace says whether a segment's text comes from the workspace
// dir: a directory listing's every line names one of its entries (tree
// drawing, "/" and "/..." aside); any other text is found in one of its files.
func tiedToWorkspace(t *testing.T, dir, kind, text string) bool {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		return false
	}
	if kind == "cwd-listing" {
		names := workspaceNames(t, dir)
		for l := range strings.Lines(text) {
			name := strings.TrimRight(strings.TrimLeft(strings.TrimSpace(l), "│├└─ "), "/.")
			if name != "" && !names[name] {
				return false
			}
		}
		return true
	}
	found := false
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), strings.TrimSpace(text)) {
				found = true
			}
		}
		return nil
	})
	return found
}

// TestCheckOnBareAgentCaptures: on each agent's capture of the bare
// workspace, judged by the capture's own provenance record, by --workspace
// and by the layouts alone (the record cut off), no hazard rule fires and
// every finding is one of the layout's; each high one is bareHighs' and sits
// on an untrusted segment whose text is the workspace's (its directory
// tree's names); each unwrapped-workspace too; check exits 0 where there is
// none (six agents) and 1 where there is (qwen-code). The same agent's
// capture of the poisoned workspace exits 1.
func TestCheckOnBareAgentCaptures(t *testing.T) {
	ws := filepath.Join(agentsDir, "workspace-bare")
	home := filepath.Join(agentsDir, "home")
	for agent, want := range bareHighs {
		t.Run(agent, func(t *testing.T) {
			c := filepath.Join(agentsDir, agent+"-bare.jsonl")
			raw, err := os.ReadFile(c)
			if err != nil {
				t.Fatal(err)
			}
			first, rest, _ := strings.Cut(string(raw), "\n")
			if !strings.Contains(first, `"wirelens_provenance"`) {
				t.Fatalf("%s: no provenance record on its first line", c)
			}
			layouts := filepath.Join(t.TempDir(), agent+"-bare.jsonl")
			if err := os.WriteFile(layouts, []byte(rest), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, run := range []struct {
				how  string
				args []string
			}{{"record", []string{c}}, {"workspace", []string{"--workspace", ws, "--home", home, c}}, {"layouts", []string{layouts}}} {
				code, out, errs := runCLI(t, "", append([]string{"check", "--json"}, run.args...)...)
				var got struct {
					Findings []struct {
						Rule, Severity, Segment, Message string
						Request                          int
					}
				}
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%s: check: exit %d, %v %s", run.how, code, err, errs)
				}
				segs := inspectRedacted(t, run.args...)
				var highs []string
				for _, f := range got.Findings {
					if slices.Contains(hazardRules, f.Rule) || !slices.Contains(layoutRules, f.Rule) {
						t.Errorf("%s: %s %s: %s", run.how, f.Rule, f.Segment, f.Message)
						continue
					}
					if f.Severity == "high" {
						highs = append(highs, f.Rule)
					}
					if f.Rule == "volatile-in-prefix" {
						continue
					}
					s, ok := segs[fmt.Sprint(f.Request)+" "+f.Segment]
					if !ok || s.Trust != "untrusted" || !tiedToWorkspace(t, ws, s.Kind, s.Text) {
						t.Errorf("%s: %s on %s (%+v), not the workspace's text", run.how, f.Rule, f.Segment, s)
					}
				}
				if !slices.Equal(highs, want) {
					t.Errorf("%s: high findings %v, want %v", run.how, highs, want)
				}
				if wantCode := min(len(want), 1); code != wantCode {
					t.Errorf("%s: check exits %d, want %d", run.how, code, wantCode)
				}
			}
			for _, args := range [][]string{{filepath.Join(agentsDir, agent+".jsonl")},
				{"--workspace", filepath.Join(agentsDir, "workspace"), "--home", home, filepath.Join(agentsDir, agent+".jsonl")}} {
				if code, _, errs := runCLI(t, "", append([]string{"check"}, args...)...); code != 1 {
					t.Errorf("check %v (the poisoned workspace): exit %d, want 1 %s", args, code, errs)
				}
			}
		})
	}
}

// redactedSegment is a segment of inspect --json --redact.
type redactedSegment struct{ Trust, Kind, Label, Text string }

// inspectRedacted runs inspect --json --redact with args: each segment by
// "REQUEST ID" (REQUEST counting from 1 over all the inputs).
func inspectRedacted(t *testing.T, args ...string) map[string]redactedSegment {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"inspect", "--json", "--redact"}, args...)...)
	var got struct {
		Requests []struct {
			Segments []struct{ ID, Trust, Kind, Label, Text string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("inspect %v: exit %d, %v %s", args, code, err, errs)
	}
	segs := map[string]redactedSegment{}
	for i, r := range got.Requests {
		for _, s := range r.Segments {
			segs[fmt.Sprint(i+1)+" "+s.ID] = redactedSegment{s.Trust, s.Kind, s.Label, s.Text}
		}
	}
	return segs
}

// TestCodexUserOnlyInstructionsFraming: when the workspace has no AGENTS.md,
// Codex 0.169 frames the user's ~/.codex/AGENTS.md alone under
// "# AGENTS.md instructions" (no "for DIR") in <INSTRUCTIONS>
// (codex-bare.jsonl). That header and the envelope's tags are the host's
// text, and the file's body the user's, in the envelope, as when the header
// names the folder (codex-clean.jsonl), by the layouts alone and by
// provenance.
func TestCodexUserOnlyInstructionsFraming(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(agentsDir, "codex-bare.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(raw), "\n")
	layouts := filepath.Join(t.TempDir(), "codex-bare.jsonl")
	if err := os.WriteFile(layouts, []byte(rest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{layouts, filepath.Join(agentsDir, "codex-bare.jsonl")} {
		var header, body bool
		for id, s := range inspectRedacted(t, file) {
			if strings.HasPrefix(s.Text, "# AGENTS.md instructions") {
				header = s.Trust == "trusted"
				if !header {
					t.Errorf("%s: %s holds Codex's header, judged %s %s", file, id, s.Trust, s.Kind)
				}
			}
			if strings.Contains(s.Text, "WL-USER-MARKER") {
				body = s.Trust == "user" && s.Kind == "agents-md" && !strings.Contains(s.Text, "<INSTRUCTIONS>") && !strings.Contains(s.Text, "</INSTRUCTIONS>")
				if !body {
					t.Errorf("%s: %s holds the user's file, judged %s %s with %q", file, id, s.Trust, s.Kind, s.Text)
				}
			}
		}
		if !header || !body {
			t.Errorf("%s: header the host's %v, body the user's %v", file, header, body)
		}
	}
}
