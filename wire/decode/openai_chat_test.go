package decode

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

const listDirTool = `{"type":"function","function":{"name":"list_dir","description":"List a directory.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}`

var openAIChatParts = []wantPart{
	{id: "tools[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "list_dir", text: listDirTool},
	{id: "messages[0]", channel: wire.ChannelSystem, role: "developer", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are a coding agent. Answer briefly."},
	{id: "messages[1].content[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Workspace: /home/dev/app"},
	{id: "messages[2].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "What is in this screenshot?"},
	{id: "messages[2].content[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "[image: image/png, 96 bytes base64]"},
	{id: "messages[3].tool_calls[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "list_dir", text: `{"path":"."}`},
	{id: "messages[4]", channel: wire.ChannelMessages, role: "tool", kind: wire.KindToolResult, trust: wire.Untrusted, name: "list_dir", text: "main.go\nREADME.md\n"},
	{id: "messages[5]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "The directory holds main.go and README.md."},
}

func TestDecodeOpenAIChat(t *testing.T) {
	reqs, errs := decodeAll(t, fixture("openai-chat.json"), Options{})
	if len(errs) > 0 || len(reqs) != 1 {
		t.Fatalf("got %d requests, errors %v; want 1 request", len(reqs), errs)
	}
	r := reqs[0]
	if r.Format != wire.FormatOpenAIChat || r.Model != "gpt-4.1" {
		t.Errorf("format %q model %q", r.Format, r.Model)
	}
	checkParts(t, r, openAIChatParts)
}

// Arguments sent as an object (some clients do) are kept as compact JSON; a
// legacy function message and Moonshot's reasoning_content are read.
func TestDecodeOpenAIChatVariants(t *testing.T) {
	in := `{"model":"kimi-k2","messages":[
 {"role":"assistant","reasoning_content":"think","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{"a": 1}}}]},
 {"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"r1"}]},
 {"role":"function","name":"g","content":"old"},
 {"role":"user","content":[{"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}},{"type":"file","file":{"file_id":"file-1"}}]}]}`
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{Source: "v.json"}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 1 || reqs[0].Format != wire.FormatOpenAIChat {
		t.Fatalf("got %d requests (%v)", len(reqs), reqs)
	}
	checkParts(t, reqs[0], []wantPart{
		{id: "messages[0].reasoning_content", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "think"},
		{id: "messages[0]", channel: wire.ChannelMessages, role: "assistant", text: ""},
		{id: "messages[0].tool_calls[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "f", text: `{"a":1}`},
		{id: "messages[1].content[0]", channel: wire.ChannelMessages, role: "tool", kind: wire.KindToolResult, trust: wire.Untrusted, name: "f", text: "r1"},
		{id: "messages[2]", channel: wire.ChannelMessages, role: "function", kind: wire.KindToolResult, trust: wire.Untrusted, name: "g", text: "old"},
		{id: "messages[3].content[0]", channel: wire.ChannelMessages, role: "user", text: "[audio: wav, 4 bytes base64]"},
		{id: "messages[3].content[1]", channel: wire.ChannelMessages, role: "user", text: "[file: file-1]"},
	})
}
