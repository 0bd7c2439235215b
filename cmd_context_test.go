package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// contextBody is an Anthropic request with MCP tools, a thinking block, a
// tool result and a tool whose name carries an escape sequence.
const contextBody = `{"model":"claude-sonnet-4-5","max_tokens":10,
 "tools":[
  {"name":"Bash","description":"Run a shell command and return its output.","input_schema":{"type":"object"}},
  {"name":"mcp__github__create_issue","description":"Create an issue in a GitHub repository.","input_schema":{"type":"object"}},
  {"name":"mcp__github__list_issues","description":"List the issues of a repository.","input_schema":{"type":"object"}},
  {"name":"evil\u001b[2Jtool","description":"Clears your screen.","input_schema":{"type":"object"}}],
 "system":[{"type":"text","text":"You are a coding agent. Follow the rules of the host.","cache_control":{"type":"ephemeral"}}],
 "messages":[
  {"role":"user","content":"List the files, please."},
  {"role":"assistant","content":[
    {"type":"thinking","thinking":"The user wants a listing; I will run ls.","signature":"x"},
    {"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go\nb.go\nREADME.md"}]}]}`

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// buildSession builds the poisoned workspace n times, a minute apart, in a
// layout for a model, into one JSONL session.
func buildSession(t *testing.T, layout, model string, n int) string {
	t.Helper()
	var jsonl strings.Builder
	for i := 0; i < n; i++ {
		now := "2026-11-29T22:0" + string(rune('0'+i)) + ":00Z"
		code, out, errs := runCLI(t, "", "build", filepath.Join("testdata", "workspaces", "poisoned"),
			"--layout", layout, "--now", now, "--model", model)
		if code != 0 {
			t.Fatalf("build: exit %d: %s", code, errs)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("build output: %v", err)
		}
		line, _ := json.Marshal(v)
		jsonl.Write(line)
		jsonl.WriteByte('\n')
	}
	return writeTemp(t, layout+".jsonl", jsonl.String())
}

func TestContextCommandText(t *testing.T) {
	p := writeTemp(t, "req.json", contextBody)
	code, out, errs := runCLI(t, "", "context", p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"o200k_base estimate", "tool schemas", "MCP github (2 tools)", "mcp__github__create_issue",
		"tool results", "reasoning", "user", "model", "host rules", "cached prefix: 0 tokens (predicted)",
		"price: Claude Sonnet 3.7 to 4.6", "COST", "prices of 2026-12-01", "␛[2J"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("a raw escape reached the output")
	}
}

func TestContextCommandJSON(t *testing.T) {
	p := writeTemp(t, "req.json", contextBody)
	code, out, _ := runCLI(t, "", "context", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Requests []struct {
			Tokens      int            `json:"tokens"`
			Encoding    string         `json:"encoding"`
			CachedBasis string         `json:"cached_basis"`
			Price       map[string]any `json:"price"`
			Groups      []struct {
				Group  string   `json:"group"`
				Tokens int      `json:"tokens"`
				Trust  []string `json:"trust"`
				Cost   *float64 `json:"cost"`
			} `json:"groups"`
			Items []struct {
				Group, Name, Server, Trust string
			} `json:"items"`
			MCPServers []struct {
				Name  string `json:"name"`
				Tools int    `json:"tools"`
			} `json:"mcp_servers"`
		} `json:"requests"`
		Errors []any `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(doc.Requests) != 1 || doc.Errors == nil {
		t.Fatalf("requests %d, errors %v", len(doc.Requests), doc.Errors)
	}
	r := doc.Requests[0]
	sum := 0
	groups := map[string]bool{}
	for _, g := range r.Groups {
		sum += g.Tokens
		groups[g.Group] = true
		if g.Cost == nil {
			t.Errorf("group %s has no cost though the model is priced", g.Group)
		}
	}
	if sum != r.Tokens || r.Encoding != "o200k_base" || r.CachedBasis != "predicted" || r.Price["name"] == nil {
		t.Errorf("groups sum %d of %d, encoding %q, basis %q, price %v", sum, r.Tokens, r.Encoding, r.CachedBasis, r.Price)
	}
	for _, g := range []string{"tool-schemas", "host-rules", "user", "model", "tool-results", "reasoning"} {
		if !groups[g] {
			t.Errorf("no group %s in %v", g, groups)
		}
	}
	if len(r.MCPServers) != 1 || r.MCPServers[0].Name != "github" || r.MCPServers[0].Tools != 2 {
		t.Errorf("mcp servers %+v", r.MCPServers)
	}
	if strings.Contains(out, "\x1b") || !strings.Contains(out, "evil␛[2Jtool") {
		t.Errorf("the hostile tool name is not escaped in JSON")
	}
}

// TestContextCommandSession: a FILE of several requests gives the growth
// table and the last request in text, every request in JSON, and the
// cached prefix of the later ones from the cache rules.
func TestContextCommandSession(t *testing.T) {
	p := buildSession(t, "isolated", "kimi-k2-0905-preview", 3)
	code, out, errs := runCLI(t, "", "context", p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"3 requests, estimated tokens by category", "@1", "@2", "@3", "FILES", "LISTS", "SKILLS", "isolated.jsonl@3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "", "context", "--json", p)
	var doc struct {
		Requests []struct {
			Index        int    `json:"index"`
			CachedTokens int    `json:"cached_tokens"`
			CachedBasis  string `json:"cached_basis"`
			Groups       []struct {
				Group        string   `json:"group"`
				Trust        []string `json:"trust"`
				CachedTokens int      `json:"cached_tokens"`
			} `json:"groups"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	if len(doc.Requests) != 3 || doc.Requests[2].Index != 3 {
		t.Fatalf("requests %+v", doc.Requests)
	}
	if doc.Requests[0].CachedTokens != 0 || doc.Requests[2].CachedTokens == 0 || doc.Requests[2].CachedBasis != "predicted" {
		t.Errorf("cached: first %d, third %d (%s); want none, then the stable prefix", doc.Requests[0].CachedTokens,
			doc.Requests[2].CachedTokens, doc.Requests[2].CachedBasis)
	}
	for _, g := range doc.Requests[2].Groups {
		if g.Group == "workspace-files" && (len(g.Trust) != 1 || g.Trust[0] != "untrusted") {
			t.Errorf("workspace files trust %v", g.Trust)
		}
	}
	// FILE@N is that request only.
	code, out, _ = runCLI(t, "", "context", "--json", p+"@2")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || len(doc.Requests) != 1 || doc.Requests[0].Index != 2 {
		t.Errorf("@2: exit %d, %v, %+v", code, err, doc.Requests)
	}
}

func TestContextCommandErrors(t *testing.T) {
	good := writeTemp(t, "req.json", contextBody)
	bad := writeTemp(t, "bad.json", `{"model":"x","messages":[`)
	code, out, errs := runCLI(t, "", "context", good, bad)
	if code != 2 || !strings.Contains(errs, "bad.json") || !strings.Contains(out, "tool schemas") {
		t.Errorf("exit %d, stderr %q: want 2, the bad file named, the good one shown", code, errs)
	}
	prices := writeTemp(t, "prices.json", `{"models":[{"name":"x"`)
	code, _, errs = runCLI(t, "", "context", "--prices", prices, good)
	if code != 2 || !strings.Contains(errs, "prices.json") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("bad --prices: exit %d, stderr %q", code, errs)
	}
	mine := writeTemp(t, "mine.json", `{"date":"2027-01-01","currency":"EUR","models":[{"name":"Mine","models":["sonnet"],"input":1,"cached_read":0.1,"output":2}]}`)
	code, out, _ = runCLI(t, "", "context", "--prices", mine, good)
	if code != 0 || !strings.Contains(out, "price: Mine") || !strings.Contains(out, "EUR") || !strings.Contains(out, "mine.json") {
		t.Errorf("own prices: exit %d\n%s", code, out)
	}
	unknown := writeTemp(t, "u.json", strings.Replace(contextBody, "claude-sonnet-4-5", "my-local-llama", 1))
	code, out, _ = runCLI(t, "", "context", unknown)
	if code != 0 || !strings.Contains(out, `price: none for model "my-local-llama"`) || strings.Contains(out, "COST") {
		t.Errorf("unpriced model: exit %d\n%s", code, out)
	}
}
