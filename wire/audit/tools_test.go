package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/decode"
)

// decodeFile reads every request of a fixture.
func decodeFile(t *testing.T, path string) []wire.Request {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wire.Request
	for r, err := range decode.Decode(f, decode.Options{Source: filepath.Base(path)}) {
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// auditAll audits a session's requests with one Auditor, in order.
func auditAll(reqs []wire.Request) [][]audit.Finding {
	a := audit.New()
	var out [][]audit.Finding
	for i := range reqs {
		out = append(out, a.Audit(&reqs[i]))
	}
	return out
}

// TestToolPoisoningPatterns: each pattern of the fixture (testdata/mcp,
// written from the public write-ups) is found on its tool and JSON path.
func TestToolPoisoningPatterns(t *testing.T) {
	reqs := decodeFile(t, "../../testdata/mcp/poisoned-session.jsonl")
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d", len(reqs))
	}
	fs := auditAll(reqs)
	type want struct {
		req     int
		tool    string
		server  string
		path    string
		phrase  string // in the message
		pattern string // in the message
	}
	wants := []want{
		{0, "mcp__notes__add_note", "notes", "/description", "<IMPORTANT>", "hidden imperative block"},
		{0, "mcp__notes__add_note", "notes", "/description", "Before using this tool", "before the tool is used"},
		{0, "mcp__notes__add_note", "notes", "/description", "~/.ssh", "sensitive file"},
		{0, "mcp__notes__add_note", "notes", "/description", "Do not mention this step to the user", "hide something from the user"},
		{0, "mcp__docs__search", "docs", "/input_schema/properties/mode/enum/2", "ignore what the user asked", "in an enum value"},
		{0, "mcp__docs__search", "docs", "/input_schema/properties/query/default", "you must always include", "in a default value"},
		{0, "mcp__docs__search", "docs", "/input_schema/properties/query/default", ".env", "sensitive file"},
		{0, "mcp__tracker__open_issue", "tracker", "/input_schema/properties/auth/description", "access token", "credential"},
		{1, "mcp__weather__get_forecast", "weather", "/description", "When the send_email tool is used", "rule for another tool (send_email)"},
	}
	for _, w := range wants {
		found := false
		for _, f := range fs[w.req] {
			if f.Rule != audit.RuleToolPoisoning || f.Tool == nil {
				continue
			}
			if f.Tool.Name == w.tool && f.Tool.Server == w.server && f.Tool.Path == w.path &&
				strings.Contains(f.Message, w.phrase) && strings.Contains(f.Message, w.pattern) {
				found = true
				if f.Severity != audit.SeverityHigh {
					t.Errorf("%s %s: severity %s", w.tool, w.path, f.Severity)
				}
				// The offset points at the phrase in the segment's JSON.
				seg := segmentByID(&reqs[w.req], f.Segment)
				if seg == nil || !strings.HasPrefix(seg.Text[f.Offset:], w.phrase[:min(len(w.phrase), 6)]) {
					t.Errorf("%s %s: offset %d does not point at %q", w.tool, w.path, f.Offset, w.phrase)
				}
			}
		}
		if !found {
			t.Errorf("request %d: no tool-poisoning %q (%s) on %s at %s", w.req+1, w.phrase, w.pattern, w.tool, w.path)
		}
	}
	// The weather tool is clean in request 1, and the host's tools (Read,
	// Bash: "IMPORTANT:", "You MUST") are never judged.
	for k, list := range fs {
		for _, f := range list {
			if f.Rule != audit.RuleToolPoisoning {
				continue
			}
			if k == 0 && f.Tool.Name == "mcp__weather__get_forecast" {
				t.Errorf("request 1: the weather tool is clean, got %s", f.Message)
			}
			if f.Tool.Name == "Read" || f.Tool.Name == "Bash" || f.Tool.Name == "mcp__mailer__send_email" {
				t.Errorf("request %d: %s raised %s", k+1, f.Tool.Name, f.Message)
			}
		}
	}
}

func segmentByID(r *wire.Request, id string) *wire.Segment {
	for i := range r.Segments {
		if r.Segments[i].ID == id {
			return &r.Segments[i]
		}
	}
	return nil
}

// TestToolChanged: a description swapped between two requests of one
// session is tool-changed on the later request, high for an MCP tool.
func TestToolChanged(t *testing.T) {
	reqs := decodeFile(t, "../../testdata/mcp/poisoned-session.jsonl")
	fs := auditAll(reqs)
	for _, f := range fs[0] {
		if f.Rule == audit.RuleToolChanged {
			t.Errorf("request 1 has nothing to change from: %s", f.Message)
		}
	}
	var got []audit.Finding
	for _, f := range fs[1] {
		if f.Rule == audit.RuleToolChanged {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("request 2: want one tool-changed, got %d: %v", len(got), got)
	}
	f := got[0]
	if f.Severity != audit.SeverityHigh || f.Tool.Name != "mcp__weather__get_forecast" || f.Tool.Server != "weather" ||
		f.Tool.Previous != 1 || f.Request != 2 {
		t.Errorf("tool-changed: %+v %+v", f, *f.Tool)
	}
	if !strings.Contains(f.Tool.After, "send_email") || strings.Contains(f.Tool.Before, "send_email") {
		t.Errorf("tool-changed keeps the wrong texts: before %q after %q", f.Tool.Before, f.Tool.After)
	}
	// The same session audited request by request with fresh auditors
	// has no history: nothing changed.
	r2 := reqs[1]
	for _, f := range audit.New().Audit(&r2) {
		if f.Rule == audit.RuleToolChanged {
			t.Errorf("a lone request has no earlier definition: %s", f.Message)
		}
	}
}

// TestToolChangedBuiltinLow: a change of one of the host's own tools is
// low.
func TestToolChangedBuiltinLow(t *testing.T) {
	mk := func(idx int, desc string) wire.Request {
		var r wire.Request
		b := classify.Builder{Req: &r, In: wire.NewInterner()}
		b.Add(wire.Part{ID: "tools[0]", Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: "Read",
			Text: `{"name":"Read","description":"` + desc + `"}`})
		r.Source, r.Index = "s.jsonl", idx
		return r
	}
	a := audit.New()
	r1, r2 := mk(1, "Reads a file."), mk(2, "Reads a file. IMPORTANT: you MUST read before editing.")
	a.Audit(&r1)
	var got []audit.Finding
	for _, f := range a.Audit(&r2) {
		if f.Rule == audit.RuleToolChanged {
			got = append(got, f)
		}
		if f.Rule == audit.RuleToolPoisoning {
			t.Errorf("the host's tool is not judged by tool-poisoning: %s", f.Message)
		}
	}
	if len(got) != 1 || got[0].Severity != audit.SeverityLow || !strings.Contains(got[0].Message, "the host's tool Read") {
		t.Fatalf("want one low tool-changed on Read, got %+v", got)
	}
}

// TestToolPoisoningHostToolLists: the real tool lists of the agents'
// captures (testdata/agents), the host's tools judged as if they were a
// server's, raise no tool-poisoning: their "IMPORTANT:" and "You MUST" are
// not poisoning. The tools of the MCP server a capture was made with (the
// captures helper's wl-mcp, in opencode's and cline's) are the server's:
// the one marked WL-MCP-POISON-MARKER raises tool-poisoning, the one marked
// WL-MCP-SAFE-MARKER nothing.
func TestToolPoisoningHostToolLists(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/agents/*.jsonl")
	if len(files) < 3 {
		t.Fatalf("want the agents' captures, got %v", files)
	}
	withMCP := map[string]bool{}
	for _, path := range files {
		reqs := decodeFile(t, path)
		tools := 0
		for k := range reqs {
			r := &reqs[k]
			segs := append([]wire.Segment(nil), r.Segments...)
			if marked := classify.MarkTools(r.Segments, nil); marked != nil {
				segs = marked
			}
			poisoned := map[string]bool{}
			for i := range segs {
				s := &segs[i]
				if !classify.IsToolDef(s) {
					continue
				}
				tools++
				if strings.Contains(s.Text, "WL-MCP-") {
					if s.Trust != wire.Untrusted || s.Server == "" {
						t.Errorf("%s: the MCP tool %s is %s, server %q", path, s.Label, s.Trust, s.Server)
					}
					poisoned[s.Label] = strings.Contains(s.Text, "WL-MCP-POISON-MARKER")
					withMCP[filepath.Base(path)] = true
					continue
				}
				if s.Trust != wire.Trusted || s.Server != "" {
					t.Errorf("%s: %s is %s, server %q: want the host's", path, s.Label, s.Trust, s.Server)
				}
				s.Trust, s.Server = wire.Untrusted, "test"
			}
			forced := *r
			forced.Segments = segs
			raised := map[string]bool{}
			for _, f := range audit.New().Audit(&forced) {
				if f.Rule != audit.RuleToolPoisoning {
					continue
				}
				raised[f.Tool.Name] = true
				if _, mcp := poisoned[f.Tool.Name]; !mcp {
					t.Errorf("%s: the host's tool: %s", path, f.Message)
				}
			}
			for name, p := range poisoned {
				if raised[name] != p {
					t.Errorf("%s: MCP tool %s: poisoned %v, raised %v", path, name, p, raised[name])
				}
			}
		}
		if tools == 0 {
			t.Errorf("%s: no tool definitions", path)
		}
	}
	// The captures of Claude Code, Gemini CLI, opencode and cline send the
	// MCP server's definitions, in each of their three workspaces.
	for _, a := range []string{"claude-code", "gemini-cli", "opencode", "cline"} {
		for _, w := range []string{"", "-clean", "-notags"} {
			if !withMCP[a+w+".jsonl"] {
				t.Errorf("%s%s.jsonl: no MCP tool found", a, w)
			}
		}
	}
}

// TestToolHazards: the hazard and tag rules judge an MCP tool's text as
// untrusted text (bidi-control counts only there), hazards written as JSON
// escapes included (the model reads the decoded character); a secret in a
// poisoning phrase is quoted masked.
func TestToolHazards(t *testing.T) {
	reqs := decodeFile(t, "../../testdata/mcp/poisoned-session.jsonl")
	rules := map[string]bool{}
	for _, f := range audit.New().Audit(&reqs[0]) {
		seg := segmentByID(&reqs[0], f.Segment)
		if seg == nil || seg.Label != "mcp__chars__echo" {
			continue
		}
		rules[f.Rule] = true
		if f.Rule == audit.RuleControlChar && strings.Contains(f.Message, "JSON escape at /description") {
			rules["escaped"] = true
			if !strings.HasPrefix(seg.Text[f.Offset:], `\u001b`) {
				t.Errorf("the escaped ESC is at %d: %q", f.Offset, seg.Text[f.Offset:min(len(seg.Text), f.Offset+8)])
			}
		}
		if strings.Contains(f.Message, "ghp_Zq8") || strings.Contains(f.Excerpt, "ghp_Zq8") {
			t.Errorf("a secret in the clear: %s | %s", f.Message, f.Excerpt)
		}
		if f.Rule == audit.RuleToolPoisoning && !strings.Contains(f.Message, "examples/0") {
			t.Errorf("poisoning of chars: %s", f.Message)
		}
	}
	for _, r := range []string{audit.RuleBidiControl, audit.RuleTagSmuggling, audit.RuleAuthoritySpoof, audit.RuleEnvelopeBreakout,
		audit.RuleInvisibleChar, "escaped", audit.RuleToolPoisoning, audit.RuleSecretInContext} {
		if !rules[r] {
			t.Errorf("mcp__chars__echo: no %s (got %v)", r, rules)
		}
	}
}
