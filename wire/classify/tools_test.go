package classify

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func toolPart(i int, name, text string) wire.Part {
	return wire.Part{ID: "tools[" + string(rune('0'+i)) + "]", Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: name, Text: text}
}

// TestToolOrigin: each agent's convention for an MCP server's tool gives
// the tool its server and makes it untrusted; the hosts' own tools stay
// trusted, with no server.
func TestToolOrigin(t *testing.T) {
	cases := []struct {
		name, server, tool string
	}{
		{"mcp__github__create_issue", "github", "create_issue"},        // Claude Code, Codex, qwen-code
		{"mcp__my-server__do__thing", "my-server", "do__thing"},        // the first "__" ends the server
		{"mcp__docs__.search", "docs", "search"},                       // a Responses namespace mcp__docs__
		{"mcp_github_create_issue", "github", "create_issue"},          // Gemini CLI
		{"discovered_tool_deploy", "tool discovery command", "deploy"}, // Gemini CLI's discovery command
		{"Read", "", ""}, {"read_file", "", ""}, {"functions.exec", "", ""}, {"bash", "", ""},
		{"list_mcp_resources", "", ""}, {"ReadMcpResourceTool", "", ""},
		{"mcp__wl_mcp.add_numbers", "wl_mcp", "add_numbers"}, // Codex's namespace mcp__wl_mcp
		{"mcp__wl_mcp", "wl_mcp", ""},                        // the namespace itself
		{"mcp__", "", ""}, {"mcp____x", "", ""}, {"mcp__s__", "", ""}, {"mcp_", "", ""},
	}
	for _, c := range cases {
		segs := Classify(toolPart(0, c.name, `{"name":"`+c.name+`"}`))
		s := segs[0]
		wantTrust := wire.Trusted
		if c.server != "" {
			wantTrust = wire.Untrusted
		}
		if len(segs) != 1 || s.Kind != wire.KindToolSchema || s.Trust != wantTrust || s.Server != c.server || s.Label != c.name {
			t.Errorf("%s: kind %s trust %s server %q, want trust %s server %q", c.name, s.Kind, s.Trust, s.Server, wantTrust, c.server)
		}
		if c.server != "" && c.tool != "" && ToolName(&s) != c.tool {
			t.Errorf("%s: tool name %q, want %q", c.name, ToolName(&s), c.tool)
		}
	}
}

// TestMarkTools: the servers a workspace configures name their tools
// (opencode's "<server>_<tool>"); in a request of an agent that sends MCP
// tools unprefixed (opencode), a tool it does not ship is a server's; in
// another agent's request an unknown tool stays the host's; segs is never
// written.
func TestMarkTools(t *testing.T) {
	build := func(names ...string) []wire.Segment {
		var segs []wire.Segment
		for i, n := range names {
			segs = append(segs, Classify(toolPart(i, n, `{"name":"`+n+`"}`))...)
		}
		return segs
	}
	oc := build("bash", "read", "edit", "glob", "grep", "my_server_lookup", "github_create_issue")
	got := MarkTools(oc, nil)
	if got == nil {
		t.Fatal("opencode: nothing marked")
	}
	for i, want := range []string{"", "", "", "", "", "my", "github"} {
		if got[i].Server != want || (want != "") != (got[i].Trust == wire.Untrusted) {
			t.Errorf("opencode %s: server %q trust %s, want %q", got[i].Label, got[i].Server, got[i].Trust, want)
		}
	}
	if oc[5].Server != "" || oc[5].Trust != wire.Trusted {
		t.Error("MarkTools wrote its input")
	}
	// With the workspace's servers the name is exact.
	got = MarkTools(oc, []string{"my server", "github"})
	if got[5].Server != "my server" || got[6].Server != "github" {
		t.Errorf("configured: %q %q", got[5].Server, got[6].Server)
	}
	// Claude Code: an unknown tool (a newer built-in) stays the host's.
	cc := build("Read", "Bash", "Edit", "Write", "SomethingNew")
	if got := MarkTools(cc, nil); got != nil {
		t.Errorf("Claude Code's unknown tool was marked: %+v", got[4])
	}
	if a := BuiltinAgent(cc); a != "claude-code" {
		t.Errorf("agent %q", a)
	}
	// A configured server's tool in any agent's request.
	if got := MarkTools(cc, []string{"Some"}); got != nil {
		t.Errorf("a prefix with no separator is not the server's: %+v", got)
	}
	// cline sends "<server>__<tool>" (its capture of 2026-12-01).
	cl := build("read_files", "run_commands", "apply_patch", "search_codebase", "wl-mcp__add_numbers", "team_new_thing")
	if got := MarkTools(cl, nil); got == nil || got[4].Server != "wl-mcp" || got[5].Server != "" || got[5].Trust != wire.Trusted {
		t.Errorf("cline: %+v", got)
	}
	// pi's four tools are opencode's too: a tie names no agent, and its
	// other tool stays the host's.
	pi := build("read", "bash", "edit", "write", "my_tool")
	if got := MarkTools(pi, nil); got != nil || BuiltinAgent(pi) != "" {
		t.Errorf("pi: agent %q, marked %+v", BuiltinAgent(pi), got)
	}
	cc2 := build("Read", "Bash", "Edit", "jira.search")
	if got := MarkTools(cc2, []string{"jira"}); got == nil || got[3].Server != "jira" {
		t.Errorf("configured server jira: %+v", got)
	}
}
