package decode

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestDecodeGemini(t *testing.T) {
	cases := []struct {
		file  string
		parts []wantPart
	}{
		{"gemini.json", []wantPart{
			{id: "tools[0].functionDeclarations[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "list_directory",
				text: `{"name":"list_directory","description":"Lists a directory.","parameters":{"type":"OBJECT","properties":{"path":{"type":"STRING"}},"required":["path"]}}`},
			{id: "tools[0].functionDeclarations[1]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "read_file",
				text: `{"name":"read_file","description":"Reads a file.","parameters":{"type":"OBJECT","properties":{"path":{"type":"STRING"}}}}`},
			{id: "systemInstruction.parts[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are Gemini CLI, an interactive agent."},
			// A Gemini CLI context block: the classifier cuts it further.
			{id: "contents[0].parts[0]", channel: wire.ChannelMessages, role: "user",
				text: "--- Context from: GEMINI.md ---\nUse tabs.\n--- End of Context from: GEMINI.md ---"},
			{id: "contents[0].parts[1]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Describe this image and list the files."},
			{id: "contents[0].parts[2]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "[inlineData: image/png, 96 bytes base64]"},
			{id: "contents[1].parts[0]", channel: wire.ChannelMessages, role: "model", kind: wire.KindAssistant, trust: wire.TrustModel, text: "A single pixel."},
			{id: "contents[1].parts[1]", channel: wire.ChannelMessages, role: "model", kind: wire.KindToolCall, trust: wire.TrustModel, name: "list_directory", text: `{"path":"."}`},
			{id: "contents[2].parts[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindToolResult, trust: wire.Untrusted, name: "list_directory", text: `{"output":"main.go\nREADME.md"}`},
		}},
		{"gemini-snake-case.json", []wantPart{
			{id: "tools[0].function_declarations[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "now", text: `{"name":"now","description":"The time."}`},
			{id: "system_instruction.parts[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Be concise."},
			{id: "contents[0].parts[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Hi"},
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			reqs, errs := decodeAll(t, fixture(c.file), Options{})
			if len(errs) > 0 || len(reqs) != 1 {
				t.Fatalf("got %d requests, errors %v; want 1 request", len(reqs), errs)
			}
			if reqs[0].Format != wire.FormatGemini || reqs[0].Model != "" {
				t.Errorf("format %q model %q", reqs[0].Format, reqs[0].Model)
			}
			checkParts(t, reqs[0], c.parts)
		})
	}
}
