package breakdown

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// request decodes one Anthropic body.
func request(t *testing.T, body string) wire.Request {
	t.Helper()
	for r, err := range decode.Decode(strings.NewReader(body), decode.Options{Source: "t.json"}) {
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Fatal("no request")
	return wire.Request{}
}

const body = `{"model":"claude-sonnet-4-5","max_tokens":10,
 "tools":[
  {"name":"Bash","description":"Run a shell command and return its output.","input_schema":{"type":"object"}},
  {"name":"mcp__github__create_issue","description":"Create an issue in a GitHub repository.","input_schema":{"type":"object"}},
  {"name":"mcp__github__list_issues","description":"List the issues of a repository.","input_schema":{"type":"object"}},
  {"name":"mcp__linear__search","description":"Search Linear.","input_schema":{"type":"object"}}],
 "system":[{"type":"text","text":"You are a coding agent. Follow the rules of the host."}],
 "messages":[
  {"role":"user","content":"List the files, please."},
  {"role":"assistant","content":[
    {"type":"thinking","thinking":"The user wants a listing; I will run ls.","signature":"x"},
    {"type":"text","text":"Running ls."},
    {"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go\nb.go\nREADME.md"}]}]}`

func TestOfGroupsAndItems(t *testing.T) {
	r := request(t, body)
	c := Of(&r)
	if c.Tokens <= 0 || c.Bytes != r.Bytes() || c.Encoding != wire.TokenEncoding {
		t.Fatalf("totals %d tokens %d bytes (request %d bytes), encoding %q", c.Tokens, c.Bytes, r.Bytes(), c.Encoding)
	}
	groups := map[Group]Total{}
	sum := 0
	for _, tot := range c.Totals() {
		groups[tot.Group] = tot
		sum += tot.Tokens
	}
	if sum != c.Tokens {
		t.Errorf("groups sum to %d tokens, request has %d", sum, c.Tokens)
	}
	for _, g := range []Group{GroupTools, GroupHostRules, GroupUser, GroupModel, GroupReasoning, GroupToolResults} {
		if groups[g].Tokens == 0 {
			t.Errorf("group %s is empty: %+v", g, c.Totals())
		}
	}
	// The host's Bash is trusted, the MCP servers' tools untrusted.
	if g := groups[GroupTools]; g.Segments != 4 || len(g.Trusts) != 2 || g.Trusts[0] != wire.Trusted || g.Trusts[1] != wire.Untrusted {
		t.Errorf("tools %+v", g)
	}
	if g := groups[GroupToolResults]; len(g.Trusts) != 1 || g.Trusts[0] != wire.Untrusted {
		t.Errorf("tool results %+v", g)
	}
	if g := groups[GroupModel]; g.Segments != 2 {
		t.Errorf("model: %d segments, want the answer and the tool call", g.Segments)
	}
	names := map[string]Item{}
	for _, it := range c.Items {
		if it.Group == GroupTools || it.Group == GroupToolResults {
			names[string(it.Group)+" "+it.Name] = it
		}
	}
	if it := names["tool-schemas mcp__github__create_issue"]; it.Server != "github" || it.Tokens == 0 {
		t.Errorf("MCP tool item %+v", it)
	}
	if it := names["tool-schemas Bash"]; it.Server != "" {
		t.Errorf("Bash has server %q", it.Server)
	}
	if it := names["tool-results Bash"]; it.Segments != 1 {
		t.Errorf("tool result of Bash %+v", it)
	}
	srv := c.Servers()
	if len(srv) != 2 || srv[0].Name != "github" || srv[0].Tools != 2 || srv[1].Name != "linear" || srv[1].Tools != 1 {
		t.Errorf("servers %+v", srv)
	}
}

func TestSplitCached(t *testing.T) {
	r := request(t, body)
	c := Of(&r)
	tools := 0
	for _, tot := range c.Totals() {
		if tot.Group == GroupTools {
			tools = tot.Tokens
		}
	}
	// A prefix that ends two tokens into the system prompt: every tool
	// cached, two tokens of host rules, nothing after.
	c.SplitCached(tools+2, "predicted")
	for _, tot := range c.Totals() {
		want := 0
		switch tot.Group {
		case GroupTools:
			want = tools
		case GroupHostRules:
			want = 2
		}
		if tot.Cached != want {
			t.Errorf("%s: %d cached, want %d", tot.Group, tot.Cached, want)
		}
	}
	if c.CachedBasis != "predicted" || c.CachedTokens != tools+2 {
		t.Errorf("basis %q tokens %d", c.CachedBasis, c.CachedTokens)
	}
	// More than the request (a recording that left the system prompt out):
	// everything cached, nothing more.
	c.SplitCached(c.Tokens*3, "recorded")
	cached := 0
	for _, it := range c.Items {
		if it.Cached != it.Tokens {
			t.Errorf("%s %s: %d of %d cached", it.Group, it.Name, it.Cached, it.Tokens)
		}
		cached += it.Cached
	}
	if cached != c.Tokens {
		t.Errorf("cached %d of %d", cached, c.Tokens)
	}
}

func TestMCPServer(t *testing.T) {
	for name, want := range map[string]string{
		"mcp__github__create_issue": "github",
		"mcp__a__b__c":              "a",
		"mcp__github":               "",
		"mcp____x":                  "",
		"Bash":                      "",
		"":                          "",
	} {
		if got := MCPServer(name); got != want {
			t.Errorf("MCPServer(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestGrowth(t *testing.T) {
	r := request(t, body)
	var g Growth
	c := Of(&r)
	g.Add(c)
	r.Segments = r.Segments[:len(r.Segments)-1] // without the tool result
	g.Add(Of(&r))
	if len(g.Rows) != 2 || len(g.Rows[0].ByGroup) != len(Groups) {
		t.Fatalf("rows %+v", g.Rows)
	}
	at := -1
	for i, gr := range Groups {
		if gr == GroupToolResults {
			at = i
		}
	}
	if g.Rows[0].ByGroup[at] == 0 || g.Rows[1].ByGroup[at] != 0 || g.Rows[0].Tokens <= g.Rows[1].Tokens {
		t.Errorf("growth rows %+v", g.Rows)
	}
}

func TestBar(t *testing.T) {
	by := make([]int, len(Groups))
	by[0], by[1], by[6] = 500, 500, 1 // host rules, tools, a tiny user turn
	got := strings.Join(Bar(by, 1001, 20), "")
	if len(got) != 20 || !strings.HasPrefix(got, "HHHHHHHHH") || !strings.Contains(got, "TTTTTTTTT") || !strings.HasSuffix(got, "U") {
		t.Errorf("Bar = %q", got)
	}
	if half := strings.Join(Bar(by, 2002, 20), ""); len(half) != 10 {
		t.Errorf("against a request twice as long: %q", half)
	}
	if Bar(by, 0, 20) != nil || Bar(make([]int, len(Groups)), 10, 20) != nil {
		t.Error("an empty bar has runs")
	}
	for _, g := range Groups {
		if len(g.Letter()) != 1 || !strings.Contains(Legend, g.Letter()+" ") {
			t.Errorf("%s: letter %q not in the legend", g, g.Letter())
		}
	}
}
