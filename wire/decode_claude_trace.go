package wire

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// claude-trace logs: JSONL of {"request": {"url", "method", "body"},
// "response": {"body"} or {"body_raw": "<SSE text>"}} pairs, one exchange per
// line. Exchanges with other endpoints (count_tokens, telemetry) are skipped.

func init() { containerDecoders[FormatClaudeTrace] = decodeClaudeTrace }

type decTraceLine struct {
	Request *struct {
		URL    string         `json:"url"`
		Method string         `json:"method"`
		Body   jsontext.Value `json:"body"`
	} `json:"request"`
	Response *struct {
		Body    jsontext.Value `json:"body"`
		BodyRaw string         `json:"body_raw"`
	} `json:"response"`
}

func decodeClaudeTrace(d *decoder, v jsontext.Value, line int, off int64) {
	var t decTraceLine
	if err := unmarshal(v, &t); err != nil {
		d.fail(line, "claude-trace: %s", describeJSONError(err))
		return
	}
	if t.Request == nil {
		d.fail(line, "claude-trace: no request in this line")
		return
	}
	if t.Request.Method != "" && !strings.EqualFold(t.Request.Method, "POST") {
		return
	}
	format, model := FormatAuto, ""
	if t.Request.URL != "" {
		var ok bool
		if format, model, ok = EndpointFormat(t.Request.URL); !ok {
			return
		}
	}
	body := t.Request.Body
	var s *decShape
	var err error
	switch {
	case len(body) == 0 || body.Kind() == 'n':
		d.fail(line, "claude-trace: the request to %s has no recorded body", t.Request.URL)
		return
	case body.Kind() == '"':
		// Some loggers keep the body as the string that was sent.
		var str string
		if err := unmarshal(body, &str); err != nil {
			d.fail(line, "claude-trace: %s", describeJSONError(err))
			return
		}
		body = jsontext.Value(decTrimSpace([]byte(str)))
		s, err = decCheckObject(body)
	case body.Kind() == '{':
		// Checked with the line: walked once, for detection and decoding.
		s, err = decWalkShape(body)
	}
	if err != nil {
		d.fail(line, "claude-trace: request body: %s", describeJSONError(err))
		return
	}
	if s == nil {
		d.fail(line, "claude-trace: request body is a JSON %s, not an object", kindName(body.Kind()))
		return
	}
	if d.opts.Format != FormatAuto && bodyDecoders[d.opts.Format] != nil {
		format = d.opts.Format
	}
	if format == FormatAuto {
		f, err := detectShape(s, d.detMemo())
		if err != nil {
			d.fail(line, "claude-trace: request body: %v", err)
			return
		}
		if bodyDecoders[f] == nil {
			d.fail(line, "claude-trace: request body is a %s, not a request body", f)
			return
		}
		format = f
	}
	var acc decUsageAcc
	if t.Response != nil {
		if decHasValue(t.Response.Body) {
			acc.read(t.Response.Body)
		}
		if t.Response.BodyRaw != "" {
			acc.read([]byte(t.Response.BodyRaw))
		}
	}
	endpoint := t.Request.URL
	d.bodyShape(format, s, line, off, func(r *Request) {
		r.Endpoint = endpoint
		r.Offset, r.Length = off, int64(len(v))
		if r.Model == "" {
			r.Model = model
		}
		if r.Model == "" {
			r.Model = acc.model
		}
		r.Usage = acc.usage(format)
	})
}
