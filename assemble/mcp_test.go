package assemble

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMCPServers reads the agents' MCP configurations of the fixture
// workspace: every server once, in the order of the files.
func TestMCPServers(t *testing.T) {
	d, c, err := OpenDir(filepath.Join("..", "testdata", "mcp", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	servers, errs := MCPServers(d)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := []string{"notes", "weather", "tracker", "chars", "docs", "my server", "mailer"}
	if got := MCPServerNames(servers); !slices.Equal(got, want) {
		t.Errorf("servers %q, want %q", got, want)
	}
	if servers[0].File != ".mcp.json" || servers[2].File != ".cursor/mcp.json" || servers[6].File != "opencode.json" {
		t.Errorf("files: %+v", servers)
	}
}

// TestMCPServersBadInput: invalid JSON is an error naming the file and the
// line; a link out of the workspace and a directory are not read; the other
// files still are.
func TestMCPServersBadInput(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "mcp.json"), []byte(`{"mcpServers":{"far":{}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte("{\n  \"mcpServers\": {\n    \"a\": {\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755)
	if err := os.Symlink(filepath.Join(outside, "mcp.json"), filepath.Join(dir, ".cursor", "mcp.json")); err != nil {
		t.Skip(err)
	}
	os.MkdirAll(filepath.Join(dir, ".gemini", "settings.json"), 0o755)
	os.WriteFile(filepath.Join(dir, "opencode.json"), []byte(`{"mcp":{"ok":{}}}`), 0o644)
	d, c, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	servers, errs := MCPServers(d)
	if got := MCPServerNames(servers); !slices.Equal(got, []string{"ok"}) {
		t.Errorf("servers %q, want only ok", got)
	}
	if len(errs) != 3 {
		t.Fatalf("want 3 errors, got %v", errs)
	}
	if !strings.HasPrefix(errs[0].Error(), ".mcp.json:4: invalid JSON") {
		t.Errorf("bad JSON: %v", errs[0])
	}
	if !strings.HasPrefix(errs[1].Error(), ".cursor/mcp.json: ") || !strings.HasPrefix(errs[2].Error(), ".gemini/settings.json: not a regular file") {
		t.Errorf("link and directory: %v / %v", errs[1], errs[2])
	}
}

// TestMCPServersComments: opencode.jsonc and VS Code's mcp.json may hold
// comments; a "//" inside a string is no comment.
func TestMCPServersComments(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "opencode.jsonc"), []byte("{\n  // servers\n  \"$schema\": \"https://x.test/a\",\n  \"mcp\": {\n    /* local */ \"one\": {},\n    \"two\": {\"url\": \"https://two.test//mcp\"}\n  }\n}\n"), 0o644)
	d, c, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	servers, errs := MCPServers(d)
	if got := MCPServerNames(servers); len(errs) > 0 || !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("servers %q, errors %v", got, errs)
	}
}

// TestMCPServersOfCaptures: the workspaces the agents were captured in
// configure the MCP server wl-mcp for Claude Code, Gemini CLI, qwen-code and
// opencode; each file is read without error.
func TestMCPServersOfCaptures(t *testing.T) {
	for _, w := range []string{"workspace", "workspace-clean", "workspace-notags"} {
		d, c, err := OpenDir(filepath.Join("..", "testdata", "agents", w))
		if err != nil {
			t.Fatal(err)
		}
		servers, errs := MCPServers(d)
		c.Close()
		files := map[string]bool{}
		for _, s := range servers {
			if s.Name == "wl-mcp" {
				files[s.File] = true
			}
		}
		if len(errs) > 0 || !files[".mcp.json"] || len(servers) != 1 {
			t.Errorf("%s: servers %+v, errors %v", w, servers, errs)
		}
	}
}
