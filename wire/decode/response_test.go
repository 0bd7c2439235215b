package decode

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSentResponse reads back the response recorded with a request: the
// real captures' streams (Anthropic's and OpenAI Responses' SSE, joined
// into the answer), a JSON body (Gemini), a HAR entry's gzip body in
// Polly.js chunks, and headers with a credential, masked; a request body
// alone has none.
func TestSentResponse(t *testing.T) {
	cases := []struct {
		file, status, ctype, message string
		events                       bool
	}{
		{"../../testdata/agents/claude-code.jsonl", "200", "text/event-stream", "", true},
		{"../../testdata/agents/codex.jsonl", "200", "text/event-stream", "", true},
		{"../../testdata/agents/gemini-cli.jsonl", "200", "application/json", "{}", false},
		{"../../testdata/har/polly-openai-chat.har", "200", "application/json", "OpenTelemetry", false},
	}
	for _, c := range cases {
		reqs := sourceRequests(t, c.file)
		r, err := SentResponse(&reqs[0], 32<<20)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got := headerValue(r.Headers, "content-type"); r.Status != 200 || !strings.HasPrefix(got, c.ctype) {
			t.Errorf("%s: status %d, content-type %q", c.file, r.Status, got)
		}
		if (r.Events > 0) != c.events || r.Message == "" || !strings.Contains(r.Message, c.message) {
			t.Errorf("%s: %d events, message %q", c.file, r.Events, r.Message)
		}
		if strings.Contains(r.Message, `"type"`) || strings.Contains(r.Message, "data:") {
			t.Errorf("%s: the message holds the stream's framing: %q", c.file, r.Message)
		}
	}

	dir := t.TempDir()
	key := "sk-ant-api03-" + strings.Repeat("Ab3", 30)
	line := `{"request":{"url":"https://api.anthropic.com/v1/messages","method":"POST","body":{"model":"m","messages":[{"role":"user","content":"hi"}]}},` +
		`"response":{"status_code":429,"headers":{"content-type":"text/event-stream","x-api-key":"` + key + `"},"body_raw":` +
		`"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n` +
		`event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello, \"}}\n\n` +
		`event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"world. ` + key + `\"}}\n\n` +
		`event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"name\":\"Bash\"}}\n\n` +
		`event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"cmd\\\":\\\"ls\\\"}\"}}\n\n` +
		`event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"}}` + "\n"
	path := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	reqs := sourceRequests(t, path)
	r, err := SentResponse(&reqs[0], 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 429 || r.Events != 6 || !strings.HasPrefix(r.Message, "Hello, world. ") || !strings.HasSuffix(r.Message, `[tool call Bash] {"cmd":"ls"}`) {
		t.Errorf("status %d, %d events, message %q", r.Status, r.Events, r.Message)
	}
	all := r.Message + string(r.Body)
	for _, h := range r.Headers {
		all += h[0] + h[1]
	}
	if strings.Contains(all, key) {
		t.Errorf("the key is kept in the clear: %q", all)
	}

	path = filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(`{"model":"gpt","messages":[{"role":"user","content":"hi"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reqs = sourceRequests(t, path)
	if _, err := SentResponse(&reqs[0], 1<<20); !errors.Is(err, ErrNoResponse) {
		t.Errorf("a request body alone: %v, want ErrNoResponse", err)
	}
}

// FuzzResponseMessage: whatever text two deltas of a stream carry (any
// bytes, framing look-alikes, invalid UTF-8), the message is their text
// joined, as Anthropic's and OpenAI Responses' streams send it; a body
// of no known shape gives none, without failing.
func FuzzResponseMessage(f *testing.F) {
	f.Add("Hello, ", "world", "data: {}")
	f.Add("\x1b[2J", "\u202e\n\nevent: x\ndata: [DONE]", "{\"choices\":[")
	f.Fuzz(func(t *testing.T, a, b, junk string) {
		q := func(s string) string { v, _ := json.Marshal(s); return string(v) }
		for _, stream := range []string{
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":" + q(a) + "}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":" + q(b) + "}}\n\n",
			"data: {\"type\":\"response.output_text.delta\",\"delta\":" + q(a) + "}\n\ndata: {\"type\":\"response.output_text.delta\",\"delta\":" + q(b) + "}\n\n" +
				"data: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"content\":[{\"text\":\"again\"}]}]}}\n\n",
		} {
			got, n := ResponseMessage([]byte(stream))
			var da, db string // the texts as JSON carries them (invalid bytes as U+FFFD)
			_, _ = json.Unmarshal([]byte(q(a)), &da), json.Unmarshal([]byte(q(b)), &db)
			want := strings.TrimSpace(da + db)
			if got != want || n < 2 {
				t.Fatalf("ResponseMessage = %q (%d events), want %q", got, n, want)
			}
		}
		_, _ = ResponseMessage([]byte(junk))
	})
}
