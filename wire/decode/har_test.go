package decode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// capture.har holds, in order: a GET of a web page, an Anthropic streamed
// request, an OpenAI Chat request with a JSON response, a POST to a
// telemetry host, a Moonshot streamed request (body base64-encoded), a Gemini
// streamGenerateContent over SSE, a Responses stream, and an Anthropic
// count_tokens call. The four non-model entries are ignored.
func TestDecodeHAR(t *testing.T) {
	reqs, errs := decodeAll(t, fixture("capture.har"), Options{})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := []struct {
		format   wire.Format
		model    string
		endpoint string
		usage    *wire.Usage
		first    wantPart
	}{
		{wire.FormatAnthropic, "claude-haiku-4-5", "https://api.anthropic.com/v1/messages?beta=true",
			// message_start: input 12, cache write 400, cache read 2048; message_delta: output 57
			&wire.Usage{InputTokens: 12 + 400 + 2048, CachedTokens: 2048, CacheWriteTokens: 400, OutputTokens: 57},
			anthropicStringParts[0]},
		{wire.FormatOpenAIChat, "gpt-4.1", "https://api.openai.com/v1/chat/completions",
			&wire.Usage{InputTokens: 1320, CachedTokens: 1024, OutputTokens: 5},
			openAIChatParts[0]},
		{wire.FormatOpenAIChat, "kimi-k2-turbo-preview", "https://api.moonshot.ai/v1/chat/completions",
			&wire.Usage{InputTokens: 300, CachedTokens: 256, OutputTokens: 2},
			wantPart{id: "messages[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "You are Kimi."}},
		{wire.FormatGemini, "gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
			// the last chunk's usageMetadata; output counts candidates and thoughts
			&wire.Usage{InputTokens: 5000, CachedTokens: 4096, OutputTokens: 2 + 10},
			wantPart{id: "systemInstruction.parts[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Be kind."}},
		{wire.FormatOpenAIResponses, "gpt-5", "https://api.openai.com/v1/responses",
			&wire.Usage{InputTokens: 2200, CachedTokens: 2048, OutputTokens: 20},
			wantPart{id: "instructions", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Be terse."}},
	}
	if len(reqs) != len(want) {
		t.Fatalf("got %d requests, want %d", len(reqs), len(want))
	}
	prevLine := 0
	for i, w := range want {
		r := reqs[i]
		if r.Format != w.format || r.Model != w.model || r.Endpoint != w.endpoint || r.Index != i+1 {
			t.Errorf("request %d: format %q model %q endpoint %q index %d", i+1, r.Format, r.Model, r.Endpoint, r.Index)
		}
		if r.Line <= prevLine {
			t.Errorf("request %d: line %d does not follow %d", i+1, r.Line, prevLine)
		}
		prevLine = r.Line
		checkUsage(t, r, w.usage)
		if len(r.Segments) == 0 || r.Segments[0].Part != w.first.id || r.Segments[0].Text != w.first.text {
			t.Errorf("request %d: first segment %+v, want part %s %q", i+1, r.Segments, w.first.id, w.first.text)
		}
	}
	// The first model entry starts where its object opens in the file.
	if reqs[0].Segments[0].Channel != wire.ChannelSystem {
		t.Errorf("channel %s", reqs[0].Segments[0].Channel)
	}
}

func TestDecodeHARBadEntries(t *testing.T) {
	in := `{"log": {"version": "1.2", "entries": [
  {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "postData": {"text": "{\"model\": \"gpt\", \"messages\": ["}},
   "response": {"content": {"text": ""}}},
  {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages"}, "response": {}},
  {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "postData": {"text": "%%%", "encoding": "base64"}}, "response": {}},
  {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "postData": {"text": "{\"model\":\"ok\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"}},
   "response": {"content": {"mimeType": "application/json", "text": "{\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":1}}"}}}
]}}`
	var got []string
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{Source: "cap.har"}) {
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		reqs = append(reqs, r)
	}
	want := []string{
		"cap.har:2: HAR entry 1: request body: invalid JSON at byte 30: unexpected end of input",
		"cap.har:4: HAR entry 2: POST https://api.anthropic.com/v1/messages has no recorded body",
		"cap.har:5: HAR entry 3: request body: invalid base64: illegal base64 data at input byte 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(reqs) != 1 || reqs[0].Model != "ok" || reqs[0].Line != 6 {
		t.Fatalf("requests %+v, want the one good entry at line 6", reqs)
	}
	checkUsage(t, reqs[0], &wire.Usage{InputTokens: 7, OutputTokens: 1})
}

func TestDecodeEndpointFormat(t *testing.T) {
	cases := []struct {
		url    string
		format wire.Format
		model  string
		ok     bool
	}{
		{"https://api.openai.com/v1/chat/completions", wire.FormatOpenAIChat, "", true},
		{"https://api.moonshot.cn/v1/chat/completions", wire.FormatOpenAIChat, "", true},
		{"https://openrouter.ai/api/v1/chat/completions", wire.FormatOpenAIChat, "", true},
		{"http://localhost:8080/chat/completions", wire.FormatOpenAIChat, "", true},
		{"https://api.openai.com/v1/responses", wire.FormatOpenAIResponses, "", true},
		{"https://api.anthropic.com/v1/messages?beta=true", wire.FormatAnthropic, "", true},
		{"https://api.moonshot.ai/anthropic/v1/messages", wire.FormatAnthropic, "", true},
		{"https://api.anthropic.com/v1/messages/count_tokens", "", "", false},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent", wire.FormatGemini, "gemini-2.5-pro", true},
		{"https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse", wire.FormatGemini, "gemini-2.0-flash", true},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:countTokens", "", "", false},
		{"https://example.com/v1/events", "", "", false},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict", wire.FormatAnthropic, "claude-sonnet-4-5@20250929", true},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5:rawPredict", wire.FormatAnthropic, "claude-haiku-4-5", true},
		{"https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/meta/models/llama:rawPredict", "", "", false},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2:0/invoke", wire.FormatAnthropic, "anthropic.claude-3-5-sonnet-20241022-v2:0", true},
		{"https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream", wire.FormatAnthropic, "us.anthropic.claude-sonnet-4-20250514-v1:0", true},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-text-express-v1/invoke", "", "", false},
	}
	for _, c := range cases {
		f, m, ok := EndpointFormat(c.url)
		if f != c.format || m != c.model || ok != c.ok {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.url, f, m, ok, c.format, c.model, c.ok)
		}
	}
}

// A HAR of a page that called no model says so: nothing to show is not a
// silent success.
func TestDecodeHARWithoutModelEntries(t *testing.T) {
	in := `{"log": {"version": "1.2", "entries": [
  {"request": {"method": "GET", "url": "https://example.com/"}, "response": {}},
  {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages/count_tokens", "postData": {"text": "{}"}}, "response": {}}
]}}`
	models, errs := runDecode(t, []byte(in), Options{Source: "page.har"})
	want := "page.har:1: HAR has 2 entries, none a POST to a model endpoint (.../chat/completions, .../responses, .../messages, ...:generateContent)"
	if len(models) != 0 || len(errs) != 1 || errs[0] != want {
		t.Errorf("%d requests, errors %q; want one error %q", len(models), errs, want)
	}
}

// Anthropic's models on Vertex AI and Bedrock take the Messages body
// without a model member: the model comes from the URL, the usage from the
// response.
func TestDecodeHARCloudAnthropic(t *testing.T) {
	in := `{"log": {"version": "1.2", "entries": [
  {"request": {"method": "POST", "url": "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict",
    "postData": {"mimeType": "application/json", "text": "{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":100,\"system\":\"Be brief.\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"}},
   "response": {"content": {"mimeType": "application/json", "text": "{\"type\":\"message\",\"usage\":{\"input_tokens\":5,\"cache_read_input_tokens\":100,\"output_tokens\":2}}"}}},
  {"request": {"method": "POST", "url": "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1:0/invoke",
    "postData": {"mimeType": "application/json", "text": "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"yo\"}]}"}},
   "response": {"content": {"mimeType": "application/json", "text": "{\"usage\":{\"input_tokens\":7,\"output_tokens\":1}}"}}}
]}}`
	var reqs []wire.Request
	for r, err := range Decode(stringsReaderDec(in), Options{Source: "cloud.har"}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if r := reqs[0]; r.Format != wire.FormatAnthropic || r.Model != "claude-sonnet-4-5@20250929" || r.Line != 2 {
		t.Errorf("Vertex: format %q model %q line %d", r.Format, r.Model, r.Line)
	}
	checkUsage(t, reqs[0], &wire.Usage{InputTokens: 105, CachedTokens: 100, OutputTokens: 2})
	checkParts(t, reqs[0], []wantPart{
		{id: "system[0]", channel: wire.ChannelSystem, role: "system", kind: wire.KindHostRules, trust: wire.Trusted, text: "Be brief."},
		{id: "messages[0]", channel: wire.ChannelMessages, role: "user", kind: wire.KindUserInput, trust: wire.TrustUser, text: "hi"},
	})
	if r := reqs[1]; r.Format != wire.FormatAnthropic || r.Model != "anthropic.claude-3-5-haiku-20241022-v1:0" {
		t.Errorf("Bedrock: format %q model %q", r.Format, r.Model)
	}
	checkUsage(t, reqs[1], &wire.Usage{InputTokens: 7, OutputTokens: 1})
}

// A request body is checked in the one walk that splits it: too deep,
// trailing data and a body of another kind are each one error of its entry.
func TestDecodeHARBodyChecks(t *testing.T) {
	post := func(text string) string {
		q, _ := json.Marshal(text)
		return `{"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages", "postData": {"text": ` + string(q) + `}}, "response": {}}`
	}
	deep := `{"messages":` + strings.Repeat("[", body.MaxDepth+1) + strings.Repeat("]", body.MaxDepth+1) + `}`
	in := `{"log": {"entries": [
` + post(deep) + `,
` + post(`{"messages": []} {}`) + `,
` + post(`[{"messages": []}]`) + `,
` + post(`{"messages": [{"role": "user", "content": "hi"}]}`) + `
]}}`
	var got []string
	n := 0
	for _, err := range Decode(stringsReaderDec(in), Options{Source: "cap.har"}) {
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		n++
	}
	want := []string{
		"cap.har:2: HAR entry 1: request body: JSON nested deeper than 512 levels at byte 523",
		"cap.har:3: HAR entry 2: request body: unexpected data after the top-level value at byte 18",
		"cap.har:4: HAR entry 3: request body is a JSON array, not an object",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || n != 1 {
		t.Errorf("%d requests, errors\n%s\nwant 1 and\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
