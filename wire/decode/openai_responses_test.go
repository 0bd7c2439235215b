package decode

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

const shellTool = `{"type":"function","name":"shell","description":"Run a command.","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}},"required":["command"]},"strict":false}`

func TestDecodeOpenAIResponses(t *testing.T) {
	cases := []struct {
		file  string
		model string
		parts []wantPart
	}{
		{"openai-responses.json", "gpt-5-codex", []wantPart{
			{id: "tools[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "shell", text: shellTool},
			{id: "instructions", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are Codex, a coding agent."},
			// Codex's permissions message: the classifier may cut it at its tag.
			{id: "input[0].content[0]", channel: wire.ChannelSystem, role: "developer",
				text: "<permissions instructions>Sandbox: workspace-write.</permissions instructions>"},
			{id: "input[1].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Run the tests."},
			{id: "input[2]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "Run go test."},
			{id: "input[3]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "shell", text: `{"command":["go","test","./..."]}`},
			{id: "input[4]", channel: wire.ChannelMessages, role: "tool", kind: wire.KindToolResult, trust: wire.Untrusted, name: "shell", text: "ok  \texample.com/app\t0.01s"},
			{id: "input[5].content[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "All tests pass."},
			{id: "input[6]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Thanks"},
		}},
		{"openai-responses-string.json", "gpt-4.1-mini", []wantPart{
			{id: "instructions", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Answer in one word."},
			{id: "input", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "What colour is the sky?"},
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			reqs, errs := decodeAll(t, fixture(c.file), Options{})
			if len(errs) > 0 || len(reqs) != 1 {
				t.Fatalf("got %d requests, errors %v; want 1 request", len(reqs), errs)
			}
			if reqs[0].Format != wire.FormatOpenAIResponses || reqs[0].Model != c.model {
				t.Errorf("format %q model %q", reqs[0].Format, reqs[0].Model)
			}
			checkParts(t, reqs[0], c.parts)
		})
	}
}

// Encrypted-only reasoning gets a placeholder; an output given as parts, and
// items of other types, are kept.
func TestDecodeOpenAIResponsesItems(t *testing.T) {
	in := `{"model":"m","input":[
 {"type":"reasoning","summary":[],"encrypted_content":"abcdef"},
 {"type":"custom_tool_call","call_id":"k","name":"apply_patch","input":"*** Begin Patch"},
 {"type":"custom_tool_call_output","call_id":"k","output":[{"type":"input_text","text":"done"}]},
 {"type":"web_search_call","id":"ws_1","status":"completed"}]}`
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 1 || reqs[0].Format != wire.FormatOpenAIResponses {
		t.Fatalf("got %v", reqs)
	}
	checkParts(t, reqs[0], []wantPart{
		{id: "input[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindAssistant, trust: wire.TrustModel, text: "[encrypted reasoning: 6 bytes]"},
		{id: "input[1]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel, name: "apply_patch", text: "*** Begin Patch"},
		{id: "input[2].output[0]", channel: wire.ChannelMessages, role: "tool", kind: wire.KindToolResult, trust: wire.Untrusted, name: "apply_patch", text: "done"},
		{id: "input[3]", channel: wire.ChannelMessages, role: "assistant", text: `{"type":"web_search_call","id":"ws_1","status":"completed"}`},
	})
}

// Input messages with the system role sit in the system channel, as the
// developer role's do; a message's content may be a plain string.
func TestDecodeOpenAIResponsesSystemRole(t *testing.T) {
	in := `{"model":"gpt-5","input":[
 {"role":"system","content":"Be exact."},
 {"type":"message","role":"developer","content":[{"type":"input_text","text":"Prefer tables."}]},
 {"role":"user","content":"hi"}]}`
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 1 || reqs[0].Format != wire.FormatOpenAIResponses {
		t.Fatalf("got %v", reqs)
	}
	checkParts(t, reqs[0], []wantPart{
		{id: "input[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Be exact."},
		{id: "input[1].content[0]", channel: wire.ChannelSystem, role: "developer", kind: wire.KindHostRules, trust: wire.Trusted, text: "Prefer tables."},
		{id: "input[2]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "hi"},
	})
}
