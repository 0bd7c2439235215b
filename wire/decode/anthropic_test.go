package decode

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

const readFileTool = `{"name":"read_file","description":"Read a file from the workspace.","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}`
const bashTool = `{"name":"bash","description":"Run a shell command.","input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]},"cache_control":{"type":"ephemeral"}}`

// anthropicMessagesParts is what testdata/payloads/anthropic-messages.json
// holds, part by part.
var anthropicMessagesParts = []wantPart{
	{id: "tools[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "read_file", text: readFileTool},
	{id: "tools[1]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "bash", text: bashTool, bp: true},
	{id: "system[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted,
		text: "You are a coding agent running in a terminal. Follow the host rules below."},
	{id: "system[1]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted,
		text: "Never run destructive commands without asking.", bp: true},
	{id: "messages[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "What does main.go do?"},
	{id: "messages[1].content[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "I should read main.go first."},
	{id: "messages[1].content[1]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "Let me read it."},
	{id: "messages[1].content[2]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "read_file", text: `{"path":"main.go"}`},
	{id: "messages[2].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindToolResult, trust: wire.Untrusted, name: "read_file", text: "package main\n\nfunc main() {}\n"},
	{id: "messages[2].content[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Also check the logo.", bp: true},
	{id: "messages[3].content[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "bash", text: `{"command":"file logo.png"}`},
	{id: "messages[4].content[0].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindToolResult, trust: wire.Untrusted, name: "bash", text: "logo.png: PNG image data, 1 x 1"},
	{id: "messages[4].content[0].content[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindToolResult, trust: wire.Untrusted, name: "bash", text: "[image: image/png, 96 bytes base64]"},
	{id: "messages[4].content[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "[image: image/png, 96 bytes base64]"},
}

var anthropicStringParts = []wantPart{
	{id: "system[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are a helpful assistant."},
	{id: "messages[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Hello"},
	{id: "messages[1]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "Hi! How can I help?"},
	{id: "messages[2]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Summarise README.md"},
}

func TestDecodeAnthropic(t *testing.T) {
	cases := []struct {
		file  string
		model string
		parts []wantPart
	}{
		{"anthropic-messages.json", "claude-sonnet-4-5", anthropicMessagesParts},
		{"anthropic-system-string.json", "claude-haiku-4-5", anthropicStringParts},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			reqs, errs := decodeAll(t, fixture(c.file), Options{})
			if len(errs) > 0 || len(reqs) != 1 {
				t.Fatalf("got %d requests, errors %v; want 1 request", len(reqs), errs)
			}
			r := reqs[0]
			if r.Format != wire.FormatAnthropic || r.Model != c.model || r.Index != 1 || r.Line != 1 || r.Offset != 0 {
				t.Errorf("format %q model %q index %d line %d offset %d", r.Format, r.Model, r.Index, r.Line, r.Offset)
			}
			checkParts(t, r, c.parts)
			checkUsage(t, r, nil)
		})
	}
}

// A body whose content is neither a string nor an array is reported with
// the member it is at.
func TestDecodeAnthropicBadContent(t *testing.T) {
	in := `{"model":"claude-x","system":"s","messages":[{"role":"user","content":42}]}`
	var got []string
	for _, err := range Decode(stringsReaderDec(in), Options{Source: "x.json", Format: wire.FormatAnthropic}) {
		if err != nil {
			got = append(got, err.Error())
		}
	}
	want := "x.json:1: anthropic body: content is a JSON number, want a string or an array of blocks at /messages/0/content (byte 70)"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("errors %q, want [%q]", got, want)
	}
}

// Server tools: the call is a tool call, its result (a list, or one error
// object) a tool result kept as its JSON; an unknown block type too.
func TestDecodeAnthropicServerTools(t *testing.T) {
	in := `{"model":"claude-x","system":"s","messages":[
{"role":"user","content":"search"},
{"role":"assistant","content":[
 {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go json v2"}},
 {"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"T","encrypted_content":"xyz"}]},
 {"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}},
 {"type":"container_upload","file_id":"file_1"}]}]}`
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	checkParts(t, reqs[0], []wantPart{
		{id: "system[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "s"},
		{id: "messages[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "search"},
		{id: "messages[1].content[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "web_search", text: `{"query":"go json v2"}`},
		{id: "messages[1].content[1]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolResult, trust: wire.Untrusted, name: "web_search",
			text: `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"T","encrypted_content":"xyz"}]}`},
		{id: "messages[1].content[2]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolResult, trust: wire.Untrusted, name: "web_search",
			text: `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`},
		{id: "messages[1].content[3]", channel: wire.ChannelMessages, role: "assistant", text: `{"type":"container_upload","file_id":"file_1"}`},
	})
}
