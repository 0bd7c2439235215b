package decode

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// otel/genai-spans.json: an invoke_agent span without GenAI input attributes
// (skipped, said in a note), a chat span with system instructions, a tool
// call and its response, a tool definition and cached usage, and a chat span
// of the older shape (gen_ai.system, a system message among the messages).
func TestDecodeOTel(t *testing.T) {
	reqs, errs := decodeAll(t, filepath.Join("..", "..", "testdata", "otel", "genai-spans.json"), Options{})
	if len(errs) > 0 || len(reqs) != 2 {
		t.Fatalf("got %d requests, errors %v; want 2", len(reqs), errs)
	}
	r := reqs[0]
	if r.Format != wire.FormatOTel || r.Model != "claude-sonnet-4-5" || r.Index != 1 {
		t.Errorf("first: format %q model %q index %d", r.Format, r.Model, r.Index)
	}
	checkParts(t, r, []wantPart{
		{id: "tools[0]", channel: wire.ChannelTools, role: "tool", kind: wire.KindToolSchema, trust: wire.Trusted, name: "get_weather",
			text: `{"type":"function","name":"get_weather","description":"Get the weather for a city","parameters":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}}`},
		{id: "system[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are a helpful bot"},
		{id: "messages[0].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Weather in Paris?"},
		{id: "messages[1].content[0]", channel: wire.ChannelMessages, role: "assistant", kind: wire.KindToolCall, trust: wire.TrustModel,
			name: "get_weather", text: `{"location":"Paris"}`},
		{id: "messages[2].content[0]", channel: wire.ChannelMessages, role: "tool", kind: wire.KindToolResult, trust: wire.Untrusted,
			name: "get_weather", text: "rainy, 57°F"},
	})
	// input_tokens already holds the cache reads and writes.
	checkUsage(t, r, &wire.Usage{InputTokens: 1200, CachedTokens: 1000, CacheWriteTokens: 150, OutputTokens: 42})
	wantNotes := []string{
		"OTel span chat claude-sonnet-4-5 (trace 4bf92f3577b34da6a3ce929d0e0e4736, span a3ce929d0e0e4736), provider anthropic",
		"OTel: 1 of 3 spans in this export have no GenAI input attributes: skipped",
	}
	for _, n := range wantNotes {
		if !slices.Contains(r.Notes, n) {
			t.Errorf("first: notes %q lack %q", r.Notes, n)
		}
	}

	r = reqs[1]
	if r.Model != "gpt-4o-2024-08-06" || r.Index != 2 {
		t.Errorf("second: model %q index %d", r.Model, r.Index)
	}
	checkParts(t, r, []wantPart{
		{id: "messages[0].content[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Answer briefly."},
		{id: "messages[1].content[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "Hello"},
	})
	checkUsage(t, r, &wire.Usage{InputTokens: 20, OutputTokens: 5})
	if !slices.Contains(r.Notes, "OTel span chat gpt-4o (trace 5b8efff798038103d269b633813fc60c, span eee19b7ec3c1b174), provider openai") {
		t.Errorf("second: notes %q", r.Notes)
	}
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "skipped") }) {
		t.Errorf("second: the skipped spans said again: %q", r.Notes)
	}
}

// otlpLine is a one-line OTLP export of the given spans.
func otlpLine(spans ...string) string {
	return `{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{"name":"s"},"spans":[` + strings.Join(spans, ",") + `]}]}]}` + "\n"
}

// A writer that left the cache out of gen_ai.usage.input_tokens (an input
// smaller than the cache counts) has it added back; invalid attribute JSON is
// one error naming the span, the export's other spans still read; an export
// with no GenAI span is one error line; JSONL of exports is read line by line.
func TestDecodeOTelBad(t *testing.T) {
	in := otlpLine(
		`{"traceId":"t1","spanId":"s1","name":"chat a","attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"q\"}]}]"}},`+
			`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"10"}},{"key":"gen_ai.usage.cache_read.input_tokens","value":{"intValue":"300"}},`+
			`{"key":"gen_ai.usage.cache_creation.input_tokens","value":{"intValue":"40"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"2"}}]}`,
		`{"traceId":"t1","spanId":"s2","name":"chat b","attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":"}}]}`,
		`{"traceId":"t1","spanId":"s3","name":"chat c","attributes":[{"key":"gen_ai.system_instructions","value":{"stringValue":"{\"type\":\"text\"}"}}]}`,
	) + otlpLine(`{"traceId":"t2","spanId":"s4","name":"execute_tool x","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}}]}`)
	var got []string
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{Source: "t.jsonl"}) {
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		reqs = append(reqs, r)
	}
	want := []string{
		`t.jsonl:1: OTel span "chat b" (spanId s2): gen_ai.input.messages: invalid JSON at byte 9: unexpected end of input`,
		`t.jsonl:1: OTel span "chat c" (spanId s3): gen_ai.system_instructions: a JSON object where an array belongs (byte 0)`,
		`t.jsonl:2: OTel: no span of 1 has GenAI input attributes (gen_ai.input.messages, gen_ai.system_instructions)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(reqs) != 1 || reqs[0].Line != 1 {
		t.Fatalf("requests %+v", reqs)
	}
	checkUsage(t, reqs[0], &wire.Usage{InputTokens: 350, CachedTokens: 300, CacheWriteTokens: 40, OutputTokens: 2})
}
