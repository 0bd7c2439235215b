package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// agentsDir is the folder of the agents' captures (testdata/agents/README.md).
var agentsDir = filepath.Join("testdata", "agents")

// captureWorkspace is the workspace folder a capture of testdata/agents was
// made in, by its name's suffix (NAME.jsonl: workspace; NAME-MODE.jsonl:
// workspace-MODE).
func captureWorkspace(capture string) string {
	name := strings.TrimSuffix(filepath.Base(capture), ".jsonl")
	for _, mode := range []string{"notags", "clean", "bare"} {
		if strings.HasSuffix(name, "-"+mode) {
			return filepath.Join(agentsDir, "workspace-"+mode)
		}
	}
	return filepath.Join(agentsDir, "workspace")
}

// agentsFolder is the folder of captures TestAgentCaptureShapes reads:
// -agents DIR compares a refresh kept elsewhere (capture.sh KEEP=1, its
// captures copied into DIR) with the shapes of the committed ones.
var agentsFolder = flag.String("agents", agentsDir, "the folder of agent captures TestAgentCaptureShapes compares with its goldens")

// shapeMarkers are the markers of testdata/agents/workspace.js, one per
// source of text (the workspace's instruction files, its skill, the user's
// files in HOME, the MCP server's tools) and the planted sentence.
var shapeMarkers = []string{"WL-WORKSPACE-MARKER", "WL-SKILL-MARKER", "WL-SKILL-BODY-MARKER", "WL-USER-MARKER",
	"WL-MCP-SAFE-MARKER", "WL-MCP-POISON-MARKER", "POISONED"}

// requestShapes is the shape of each request of a capture, from inspect
// --json --redact: its format and, per part of the body (a segment id up to
// its first "/": what the provider's JSON holds, however wirelens splits
// it), its channel, role, the tool's name for a tool and how many times each
// marker is in its text. No byte count, no model name, no trust: a date or
// a classifier's change does not move it; a file the agent sent or stopped
// sending does.
func requestShapes(t *testing.T, file string) string {
	t.Helper()
	code, out, errs := runCLI(t, "", "inspect", "--json", "--redact", file)
	if code != 0 {
		t.Fatalf("inspect %s: exit %d: %s", file, code, errs)
	}
	var got struct {
		Requests []struct {
			Format   string
			Segments []struct{ ID, Channel, Role, Label, Text string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("inspect %s: %v", file, err)
	}
	if len(got.Requests) == 0 {
		t.Fatalf("%s: no request", file)
	}
	var b strings.Builder
	for i, r := range got.Requests {
		fmt.Fprintf(&b, "request %d %s\n", i+1, r.Format)
		var part, line, text string
		flush := func() {
			if part == "" {
				return
			}
			b.WriteString(line)
			for _, m := range shapeMarkers {
				if n := strings.Count(text, m); n > 0 {
					fmt.Fprintf(&b, " %s×%d", m, n)
				}
			}
			b.WriteString("\n")
		}
		for _, s := range r.Segments {
			id, _, _ := strings.Cut(s.ID, "/")
			if id != part {
				flush()
				part, text = id, ""
				line = fmt.Sprintf("  %s %s %s", id, s.Channel, s.Role)
				if s.Channel == "tools" {
					line += fmt.Sprintf(" %q", s.Label)
				}
			}
			text += s.Text
		}
		flush()
	}
	return b.String()
}

// TestAgentCaptureShapes: the request shapes (requestShapes) of every
// capture of testdata/agents are the ones in its golden file. A refresh of
// the captures (capture.sh) that changes what an agent sends changes a
// golden: look at the diff, say why in the commit and the README there, then
// -update. The goldens of cline and pi were written from their captures
// made with capture.sh's hand-given flags (cline's auth step and fixed port,
// pi's models.json and port); their captures made through record's recipes
// alone (2026-12-02, kept outside the repository, -agents DIR) have the same
// shapes (pi's since its recipe loads an extension of the run: while it
// replaced ~/.pi/agent with a folder of the run, pi's lost the user's
// AGENTS.md, and this test failed on them; testdata/agents/README.md).
func TestAgentCaptureShapes(t *testing.T) {
	m, _ := filepath.Glob(filepath.Join(*agentsFolder, "*.jsonl"))
	if len(m) == 0 {
		t.Fatalf("no capture in %s", *agentsFolder)
	}
	for _, c := range m {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".jsonl"), func(t *testing.T) {
			golden.RequireEqual(t, []byte(requestShapes(t, c)))
		})
	}
}

// TestAgentCaptureShapesSeeALostFile: a capture whose agent stopped sending
// a file has another shape: cline's capture with the user's rule in HOME
// (the section "## user-rules") cut out of its developer message loses that
// marker and only that.
func TestAgentCaptureShapesSeeALostFile(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(agentsDir, "cline.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const cut = `## user-rules\n# My notes for cline\n\nWL-USER-MARKER: this file is the user's own, in HOME.\nPrefer British spelling.\n`
	if !strings.Contains(string(raw), cut) {
		t.Fatalf("cline.jsonl has no %q", cut)
	}
	lost := filepath.Join(t.TempDir(), "cline.jsonl")
	if err := os.WriteFile(lost, []byte(strings.Replace(string(raw), cut, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, without := requestShapes(t, filepath.Join(agentsDir, "cline.jsonl")), requestShapes(t, lost)
	if !strings.Contains(whole, "WL-USER-MARKER×1") || strings.Contains(without, "WL-USER-MARKER") {
		t.Errorf("the user's rule is not what changed:\n%s\n---\n%s", whole, without)
	}
	if strings.Replace(whole, " WL-USER-MARKER×1", "", 1) != without {
		t.Errorf("more than the user's rule changed:\n%s\n---\n%s", whole, without)
	}
}
