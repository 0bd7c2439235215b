package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/wire/audit"
)

// allCommands are the paths of every command the root has, the root first
// ("" for it), hidden ones included.
func allCommands() []string {
	root := newRoot(&App{})
	out := []string{""}
	var walk func(c *cobra.Command, path string)
	walk = func(c *cobra.Command, path string) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			p := strings.TrimSpace(path + " " + sub.Name())
			out = append(out, p)
			walk(sub, p)
		}
	}
	walk(root, "")
	return out
}

// fields collapses whitespace, to compare text however it was wrapped.
func fields(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestHelpWrapsToTheWidth: with COLUMNS=80 no line of any command's help,
// nor of check --rules, is wider than 80 cells, and every word of each
// command's description is still there, whole (a description written at 95
// columns is re-flowed, not cut); with COLUMNS=100 the paragraphs use the
// room (some line is wider than 80), so they are not pre-wrapped.
func TestHelpWrapsToTheWidth(t *testing.T) {
	cmds := allCommands()
	if len(cmds) < 14 {
		t.Fatalf("found %d commands: %v", len(cmds), cmds)
	}
	root := newRoot(&App{})
	for _, path := range cmds {
		args := append(strings.Fields(path), "--help")
		t.Setenv("COLUMNS", "80")
		code, out, _ := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for i, line := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("%v at 80 columns: line %d is %d wide: %q", args, i+1, w, line)
			}
		}
		c, _, _ := root.Find(strings.Fields(path))
		if long := strings.TrimSpace(c.Long); long != "" && !strings.Contains(fields(out), fields(long)) {
			t.Errorf("%v: the description's words are not all there, in order", args)
		}
		t.Setenv("COLUMNS", "100")
		_, wide, _ := runCLI(t, "", args...)
		widest := 0
		for _, line := range strings.Split(wide, "\n") {
			widest = max(widest, ansi.StringWidth(line))
		}
		if strings.Count(c.Long, "\n") > 3 && (widest <= 80 || widest > 100) {
			t.Errorf("%v at 100 columns: widest line %d, want 81 to 100", args, widest)
		}
	}
	t.Setenv("COLUMNS", "80")
	_, rules, _ := runCLI(t, "", "check", "--rules")
	for i, line := range strings.Split(rules, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("check --rules at 80 columns: line %d is %d wide: %q", i+1, w, line)
		}
	}
	for _, r := range audit.Rules {
		if !strings.Contains(fields(rules), fields(r.ID+" "+string(r.Severity)+" "+r.Short+" "+r.Help)) {
			t.Errorf("check --rules: %s's severity, short text and help not all there", r.ID)
		}
	}
}

// TestWrapCommand: an example too long for the width is cut at blanks
// outside quotes and brackets, continued with " \" unless the line ends
// in a pipe, its lines after the first indented 4 more.
func TestWrapCommand(t *testing.T) {
	got := wrapCommand(`  wirelens inspect session.jsonl --json | jq '.requests[].segments[] | select(.trust == "untrusted")'`, 50, ` \`)
	want := []string{
		`  wirelens inspect session.jsonl --json |`,
		`      jq '.requests[].segments[] | select(.trust == "untrusted")'`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = wrapCommand("  wirelens report --before A --after B [--format markdown|html] [--redact]", 50, "")
	if strings.Join(got, "\n") != "  wirelens report --before A --after B\n      [--format markdown|html] [--redact]" {
		t.Errorf("usage: %q", got)
	}
}

// TestTablesFitCOLUMNS: with COLUMNS=80, piped, every line of inspect and
// context fits 80 cells (inspect was about 120 wide, context 150; on the
// real agents' captures inspect 81 and context 119) and no
// piece of them is lost: inspect names each segment by what --json labels
// it (the tool "Read", the CLAUDE.md path); unset, piped output keeps one
// row a segment, however wide.
func TestTablesFitCOLUMNS(t *testing.T) {
	file := "testdata/claudemd/claude-code-request.json"
	t.Setenv("COLUMNS", "80")
	runs := [][]string{{"inspect", file}, {"context", file}, {"inspect", "testdata/sessions/session.jsonl"}}
	// cache's header, table, notes and cost lines, on fixtures with breaks,
	// idle gaps, lanes, provider verdicts and a below-minimum note.
	for _, f := range []string{"testdata/sessions/session.jsonl", "testdata/cache/idle.claude-trace.jsonl",
		"testdata/verdicts/anthropic-diagnostics.claude-trace.jsonl", "testdata/mcp/poisoned-session.jsonl", "testdata/agents/claude-code.jsonl"} {
		runs = append(runs, []string{"cache", f})
	}
	// The real captures of seven agents: many categories, long paths,
	// envelopes of every kind.
	agents, _ := filepath.Glob("testdata/agents/*.jsonl")
	if len(agents) < 7 {
		t.Fatalf("only %d agent captures", len(agents))
	}
	for _, f := range agents {
		runs = append(runs, []string{"inspect", f}, []string{"context", f}, []string{"cache", f})
	}
	for _, args := range runs {
		code, out, _ := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for i, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%v: line %d is %d wide: %q", args, i+1, w, l)
			}
		}
		if args[0] == "inspect" && args[1] == file {
			for _, want := range []string{"tools[0] Read", "/home/ana/shop/CLAUDE.md", "~269 tokens"} {
				if !strings.Contains(out, want) {
					t.Errorf("inspect at 80 columns lacks %q:\n%s", want, out)
				}
			}
		}
		if args[0] == "context" && strings.HasSuffix(args[1], "qwen-code.jsonl") {
			// Twelve columns and the bar: split in two tables, each
			// headed by REQUEST, none of the columns lost.
			for _, want := range []string{"RULES", "SKILLS", "USER", "MODEL", "OTHER", "CONTEXT", "@4 "} {
				if !strings.Contains(out, want) {
					t.Errorf("context at 80 columns lacks %q:\n%s", want, out)
				}
			}
			if n := strings.Count(out, "  REQUEST "); n != 2 {
				t.Errorf("context's growth table at 80 columns in %d parts, want 2:\n%s", n, out)
			}
		}
		if strings.Contains(out, "wire/price/") {
			t.Errorf("%v: a source path in the output:\n%s", args, out)
		}
	}
	t.Setenv("COLUMNS", "")
	_, out, _ := runCLI(t, "", "inspect", file)
	if !strings.Contains(out, "  tools[0] Read ") || !strings.Contains(out, "tool-schema") || strings.Count(out, "\n") != 20 { // 17 segments (the project file's header is the host's), 3 lines of head and legend
		t.Errorf("piped inspect without COLUMNS is not one row a segment:\n%s", out)
	}
}
