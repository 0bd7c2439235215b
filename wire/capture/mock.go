package capture

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json"
)

// Mock answers: the smallest valid response of each API, in the request's
// own shape and mode, so that an agent runs to its end with no upstream.

// MockText is the reply of every mocked generation.
const MockText = "4"

// mockIDs numbers the mocked responses.
type mockIDs struct{ n atomic.Int64 }

func (m *mockIDs) next(prefix string) string {
	return fmt.Sprintf("%s_wirelens_mock_%d", prefix, m.n.Add(1))
}

// requestFacts are the members of a request body the mock answers by.
type requestFacts struct {
	Model            string `json:"model"`
	Stream           bool   `json:"stream"`
	GenerationConfig *struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	Text *struct {
		Format *struct {
			Type string `json:"type"`
		} `json:"format"`
	} `json:"text"`
}

// mock answers r itself, after reading its whole body for the record.
func (p *Proxy) mock(w http.ResponseWriter, r *http.Request, x *Exchange, body *teeBody) {
	drain(body)
	raw := body.keep.memory()
	var f requestFacts
	_ = json.Unmarshal(raw, &f) // a body that is not JSON gets the plain answer
	path := strings.TrimRight(r.URL.Path, "/")
	api := apiOf(path, r.Header)
	if api == APIGemini {
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			if m, _, ok := strings.Cut(path[i+1:], ":"); ok && f.Model == "" {
				f.Model = m
			}
		}
	}
	text := mockTextFor(f)
	in := max(1, len(raw)/4) // a rough count: no tokenizer is asked
	out := &mockWriter{w: w, x: x}
	switch {
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		if strings.HasSuffix(path, "/models") {
			out.json(`{"object":"list","data":[],"models":[]}`)
		} else {
			out.json(`{}`)
		}
	case r.Method != http.MethodPost:
		out.json(`{}`)
	case api == APIAnthropic && strings.HasSuffix(path, "/count_tokens"):
		out.json(fmt.Sprintf(`{"input_tokens":%d}`, in))
	case api == APIAnthropic:
		p.anthropic(out, f, text, in)
	case api == APIChat:
		p.chat(out, f, text, in)
	case api == APIResponses:
		p.responses(out, f, text, in)
	case api == APIGemini && strings.HasSuffix(path, ":countTokens"):
		out.json(fmt.Sprintf(`{"totalTokens":%d}`, in))
	case api == APIGemini && strings.HasSuffix(path, ":embedContent"):
		out.json(`{"embedding":{"values":[]}}`)
	case api == APIGemini && strings.HasSuffix(path, ":batchEmbedContents"):
		out.json(`{"embeddings":[]}`)
	case api == APIGemini && strings.HasSuffix(path, ":streamGenerateContent"):
		p.gemini(out, f, text, in, true, r.URL.Query().Get("alt") == "sse")
	case api == APIGemini && strings.HasSuffix(path, ":generateContent"):
		p.gemini(out, f, text, in, false, false)
	default:
		out.json(`{}`)
	}
}

// mockTextFor is the mock's reply to a request: MockText, or {} where the
// request asks for JSON.
func mockTextFor(f requestFacts) string {
	if (f.GenerationConfig != nil && strings.Contains(f.GenerationConfig.ResponseMimeType, "json")) ||
		(f.ResponseFormat != nil && strings.HasPrefix(f.ResponseFormat.Type, "json")) ||
		(f.Text != nil && f.Text.Format != nil && strings.HasPrefix(f.Text.Format.Type, "json")) {
		return "{}"
	}
	return MockText
}

// mockWriter writes a mocked answer and keeps it for the record.
type mockWriter struct {
	w   http.ResponseWriter
	x   *Exchange
	buf bytes.Buffer
}

func (m *mockWriter) start(contentType string) {
	m.w.Header().Set("Content-Type", contentType)
	m.w.Header().Set("X-Wirelens-Mock", "1")
	m.w.WriteHeader(http.StatusOK)
	m.x.Status = http.StatusOK
	m.x.RespHeader = m.w.Header().Clone()
}

func (m *mockWriter) json(body string) {
	m.start("application/json")
	m.write(body)
}

func (m *mockWriter) write(s string) {
	m.buf.WriteString(s)
	m.x.RespBody = m.buf.Bytes()
	io.WriteString(m.w, s)
	if fl, ok := m.w.(http.Flusher); ok {
		fl.Flush()
	}
}

// event writes one server-sent event (name may be empty).
func (m *mockWriter) event(name, data string) {
	if name != "" {
		m.write("event: " + name + "\ndata: " + data + "\n\n")
		return
	}
	m.write("data: " + data + "\n\n")
}

// q is s as a JSON string.
func q(s string) string {
	var b bytes.Buffer
	quote(&b, s)
	return b.String()
}

func modelOr(m, def string) string {
	if m == "" {
		return def
	}
	return m
}

func (p *Proxy) anthropic(out *mockWriter, f requestFacts, text string, in int) {
	id, model := p.ids.next("msg"), q(modelOr(f.Model, "claude-mock"))
	if !f.Stream {
		out.json(fmt.Sprintf(`{"id":%q,"type":"message","role":"assistant","model":%s,"content":[{"type":"text","text":%s}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}`,
			id, model, q(text), in))
		return
	}
	out.start("text/event-stream")
	out.event("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":%q,"type":"message","role":"assistant","model":%s,"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`, id, model, in))
	out.event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	out.event("ping", `{"type":"ping"}`)
	out.event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}`, q(text)))
	out.event("content_block_stop", `{"type":"content_block_stop","index":0}`)
	out.event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}`)
	out.event("message_stop", `{"type":"message_stop"}`)
}

func (p *Proxy) chat(out *mockWriter, f requestFacts, text string, in int) {
	id, model, now := p.ids.next("chatcmpl"), q(modelOr(f.Model, "gpt-mock")), time.Now().Unix()
	usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":1,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":0}}`, in, in+1)
	if !f.Stream {
		out.json(fmt.Sprintf(`{"id":%q,"object":"chat.completion","created":%d,"model":%s,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":%s}`,
			id, now, model, q(text), usage))
		return
	}
	out.start("text/event-stream")
	chunk := func(choices, usage string) string {
		return fmt.Sprintf(`{"id":%q,"object":"chat.completion.chunk","created":%d,"model":%s,"choices":%s,"usage":%s}`, id, now, model, choices, usage)
	}
	out.event("", chunk(`[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]`, "null"))
	out.event("", chunk(fmt.Sprintf(`[{"index":0,"delta":{"content":%s},"finish_reason":null}]`, q(text)), "null"))
	out.event("", chunk(`[{"index":0,"delta":{},"finish_reason":"stop"}]`, "null"))
	out.event("", chunk(`[]`, usage))
	out.event("", "[DONE]")
}

func (p *Proxy) responses(out *mockWriter, f requestFacts, text string, in int) {
	id, item, model, now := p.ids.next("resp"), p.ids.next("msg"), q(modelOr(f.Model, "gpt-mock")), time.Now().Unix()
	part := fmt.Sprintf(`{"type":"output_text","text":%s,"annotations":[]}`, q(text))
	done := fmt.Sprintf(`{"id":%q,"type":"message","status":"completed","role":"assistant","content":[%s]}`, item, part)
	usage := fmt.Sprintf(`{"input_tokens":%d,"input_tokens_details":{"cached_tokens":0},"output_tokens":1,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":%d}`, in, in+1)
	response := func(status, output, usage string) string {
		return fmt.Sprintf(`{"id":%q,"object":"response","created_at":%d,"status":%q,"model":%s,"output":%s,"usage":%s}`, id, now, status, model, output, usage)
	}
	if !f.Stream {
		out.json(response("completed", "["+done+"]", usage))
		return
	}
	out.start("text/event-stream")
	seq := 0
	ev := func(name, rest string) {
		out.event(name, fmt.Sprintf(`{"type":%q,"sequence_number":%d,%s}`, name, seq, rest))
		seq++
	}
	ev("response.created", `"response":`+response("in_progress", "[]", "null"))
	ev("response.in_progress", `"response":`+response("in_progress", "[]", "null"))
	ev("response.output_item.added", fmt.Sprintf(`"output_index":0,"item":{"id":%q,"type":"message","status":"in_progress","role":"assistant","content":[]}`, item))
	ev("response.content_part.added", fmt.Sprintf(`"item_id":%q,"output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`, item))
	ev("response.output_text.delta", fmt.Sprintf(`"item_id":%q,"output_index":0,"content_index":0,"delta":%s`, item, q(text)))
	ev("response.output_text.done", fmt.Sprintf(`"item_id":%q,"output_index":0,"content_index":0,"text":%s`, item, q(text)))
	ev("response.content_part.done", fmt.Sprintf(`"item_id":%q,"output_index":0,"content_index":0,"part":%s`, item, part))
	ev("response.output_item.done", fmt.Sprintf(`"output_index":0,"item":%s`, done))
	ev("response.completed", `"response":`+response("completed", "["+done+"]", usage))
}

func (p *Proxy) gemini(out *mockWriter, f requestFacts, text string, in int, stream, sse bool) {
	id, model := p.ids.next("gen"), q(modelOr(f.Model, "gemini-mock"))
	body := fmt.Sprintf(`{"candidates":[{"content":{"parts":[{"text":%s}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":1,"totalTokenCount":%d,"cachedContentTokenCount":0},"modelVersion":%s,"responseId":%q}`,
		q(text), in, in+1, model, id)
	if stream {
		body = fmt.Sprintf(`{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":1,"totalTokenCount":%d,"cachedContentTokenCount":0},"modelVersion":%s,"responseId":%q}`,
			in, in+1, model, id)
	}
	// A stream: the text first, then the end with the usage.
	first := fmt.Sprintf(`{"candidates":[{"content":{"parts":[{"text":%s}],"role":"model"},"index":0}],"modelVersion":%s,"responseId":%q}`, q(text), model, id)
	switch {
	case !stream:
		out.json(body)
	case sse:
		out.start("text/event-stream")
		out.write("data: " + first + "\r\n\r\n")
		out.write("data: " + body + "\r\n\r\n")
	default:
		out.json("[" + first + "," + body + "]")
	}
}
