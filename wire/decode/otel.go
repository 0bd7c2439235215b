package decode

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// OTLP JSON trace exports of OpenTelemetry GenAI spans: {"resourceSpans":
// [{"resource", "scopeSpans": [{"scope", "spans": [{"traceId", "spanId",
// "name", "attributes": [{"key", "value": {"stringValue"}}]}]}]}]}, one
// document or JSONL of them. A span with the GenAI input attributes
// (gen_ai.system_instructions, gen_ai.input.messages, gen_ai.tool.definitions,
// each a JSON string) is one request; other spans (an agent's, a tool's) are
// skipped, said in one note on the document's first request, or one error
// when the document has no such span. Usage follows the conventions:
// gen_ai.usage.input_tokens includes the cache reads and writes, as
// wire.Usage's InputTokens does.

type otlpExport struct {
	ResourceSpans []struct {
		ScopeSpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type otlpSpan struct {
	TraceID string `json:"traceId"`
	SpanID  string `json:"spanId"`
	Name    string `json:"name"`
	// StartTimeUnixNano is when the span (the model call) started: a
	// string of digits in OTLP JSON, a number from some writers.
	StartTimeUnixNano jsontext.Value `json:"startTimeUnixNano"`
	Attributes        []struct {
		Key   string `json:"key"`
		Value struct {
			StringValue *string        `json:"stringValue"`
			IntValue    jsontext.Value `json:"intValue"` // a string in OTLP JSON, a number from some writers
		} `json:"value"`
	} `json:"attributes"`
}

// otelPart is one part of the conventions' message schema: text (content),
// tool_call (id, name, arguments), tool_call_response (id, response), and
// others (reasoning, blob, uri, ...) kept as their content or their JSON.
type otelPart struct {
	Type      string         `json:"type"`
	Content   jsontext.Value `json:"content"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
	Response  jsontext.Value `json:"response"`
}

type otelMessage struct {
	Role  string           `json:"role"`
	Parts []jsontext.Value `json:"parts"`
}

// GenAI attribute names of the semantic conventions.
const (
	otelSystem   = "gen_ai.system_instructions"
	otelMessages = "gen_ai.input.messages"
	otelTools    = "gen_ai.tool.definitions"
)

func decodeOTel(d *decoder, v jsontext.Value, line int, off int64) {
	var x otlpExport
	if err := body.Unmarshal(v, &x); err != nil {
		d.Fail(line, "OTel: %s", body.DescribeError(err))
		return
	}
	var reqs []wire.Request
	spans, skipped := 0, 0
	for _, rs := range x.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for i := range ss.Spans {
				spans++
				r, ok, err := otelRequest(d, &ss.Spans[i], line, off, int64(len(v)))
				switch {
				case err != nil:
					d.Fail(line, "OTel span %q (spanId %s): %v", ss.Spans[i].Name, ss.Spans[i].SpanID, err)
				case !ok:
					skipped++
				default:
					reqs = append(reqs, r)
				}
			}
		}
	}
	if len(reqs) == 0 {
		if skipped == spans {
			d.Fail(line, "OTel: no span of %d has GenAI input attributes (%s, %s)", spans, otelMessages, otelSystem)
		}
		return
	}
	if skipped > 0 {
		reqs[0].Notes = append(reqs[0].Notes, fmt.Sprintf("OTel: %d of %d spans in this export have no GenAI input attributes: skipped", skipped, spans))
	}
	for _, r := range reqs {
		d.Emit(r)
	}
}

// otelRequest is the request of one span; ok is false for a span without
// GenAI input attributes.
func otelRequest(d *decoder, sp *otlpSpan, line int, off, length int64) (wire.Request, bool, error) {
	str := map[string]string{}
	num := map[string]int{}
	for _, a := range sp.Attributes {
		if a.Value.StringValue != nil {
			str[a.Key] = *a.Value.StringValue
		} else if body.HasValue(a.Value.IntValue) {
			t := strings.Trim(string(a.Value.IntValue), `"`)
			if n, err := strconv.Atoi(t); err == nil {
				num[a.Key] = n
			}
		}
	}
	_, hasSys := str[otelSystem]
	_, hasMsg := str[otelMessages]
	if !hasSys && !hasMsg {
		return wire.Request{}, false, nil
	}
	b := d.Builder(wire.FormatOTel, line, off, length)
	if s, ok := str[otelTools]; ok {
		var tools []jsontext.Value
		if err := body.Unmarshal([]byte(s), &tools); err != nil {
			return wire.Request{}, false, fmt.Errorf("%s: %s", otelTools, body.DescribeError(err))
		}
		for k, t := range tools {
			var def struct {
				Name string `json:"name"`
			}
			_ = body.Unmarshal(t, &def)
			b.Add(wire.Part{ID: body.IndexPath("tools", k), Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: def.Name, Text: body.Compact(t)})
		}
	}
	if s, ok := str[otelSystem]; ok {
		var parts []jsontext.Value
		if err := body.Unmarshal([]byte(s), &parts); err != nil {
			return wire.Request{}, false, fmt.Errorf("%s: %s", otelSystem, body.DescribeError(err))
		}
		for j, raw := range parts {
			p, err := otelPartOf(raw, body.IndexPath("system", j), wire.ChannelSystem, "system", nil)
			if err != nil {
				return wire.Request{}, false, fmt.Errorf("%s: %s", otelSystem, body.DescribeError(err))
			}
			b.Add(p)
		}
	}
	if s, ok := str[otelMessages]; ok {
		var msgs []otelMessage
		if err := body.Unmarshal([]byte(s), &msgs); err != nil {
			return wire.Request{}, false, fmt.Errorf("%s: %s", otelMessages, body.DescribeError(err))
		}
		names := map[string]string{} // tool call id -> tool name
		for i, m := range msgs {
			ch := wire.ChannelMessages
			if m.Role == "system" || m.Role == "developer" {
				ch = wire.ChannelSystem
			}
			for j, raw := range m.Parts {
				p, err := otelPartOf(raw, body.IndexPath(body.IndexPath("messages", i)+".content", j), ch, m.Role, names)
				if err != nil {
					return wire.Request{}, false, fmt.Errorf("%s: %s", otelMessages, body.DescribeError(err))
				}
				b.Add(p)
			}
		}
	}
	r := *b.Req
	r.Model = str["gen_ai.request.model"]
	if r.Model == "" {
		r.Model = str["gen_ai.response.model"]
	}
	provider := str["gen_ai.provider.name"]
	if provider == "" {
		provider = str["gen_ai.system"]
	}
	r.Usage = otelUsage(num)
	if t := strings.Trim(string(sp.StartTimeUnixNano), `"`); t != "" {
		if ns, err := strconv.ParseInt(t, 10, 64); err == nil && ns > 0 {
			r.At = time.Unix(0, ns).UTC()
		}
	}
	note := "OTel span " + sp.Name + " (trace " + sp.TraceID + ", span " + sp.SpanID + ")"
	if provider != "" {
		note += ", provider " + provider
	}
	r.Notes = append(r.Notes, note)
	return r, true, nil
}

// otelPartOf is the wire part of one part of the message schema. names maps
// tool call ids to tool names, so that a response carries its tool's name.
func otelPartOf(raw jsontext.Value, id string, ch wire.Channel, role string, names map[string]string) (wire.Part, error) {
	var p otelPart
	if err := body.Unmarshal(raw, &p); err != nil {
		return wire.Part{}, err
	}
	out := wire.Part{ID: id, Channel: ch, Role: role, Type: p.Type}
	switch p.Type {
	case "tool_call":
		out.Name, out.Text = p.Name, otelText(p.Arguments)
		if names != nil && p.ID != "" {
			names[p.ID] = p.Name
		}
	case "tool_call_response":
		out.Type, out.Name, out.Text = "tool_result", names[p.ID], otelText(p.Response)
	default:
		if p.Content.Kind() == '"' {
			out.Text = otelText(p.Content)
		} else {
			out.Text = body.Compact(raw)
		}
	}
	return out, nil
}

// otelText is a JSON string's text, or other JSON compacted.
func otelText(v jsontext.Value) string {
	if !body.HasValue(v) {
		return ""
	}
	if v.Kind() == '"' {
		var s string
		if body.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return body.Compact(v)
}

// otelUsage is the span's usage, nil when it has none. The conventions
// count cache reads and writes inside gen_ai.usage.input_tokens; a writer
// that left them out (an input smaller than the cache counts) has them
// added back.
func otelUsage(num map[string]int) *wire.Usage {
	in, okIn := num["gen_ai.usage.input_tokens"]
	out, okOut := num["gen_ai.usage.output_tokens"]
	read := num["gen_ai.usage.cache_read.input_tokens"]
	write := num["gen_ai.usage.cache_creation.input_tokens"]
	if !okIn && !okOut {
		return nil
	}
	if in < read+write {
		in += read + write
	}
	return &wire.Usage{InputTokens: in, OutputTokens: out, CachedTokens: read, CacheWriteTokens: write}
}
