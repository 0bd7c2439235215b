package decode

import (
	"encoding/base64"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// claude-trace.jsonl: line 1 a streamed request (body_raw holds the SSE),
// line 2 a count_tokens call (skipped), line 3 a request with a JSON
// response body.
func TestDecodeClaudeTrace(t *testing.T) {
	reqs, errs := decodeAll(t, fixture("claude-trace.jsonl"), Options{})
	if len(errs) > 0 || len(reqs) != 2 {
		t.Fatalf("got %d requests, errors %v; want 2", len(reqs), errs)
	}
	r := reqs[0]
	if r.Format != wire.FormatAnthropic || r.Model != "claude-sonnet-4-5" || r.Line != 1 || r.Index != 1 ||
		r.Endpoint != "https://api.anthropic.com/v1/messages?beta=true" {
		t.Errorf("first: format %q model %q line %d index %d endpoint %q", r.Format, r.Model, r.Line, r.Index, r.Endpoint)
	}
	checkParts(t, r, anthropicMessagesParts)
	checkUsage(t, r, &wire.Usage{InputTokens: 12 + 400 + 2048, CachedTokens: 2048, CacheWriteTokens: 400, OutputTokens: 57})

	r = reqs[1]
	if r.Line != 3 || r.Index != 2 || r.Model != "claude-haiku-4-5" {
		t.Errorf("second: line %d index %d model %q", r.Line, r.Index, r.Model)
	}
	checkParts(t, r, anthropicStringParts)
	checkUsage(t, r, &wire.Usage{InputTokens: 30 + 1800, CachedTokens: 1800, OutputTokens: 9})
}

func TestDecodeClaudeTraceBad(t *testing.T) {
	in := `{"request":{"url":"https://api.anthropic.com/v1/messages","body":null},"response":{}}
{"request":{"url":"https://api.anthropic.com/v1/messages","body":"{\"model\":\"claude-x\",\"system\":\"s\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}"},"response":{"body_raw":"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"}}
{"request":{"method":"GET","url":"https://api.anthropic.com/v1/models"}}
{"request":{"body":{"hello":1}}}
`
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
		"t.jsonl:1: claude-trace: the request to https://api.anthropic.com/v1/messages has no recorded body",
		"t.jsonl:4: claude-trace: request body: not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)",
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("errors %q\nwant %q", got, want)
	}
	if len(reqs) != 1 || reqs[0].Line != 2 || reqs[0].Model != "claude-x" {
		t.Fatalf("requests %+v", reqs)
	}
	checkUsage(t, reqs[0], &wire.Usage{InputTokens: 5, OutputTokens: 1})
}

// A request body wirelens's recorder kept as base64 (bytes that are not
// UTF-8) is read back from body_base64, its invalid bytes replaced as in
// any JSON body read; base64 that is not says so. Before, each was "has no
// recorded body".
func TestDecodeClaudeTraceRequestBase64(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	in := `{"request":{"url":"https://api.anthropic.com/v1/messages","body_base64":"` + enc(`{"model":"claude-b64","messages":[{"role":"user","content":"q"}]}`) + `"}}
{"request":{"url":"https://api.anthropic.com/v1/messages","body_base64":"` + enc("{\"model\":\"x\",\"messages\":[{\"role\":\"user\",\"content\":\"a\xff\"}]}") + `"}}
{"request":{"url":"https://api.anthropic.com/v1/messages","body_base64":"%%%"}}
`
	var errs []string
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{Source: "t.jsonl"}) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 2 || reqs[0].Model != "claude-b64" || reqs[1].Model != "x" || reqs[1].Segments[0].Text != "a\uFFFD" {
		t.Errorf("requests %+v, want claude-b64 and x with its byte replaced", reqs)
	}
	if len(errs) != 1 || errs[0] != "t.jsonl:3: claude-trace: the request's body_base64 is not base64" {
		t.Errorf("errors %q", errs)
	}
}
