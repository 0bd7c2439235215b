package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// mcpSession decodes the MCP fixture: host tools and one MCP server per
// poisoning pattern.
func mcpSession(t *testing.T) []wire.Request {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "mcp", "poisoned-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reqs []wire.Request
	for r, err := range decode.Decode(f, decode.Options{Source: "mcp.jsonl"}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// TestMCPToolsGrouped: the segment column names each MCP server over its
// tools, with the untrusted badge; the host's tools keep their kind.
func TestMCPToolsGrouped(t *testing.T) {
	m := startModel(t, Options{Requests: mcpSession(t), Analysis: DefaultAnalysis(), Theme: themes.Mono}, 200, 60)
	screen := plain(m.View().Content)
	for _, want := range []string{"MCP notes · 1 tools › add_note", "MCP weather · 1 tools › get_forecast", "MCP docs · 1 tools › search"} {
		line := ""
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, want) {
				line = l
			}
		}
		if line == "" {
			t.Errorf("no row %q:\n%s", want, screen)
		} else if !strings.Contains(line, "UNTRUSTED") {
			t.Errorf("row %q has no untrusted badge: %q", want, line)
		}
	}
	if strings.Contains(screen, "MCP Read") || !strings.Contains(screen, "tool-schema") {
		t.Errorf("the host's tools lost their kind:\n%s", screen)
	}
}

// TestFindingsByServer: s in the Findings view shows one MCP server's
// findings at a time, then all again.
func TestFindingsByServer(t *testing.T) {
	m := startModel(t, Options{Requests: mcpSession(t), Analysis: DefaultAnalysis(), Theme: themes.Mono}, 200, 60)
	pressKeys(t, m, "3")
	all := len(m.shownFindings())
	if all == 0 {
		t.Fatal("no findings")
	}
	pressKeys(t, m, "s")
	if m.findServer != "notes" {
		t.Fatalf("first server %q, want notes", m.findServer)
	}
	fs := m.shownFindings()
	if len(fs) == 0 || len(fs) >= all {
		t.Fatalf("notes: %d of %d findings", len(fs), all)
	}
	for _, f := range fs {
		if f.server != "notes" {
			t.Errorf("finding of %q under notes: %s", f.server, f.Message)
		}
	}
	if screen := plain(m.View().Content); !strings.Contains(screen, "MCP server notes") || strings.Contains(screen, "mcp__docs__search") {
		t.Errorf("filtered view:\n%s", screen)
	}
	// The hazards of the chars server's tool are its findings too.
	for m.findServer != "chars" && m.findServer != "" || m.findServer == "notes" {
		pressKeys(t, m, "s")
	}
	if m.findServer != "chars" || len(m.shownFindings()) < 2 {
		t.Errorf("chars: %q, %d findings", m.findServer, len(m.shownFindings()))
	}
	for m.findServer != "" {
		pressKeys(t, m, "s")
	}
	if len(m.shownFindings()) != all {
		t.Errorf("back to all: %d of %d", len(m.shownFindings()), all)
	}
}
