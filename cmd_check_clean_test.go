package main

import (
	"encoding/json"
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
