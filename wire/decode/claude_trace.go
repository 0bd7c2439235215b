package decode

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// claude-trace logs: JSONL of {"request": {"url", "method", "body"},
// "response": {"body"} or {"body_raw": "<SSE text>"}} pairs, one exchange per
// line. Exchanges with other endpoints (count_tokens, telemetry) are skipped.

type traceLine struct {
	Request *struct {
		// Timestamp is when the request was sent, Unix seconds
		// (claude-trace's and wirelens proxy's records).
		Timestamp *float64       `json:"timestamp"`
		URL       string         `json:"url"`
		Method    string         `json:"method"`
		Body      jsontext.Value `json:"body"`
		// BodyBase64 is a body wirelens's recorder could not keep as
		// text (bytes that are not UTF-8: capture/line.go writeBody).
		BodyBase64 string `json:"body_base64"`
	} `json:"request"`
	Response *struct {
		Body    jsontext.Value `json:"body"`
		BodyRaw string         `json:"body_raw"`
	} `json:"response"`
}

func decodeClaudeTrace(d *decoder, v jsontext.Value, line int, off int64) {
	var t traceLine
	if err := body.Unmarshal(v, &t); err != nil {
		d.Fail(line, "claude-trace: %s", body.DescribeError(err))
		return
	}
	if t.Request == nil {
		d.Fail(line, "claude-trace: no request in this line")
		return
	}
	ws := strings.EqualFold(t.Request.Method, "WEBSOCKET")
	if t.Request.Method != "" && !strings.EqualFold(t.Request.Method, "POST") && !ws {
		return
	}
	format, model := wire.FormatAuto, ""
	if t.Request.URL != "" {
		var ok bool
		if format, model, ok = EndpointFormat(t.Request.URL); !ok {
			return
		}
	}
	reqBody := t.Request.Body
	if len(reqBody) == 0 && t.Request.BodyBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(t.Request.BodyBase64)
		if err != nil {
			d.Fail(line, "claude-trace: the request's body_base64 is not base64")
			return
		}
		reqBody = jsontext.Value(body.TrimSpace(b))
	}
	if ws {
		// A message sent on a WebSocket (wirelens record): only a
		// response.create is a request to the model; its members are
		// the Responses API's body.
		var head struct {
			Type string `json:"type"`
		}
		if reqBody.Kind() != '{' || body.Unmarshal(reqBody, &head) != nil || head.Type != "response.create" {
			return
		}
	}
	var s *body.Shape
	var err error
	switch {
	case len(reqBody) == 0 || reqBody.Kind() == 'n':
		d.Fail(line, "claude-trace: the request to %s has no recorded body", t.Request.URL)
		return
	case reqBody.Kind() == '"':
		// Some loggers keep the body as the string that was sent.
		var str string
		if err := body.Unmarshal(reqBody, &str); err != nil {
			d.Fail(line, "claude-trace: %s", body.DescribeError(err))
			return
		}
		reqBody = jsontext.Value(body.TrimSpace([]byte(str)))
		s, err = checkObject(reqBody)
	case reqBody.Kind() == '{':
		// Checked with the line: walked once, for detection and decoding.
		s, err = body.WalkShape(reqBody)
	}
	if err != nil {
		d.Fail(line, "claude-trace: request body: %s", body.DescribeError(err))
		return
	}
	if s == nil {
		d.Fail(line, "claude-trace: request body is a JSON %s, not an object", body.KindName(reqBody.Kind()))
		return
	}
	if d.opts.Format != wire.FormatAuto && body.Has(d.opts.Format) {
		format = d.opts.Format
	}
	if format == wire.FormatAuto {
		f, err := body.DetectShape(s, d.detMemo())
		if err != nil {
			d.Fail(line, "claude-trace: request body: %v", err)
			return
		}
		if !body.Has(f) {
			d.Fail(line, "claude-trace: request body is a %s, not a request body", f)
			return
		}
		format = f
	}
	var acc body.UsageAcc
	if t.Response != nil {
		if body.HasValue(t.Response.Body) {
			acc.Read(t.Response.Body)
		}
		if t.Response.BodyRaw != "" {
			acc.Read([]byte(t.Response.BodyRaw))
		}
	}
	endpoint := t.Request.URL
	var sent time.Time
	if ts := t.Request.Timestamp; ts != nil && *ts > 0 && *ts < 1e11 {
		sent = time.Unix(0, int64(*ts*1e9)).UTC()
	}
	d.bodyShape(format, s, line, off, func(r *wire.Request) {
		r.Endpoint = endpoint
		r.At = sent
		r.Offset, r.Length = off, int64(len(v))
		if r.Model == "" {
			r.Model = model
		}
		if r.Model == "" {
			r.Model = acc.Model
		}
		r.Usage = acc.Usage(format)
		r.Verdict = acc.Verdict()
	})
}
