package decode

// The response recorded with a request (a HAR entry's, a claude-trace or
// wirelens proxy line's), read back from its source for the viewer's
// Response view.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/redact"
)

// ErrNoResponse is SentResponse's error for a request whose recording holds
// no response (a request body alone, a transcript, a build).
var ErrNoResponse = errors.New("no response was recorded with this request")

// Response is a recorded response. Its text is hostile: credentials are
// masked, nothing else is made safe to print.
type Response struct {
	Status  int         // the HTTP status, 0 when not recorded
	Headers [][2]string // name and value, in the recording's order (a trace's sorted), credentials masked
	// Body is the body, decoded (base64, Polly.js chunks) and decompressed,
	// credentials masked.
	Body []byte
	// Events is how many server-sent events the body holds (0: not a
	// stream); Message is the text of the model's answer, the deltas of
	// a stream joined, tool calls as "[tool call NAME] arguments".
	Events  int
	Message string
	// Note says what could not be read (a body not recorded, not decoded).
	Note string
}

// SentResponse reads back the response recorded with r from its source, up
// to limit bytes of the entry or line that holds them.
func SentResponse(r *wire.Request, limit int64) (*Response, error) {
	raw, err := ReadBody(r, limit)
	if errors.Is(err, ErrNotOnDisk) {
		return nil, ErrNoResponse
	}
	if err != nil {
		return nil, err
	}
	var entry struct {
		Response *struct {
			Status     int             `json:"status"`
			StatusCode int             `json:"status_code"`
			Headers    json.RawMessage `json:"headers"`
			Content    *struct {
				Text     string `json:"text"`
				Encoding string `json:"encoding"`
			} `json:"content"`
			Body       json.RawMessage `json:"body"`
			BodyRaw    string          `json:"body_raw"`
			BodyBase64 string          `json:"body_base64"`
		} `json:"response"`
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &entry) != nil || entry.Response == nil {
		return nil, ErrNoResponse
	}
	e := entry.Response
	out := &Response{Status: max(e.Status, e.StatusCode), Headers: responseHeaders(e.Headers)}
	var b []byte
	switch {
	case e.Content != nil && e.Content.Text != "":
		if b, err = harText(e.Content.Text, e.Content.Encoding); err != nil {
			out.Note = "the response body could not be read: " + err.Error()
		}
	case e.BodyRaw != "":
		b = []byte(e.BodyRaw)
	case e.BodyBase64 != "":
		if b, err = base64.StdEncoding.DecodeString(e.BodyBase64); err != nil {
			out.Note = "the response body could not be read: invalid base64"
		}
	case len(e.Body) > 0 && !bytes.Equal(e.Body, []byte("null")):
		b = e.Body
		var s string
		if json.Unmarshal(b, &s) == nil {
			b = []byte(s)
		}
	default:
		out.Note = "the response body was not recorded"
	}
	if len(b) > 0 {
		var cerr error
		if b, _, cerr = body.Decompress(b, headerValue(out.Headers, "content-encoding")); cerr != nil {
			out.Note, b = "the response body is "+cerr.Error(), nil
		}
	}
	out.Body = redact.Body(b)
	out.Message, out.Events = ResponseMessage(out.Body)
	out.Message = redact.MaskSecrets(out.Message)
	return out, nil
}

// headerValue is the value of the named header in hs (Response.Headers'
// shape), or "".
func headerValue(hs [][2]string, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h[0], name) {
			return h[1]
		}
	}
	return ""
}

// responseHeaders reads HAR's [{"name", "value"}] or a trace's {"name":
// "value"} headers, each value masked by its name (redact.Header) unless
// ReadBody masked it already.
func responseHeaders(raw json.RawMessage) [][2]string {
	var out [][2]string
	mask := func(name, v string) string {
		if strings.Contains(v, redact.Mask) {
			return v
		}
		return redact.Header(name, v)
	}
	var list []harHeader
	var obj map[string]any
	switch {
	case json.Unmarshal(raw, &list) == nil:
		for _, h := range list {
			out = append(out, [2]string{h.Name, mask(h.Name, h.Value)})
		}
	case json.Unmarshal(raw, &obj) == nil:
		for k, v := range obj {
			s, ok := v.(string)
			if !ok {
				s = fmt.Sprint(v)
			}
			out = append(out, [2]string{k, mask(k, s)})
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	}
	return out
}

// ResponseMessage is the model's answer in a response body of any of the
// providers' shapes, streamed (server-sent events, or Gemini's JSON array
// of chunks) or not: text and tool calls in order, the deltas of a stream
// joined. events counts the server-sent events ("" text and 0 for a body
// of no shape it knows).
func ResponseMessage(b []byte) (text string, events int) {
	var m messageText
	t := body.TrimSpace(b)
	switch {
	case len(t) > 0 && (t[0] == '{' || t[0] == '['):
		var v any
		if json.Unmarshal(t, &v) == nil {
			if arr, ok := v.([]any); ok {
				for _, x := range arr {
					m.add(x)
				}
			} else {
				m.add(v)
			}
		}
	default:
		body.EachSSE(b, func(_ string, data []byte) {
			events++
			var v any
			if json.Unmarshal(data, &v) == nil {
				m.add(v)
			}
		})
	}
	return strings.TrimSpace(m.b.String()), events
}

// messageText gathers the answer from one JSON value after another.
type messageText struct {
	b      strings.Builder
	deltas bool // a stream's deltas were seen: its final summary repeats them
}

func (m *messageText) text(s string) { m.b.WriteString(s) }

func (m *messageText) tool(name, args string) {
	if m.b.Len() > 0 {
		m.b.WriteString("\n")
	}
	m.b.WriteString("[tool call " + name + "] " + args)
}

// add reads one value: an event of a stream or a whole response.
func (m *messageText) add(v any) {
	o, _ := v.(map[string]any)
	if o == nil {
		return
	}
	switch str(o["type"]) {
	case "content_block_start": // Anthropic's stream
		if cb, _ := o["content_block"].(map[string]any); str(cb["type"]) == "tool_use" {
			m.tool(str(cb["name"]), "")
		} else if m.b.Len() > 0 {
			m.text("\n\n")
		}
		return
	case "content_block_delta":
		d, _ := o["delta"].(map[string]any)
		m.deltas = true
		m.text(str(d["text"]) + str(d["thinking"]) + str(d["partial_json"]))
		return
	case "response.output_text.delta", "response.function_call_arguments.delta": // OpenAI Responses' stream
		m.deltas = true
		m.text(str(o["delta"]))
		return
	case "response.output_item.added":
		if it, _ := o["item"].(map[string]any); str(it["type"]) == "function_call" {
			m.tool(str(it["name"]), "")
		}
		return
	case "response.completed":
		if r, _ := o["response"].(map[string]any); r != nil && !m.deltas {
			m.add(r)
		}
		return
	}
	for _, c := range list(o["choices"]) { // OpenAI Chat, streamed (delta) or not (message)
		c, _ := c.(map[string]any)
		for _, k := range []string{"delta", "message"} {
			d, _ := c[k].(map[string]any)
			m.text(str(d["content"]))
			for _, tc := range list(d["tool_calls"]) {
				tc, _ := tc.(map[string]any)
				f, _ := tc["function"].(map[string]any)
				if n := str(f["name"]); n != "" {
					m.tool(n, str(f["arguments"]))
				} else {
					m.text(str(f["arguments"]))
				}
			}
		}
	}
	for _, c := range list(o["candidates"]) { // Gemini
		c, _ := c.(map[string]any)
		content, _ := c["content"].(map[string]any)
		for _, p := range list(content["parts"]) {
			p, _ := p.(map[string]any)
			m.text(str(p["text"]))
			if fc, _ := p["functionCall"].(map[string]any); fc != nil {
				args, _ := json.Marshal(fc["args"])
				m.tool(str(fc["name"]), string(args))
			}
		}
	}
	for _, bl := range list(o["content"]) { // Anthropic, not streamed
		bl, _ := bl.(map[string]any)
		m.text(str(bl["text"]))
		if str(bl["type"]) == "tool_use" {
			args, _ := json.Marshal(bl["input"])
			m.tool(str(bl["name"]), string(args))
		}
	}
	for _, it := range list(o["output"]) { // OpenAI Responses, not streamed
		it, _ := it.(map[string]any)
		for _, c := range list(it["content"]) {
			c, _ := c.(map[string]any)
			m.text(str(c["text"]))
		}
		if str(it["type"]) == "function_call" {
			m.tool(str(it["name"]), str(it["arguments"]))
		}
	}
}

func str(v any) string { s, _ := v.(string); return s }

func list(v any) []any { l, _ := v.([]any); return l }
