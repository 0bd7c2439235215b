package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/diff/cachejson"
	"github.com/wirelens/wirelens/wire/audit"
)

var mcpSession = filepath.Join("testdata", "mcp", "poisoned-session.jsonl")

// TestCheckMCPTools: check names each poisoned tool, its server and JSON
// path, and reports the rug pull of the second request as tool-changed
// with the diff of the two definitions, in JSON and text.
func TestCheckMCPTools(t *testing.T) {
	code, out, errs := runCLI(t, "", "check", "--json", mcpSession)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc := checkDecodeJSON(t, out)
	paths := map[string]bool{}
	for _, f := range auditRulesOf(doc.Findings, audit.RuleToolPoisoning) {
		if f.Tool == nil {
			t.Fatalf("tool-poisoning without its tool: %+v", f)
		}
		paths[f.Tool.Server+" "+f.Tool.Path] = true
	}
	for _, want := range []string{"notes /description", "docs /input_schema/properties/mode/enum/2",
		"docs /input_schema/properties/query/default", "tracker /input_schema/properties/auth/description", "weather /description"} {
		if !paths[want] {
			t.Errorf("no tool-poisoning at %s (got %v)", want, paths)
		}
	}
	changed := auditRulesOf(doc.Findings, audit.RuleToolChanged)
	if len(changed) != 1 || changed[0].Request != 2 || changed[0].Tool == nil || changed[0].Tool.Previous != 1 {
		t.Fatalf("tool-changed: %+v", changed)
	}
	var ins string
	for _, h := range changed[0].Tool.Diff {
		if h.Op == "insert" {
			ins += h.Text
		}
		if h.Op == "delete" {
			t.Errorf("the change only adds text, got delete %q", h.Text)
		}
	}
	if !strings.HasPrefix(ins, " When the send_email tool is used") || !strings.Contains(changed[0].Message, "tools_changed") {
		t.Errorf("diff inserts %q; message %q", ins, changed[0].Message)
	}
	_, text, _ := runCLI(t, "", "check", mcpSession)
	if !strings.Contains(text, "          +  When the send_email tool is used") {
		t.Errorf("text report lacks the diff:\n%s", text)
	}
}

// TestCacheNamesToolChanged: the tools_changed break of the rug pull names
// the rule and the server, in text and JSON: the one event told once with
// both meanings.
func TestCacheNamesToolChanged(t *testing.T) {
	_, out, _ := runCLI(t, "", "cache", "--json", mcpSession)
	var doc struct {
		Requests []struct {
			Break *cachejson.Break `json:"break"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Requests) != 1 || doc.Requests[0].Break == nil {
		t.Fatalf("cache: %s", out)
	}
	b := doc.Requests[0].Break
	if b.Rule != "tool-changed" || b.Server != "weather" || b.Segment != "tools[3]" || b.Label != "mcp__weather__get_forecast" {
		t.Errorf("break %+v", b)
	}
	_, text, _ := runCLI(t, "", "cache", mcpSession)
	if !strings.Contains(text, "the definition of MCP tool mcp__weather__get_forecast (server weather) changed at byte 92") ||
		!strings.Contains(text, "tools[3] changed (tool-changed)") {
		t.Errorf("cache text:\n%s", text)
	}
}

// TestWorkspaceMCPServers: opencode's unprefixed MCP tool is told from its
// own tools by its list, with a guessed server; --workspace names the
// configured server; context counts the tools per server.
func TestWorkspaceMCPServers(t *testing.T) {
	oc := filepath.Join("testdata", "mcp", "opencode-mcp.json")
	_, out, _ := runCLI(t, "", "check", "--json", oc)
	fs := auditRulesOf(checkDecodeJSON(t, out).Findings, audit.RuleToolPoisoning)
	if len(fs) == 0 || fs[0].Tool.Name != "notes_add_note" || fs[0].Tool.Server != "notes" || fs[0].Segment != "tools[5]" {
		t.Fatalf("opencode: %+v", fs)
	}
	for _, f := range checkDecodeJSON(t, out).Findings {
		if f.Segment != "tools[5]" && f.Rule == audit.RuleToolPoisoning {
			t.Errorf("opencode's own tool raised %s", f.Message)
		}
	}
	ws := filepath.Join("testdata", "mcp", "workspace")
	_, out, _ = runCLI(t, "", "context", "--json", "--workspace", ws, filepath.Join("testdata", "mcp", "gemini-mcp.json"))
	var doc struct {
		Requests []struct {
			MCPServers []struct {
				Name  string `json:"name"`
				Tools int    `json:"tools"`
			} `json:"mcp_servers"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Requests[0].MCPServers; len(s) != 1 || s[0].Name != "notes" || s[0].Tools != 1 {
		t.Errorf("context servers: %+v", s)
	}
	_, out, _ = runCLI(t, "", "context", "--json", mcpSession)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Requests[1].MCPServers; len(s) != 6 {
		t.Errorf("six MCP servers of one tool each, got %+v", s)
	}
	// A workspace whose configuration is broken: exit 2, one line naming it.
	code, _, errs := runCLI(t, "", "check", "--workspace", t.TempDir()+"/none", oc)
	if code != 2 || strings.Count(errs, "\n") != 1 {
		t.Errorf("missing workspace: exit %d %q", code, errs)
	}
}

// TestRulesListToolRules: check --rules and SARIF's rule metadata list both
// rules.
func TestRulesListToolRules(t *testing.T) {
	_, rules, _ := runCLI(t, "", "check", "--rules")
	_, sarif, _ := runCLI(t, "", "check", "--sarif", mcpSession)
	for _, id := range []string{audit.RuleToolPoisoning, audit.RuleToolChanged} {
		if !strings.Contains(rules, id) {
			t.Errorf("--rules lacks %s", id)
		}
		if !strings.Contains(sarif, `"id": "`+id+`"`) && !strings.Contains(sarif, `"id":"`+id+`"`) {
			t.Errorf("SARIF lacks rule %s", id)
		}
		if !strings.Contains(sarif, `"ruleId": "`+id+`"`) && !strings.Contains(sarif, `"ruleId":"`+id+`"`) {
			t.Errorf("SARIF lacks a result of %s", id)
		}
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Level      string `json:"level"`
				Properties struct {
					Tool *audit.FindingTool `json:"tool"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil {
		t.Fatal(err)
	}
	for _, r := range log.Runs[0].Results {
		if (r.RuleID == audit.RuleToolPoisoning || r.RuleID == audit.RuleToolChanged) && (r.Properties.Tool == nil || r.Properties.Tool.Server == "") {
			t.Errorf("SARIF result of %s without its tool and server", r.RuleID)
		}
	}
}

// TestInspectMCPServer: inspect --json gives an MCP tool's server and its
// trust; the host's tools have none.
func TestInspectMCPServer(t *testing.T) {
	_, out, _ := runCLI(t, "", "inspect", "--json", mcpSession)
	var doc struct {
		Requests []struct {
			Segments []inspectSegmentJSON `json:"segments"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range doc.Requests[0].Segments {
		if s.Channel == "tools" {
			got[s.Label] = s.Server + "/" + string(s.Trust)
		}
	}
	for name, want := range map[string]string{"Read": "/trusted", "Bash": "/trusted", "mcp__notes__add_note": "notes/untrusted",
		"mcp__chars__echo": "chars/untrusted"} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
}
