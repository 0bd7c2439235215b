package decode

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// HAR 1.2 exports (browser devtools, mitmproxy, Charles, Proxyman): the POST
// bodies sent to model endpoints become requests, in order, with their
// responses' usage attached. Every other entry is ignored.

type harEntry struct {
	// StartedDateTime is when the request was sent (ISO 8601).
	StartedDateTime string `json:"startedDateTime"`
	Request         struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int         `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// header is the value of the named header, or "".
func header(hs []harHeader, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// EndpointFormat names the body format of a model endpoint URL, and the
// model when the URL carries it (Gemini). ok is false for any other URL.
func EndpointFormat(rawURL string) (f wire.Format, model string, ok bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", false
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/chat/completions") || p == "/chat/completions":
		return wire.FormatOpenAIChat, "", true
	case strings.HasSuffix(p, "/v1/responses") || p == "/responses" || strings.HasSuffix(p, "/openai/responses"):
		return wire.FormatOpenAIResponses, "", true
	case strings.HasSuffix(p, "/v1/messages") || p == "/messages":
		return wire.FormatAnthropic, "", true
	}
	// Amazon Bedrock: /model/<model id>/invoke (and its streaming twin)
	// takes Anthropic's Messages body for Anthropic's models.
	if rest, ok := strings.CutPrefix(p, "/model/"); ok {
		if j := strings.LastIndexByte(rest, '/'); j > 0 {
			id, verb := rest[:j], rest[j+1:]
			if (verb == "invoke" || verb == "invoke-with-response-stream") && strings.Contains(id, "anthropic.") {
				return wire.FormatAnthropic, id, true
			}
		}
		return "", "", false
	}
	// .../models/gemini-2.5-pro:generateContent (also streamGenerateContent);
	// Vertex AI serves Anthropic's models at
	// .../publishers/anthropic/models/claude-...:rawPredict (and streamRawPredict).
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		m := p[:i]
		if j := strings.LastIndexByte(m, '/'); j >= 0 {
			m = m[j+1:]
		}
		switch p[i+1:] {
		case "generateContent", "streamGenerateContent":
			return wire.FormatGemini, m, true
		case "rawPredict", "streamRawPredict":
			if strings.Contains(p, "/publishers/anthropic/") {
				return wire.FormatAnthropic, m, true
			}
		}
	}
	return "", "", false
}

// walkHAR finds log.entries in a HAR document and calls each with every
// entry and its byte offset in v.
func walkHAR(v jsontext.Value, each func(entry jsontext.Value, at int64) bool) error {
	// Over a bytes.Buffer the Decoder reads v in place, not into a copy of
	// the whole document.
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), body.WalkOpts...)
	// into reads object members until name, leaving the Decoder at its value.
	into := func(name string) (bool, error) {
		if _, err := dec.ReadToken(); err != nil { // '{'
			return false, err
		}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return false, err
			}
			if tok.String() == name {
				return true, nil
			}
			if err := dec.SkipValue(); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	if ok, err := into("log"); !ok || err != nil {
		return err
	}
	if dec.PeekKind() != '{' {
		return fmt.Errorf("log is a JSON %s, not an object", body.KindName(dec.PeekKind()))
	}
	if ok, err := into("entries"); !ok || err != nil {
		return err
	}
	if dec.PeekKind() != '[' {
		return fmt.Errorf("log.entries is a JSON %s, not an array", body.KindName(dec.PeekKind()))
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != ']' {
		start := dec.InputOffset()
		e, err := dec.ReadValue()
		if err != nil {
			return err
		}
		at := start + int64(bytes.IndexByte(v[start:], e[0]))
		if !each(e, at) {
			return nil
		}
	}
	return nil
}

func decodeHAR(d *decoder, v jsontext.Value, line int, off int64) {
	n, models := 0, 0 // entries, and POSTs to model endpoints among them
	err := walkHAR(v, func(raw jsontext.Value, at int64) bool {
		n++
		eline := line + lineOf(v, int(at))
		if raw.Kind() != '{' {
			d.Fail(eline, "HAR entry %d is a JSON %s, not an object", n, body.KindName(raw.Kind()))
			return !d.stop
		}
		var e harEntry
		if err := body.Unmarshal(raw, &e); err != nil {
			d.Fail(eline, "HAR entry %d: %s", n, body.DescribeError(err))
			return !d.stop
		}
		if !strings.EqualFold(e.Request.Method, "POST") {
			return true
		}
		format, model, ok := EndpointFormat(e.Request.URL)
		if !ok {
			return true
		}
		models++
		if d.opts.Format != wire.FormatAuto && body.Has(d.opts.Format) {
			format = d.opts.Format
		}
		if e.Request.PostData == nil || e.Request.PostData.Text == "" {
			d.Fail(eline, "HAR entry %d: POST %s has no recorded body", n, e.Request.URL)
			return !d.stop
		}
		reqBody, err := harText(e.Request.PostData.Text, e.Request.PostData.Encoding)
		if err != nil {
			d.Fail(eline, "HAR entry %d: request body: %v", n, err)
			return !d.stop
		}
		if reqBody, _, err = d.inflated.Decompress(reqBody, header(e.Request.Headers, "Content-Encoding")); err != nil {
			d.Fail(eline, "HAR entry %d: request body is %v", n, err)
			return !d.stop
		}
		reqBody = body.TrimSpace(reqBody)
		s, err := checkObject(reqBody)
		if err != nil {
			d.Fail(eline, "HAR entry %d: request body: %s", n, body.DescribeError(err))
			return !d.stop
		}
		if s == nil {
			d.Fail(eline, "HAR entry %d: request body is a JSON %s, not an object", n, body.KindName(jsontext.Value(reqBody).Kind()))
			return !d.stop
		}
		var acc body.UsageAcc
		resp, why := harResponse(&e, &d.inflated)
		if why == "" {
			acc.Read(resp)
		}
		endpoint := e.Request.URL
		sent := parseTime(e.StartedDateTime)
		d.bodyShape(format, s, eline, off+at, func(r *wire.Request) {
			r.Endpoint = endpoint
			r.At = sent
			r.Offset, r.Length = off+at, int64(len(raw))
			if r.Model == "" {
				r.Model = model
			}
			if r.Model == "" {
				r.Model = acc.Model
			}
			r.Usage = acc.Usage(format)
			r.Verdict = acc.Verdict()
			switch {
			case r.Usage != nil:
			case why != "":
				r.Notes = append(r.Notes, why)
			case e.Response.Status >= 400:
				r.Notes = append(r.Notes, "response is HTTP "+strconv.Itoa(e.Response.Status)+", with no usage")
			default:
				r.Notes = append(r.Notes, "response body carries no usage")
			}
		})
		return !d.stop
	})
	if err != nil {
		d.Fail(line+lineOfErr(v, err), "HAR: %s", body.DescribeError(err))
		return
	}
	switch {
	case n == 0:
		d.Fail(line, "HAR has no log.entries")
	case models == 0:
		// Nothing to show is said, as for an empty array of bodies.
		d.Fail(line, "HAR has %d entries, none a POST to a model endpoint (.../chat/completions, .../responses, .../messages, ...:generateContent)", n)
	}
}

// harResponse is the body of an entry's response, decoded and
// decompressed, or why it could not be read: the request's note.
func harResponse(e *harEntry, inflated *body.Inflated) (b []byte, why string) {
	c := &e.Response.Content
	if c.Text == "" {
		return nil, "response body not recorded"
	}
	b, err := harText(c.Text, c.Encoding)
	if err != nil {
		return nil, "response body could not be read (" + err.Error() + "): usage not read"
	}
	b, _, err = inflated.Decompress(b, header(e.Response.Headers, "Content-Encoding"))
	if err != nil {
		return nil, "response body is " + err.Error() + ": usage not read"
	}
	return b, ""
}

// harText decodes a HAR text member with its encoding. Polly.js writes a
// binary body (a gzip stream, say) as a JSON array of base64 chunks, each
// encoded on its own; '[' is no base64 character, so the two are told
// apart by it.
func harText(text, encoding string) ([]byte, error) {
	if !strings.EqualFold(encoding, "base64") {
		return []byte(text), nil
	}
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "[") {
		b, err := base64.StdEncoding.DecodeString(t)
		if err != nil {
			return nil, fmt.Errorf("invalid base64: %v", err)
		}
		return b, nil
	}
	var chunks []string
	if err := body.Unmarshal([]byte(t), &chunks); err != nil {
		return nil, fmt.Errorf("base64 chunks (Polly.js): %s", body.DescribeError(err))
	}
	var out []byte
	for i, c := range chunks {
		b, err := base64.StdEncoding.AppendDecode(out, []byte(c))
		if err != nil {
			return nil, fmt.Errorf("base64 chunk %d (Polly.js): invalid base64: %v", i+1, err)
		}
		out = b
	}
	return out, nil
}

// parseTime reads an RFC 3339 (ISO 8601) time, the zero time when s is not
// one.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
