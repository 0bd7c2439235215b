package decode

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// OpenAI Batch files: JSONL, one request a line in the input file
// ({"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}),
// one response a line in the output file ({"id", "custom_id", "response":
// {"status_code", "request_id", "body"}, "error"}). An input line is read
// as a request of the body format its url names, its custom_id in a note.
// An output file holds no request: it is one error, not one a line.

type batchLine struct {
	CustomID string         `json:"custom_id"`
	Method   string         `json:"method"`
	URL      string         `json:"url"`
	Body     jsontext.Value `json:"body"`
	Response jsontext.Value `json:"response"`
	Error    jsontext.Value `json:"error"`
}

// errBatchOutput is the one error of an OpenAI Batch output file.
const errBatchOutput = "an OpenAI Batch output file holds responses, not requests: read the batch's input file (lines of custom_id, method, url and body)"

func decodeOpenAIBatch(d *decoder, v jsontext.Value, line int, off int64) {
	var b batchLine
	if err := body.Unmarshal(v, &b); err != nil {
		d.Fail(line, "OpenAI Batch: %s", body.DescribeError(err))
		return
	}
	// once reports whether what is keyed by k is said for the first time
	// in this input.
	once := func(k string) bool {
		if d.batchSaid[k] {
			return false
		}
		if d.batchSaid == nil {
			d.batchSaid = map[string]bool{}
		}
		d.batchSaid[k] = true
		return true
	}
	switch {
	case !body.HasValue(b.Body) && (body.HasValue(b.Response) || body.HasValue(b.Error)):
		if once("output") {
			d.Fail(0, errBatchOutput)
		}
		return
	case !body.HasValue(b.Body):
		d.Fail(line, "not an OpenAI Batch line (looked for custom_id and body)")
		return
	case b.Method != "" && !strings.EqualFold(b.Method, "POST"):
		d.Fail(line, "OpenAI Batch: request %q is a %s, not a POST", b.CustomID, b.Method)
		return
	}
	format, _, ok := EndpointFormat(b.URL)
	if !ok || format == wire.FormatAnthropic || format == wire.FormatGemini {
		// /v1/embeddings, /v1/completions, /v1/moderations: no prompt of a
		// known body format. A batch has one endpoint: said once.
		if once("url " + b.URL) {
			d.Fail(line, "OpenAI Batch: lines for %q are skipped: only /v1/chat/completions and /v1/responses bodies are read", b.URL)
		}
		return
	}
	if d.opts.Format != wire.FormatAuto && body.Has(d.opts.Format) {
		format = d.opts.Format
	}
	if b.Body.Kind() != '{' {
		d.Fail(line, "OpenAI Batch: the body of request %q is a JSON %s, not an object", b.CustomID, body.KindName(b.Body.Kind()))
		return
	}
	s, err := body.WalkShape(b.Body)
	if err != nil {
		d.Fail(line, "OpenAI Batch: request body: %s", body.DescribeError(err))
		return
	}
	id, endpoint := b.CustomID, b.URL
	d.bodyShape(format, s, line, off, func(r *wire.Request) {
		r.Endpoint = endpoint
		r.Offset, r.Length = off, int64(len(v))
		if id != "" {
			r.Notes = append(r.Notes, "OpenAI Batch custom_id: "+id)
		}
	})
}
