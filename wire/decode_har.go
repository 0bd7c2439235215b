package wire

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// HAR 1.2 exports (browser devtools, mitmproxy, Charles, Proxyman): the POST
// bodies sent to model endpoints become requests, in order, with their
// responses' usage attached. Every other entry is ignored.

func init() { containerDecoders[FormatHAR] = decodeHAR }

type decHAREntry struct {
	Request struct {
		Method   string `json:"method"`
		URL      string `json:"url"`
		PostData *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int `json:"status"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

// EndpointFormat names the body format of a model endpoint URL, and the
// model when the URL carries it (Gemini). ok is false for any other URL.
func EndpointFormat(rawURL string) (f Format, model string, ok bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", false
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/chat/completions") || p == "/chat/completions":
		return FormatOpenAIChat, "", true
	case strings.HasSuffix(p, "/v1/responses") || p == "/responses" || strings.HasSuffix(p, "/openai/responses"):
		return FormatOpenAIResponses, "", true
	case strings.HasSuffix(p, "/v1/messages") || p == "/messages":
		return FormatAnthropic, "", true
	}
	// Amazon Bedrock: /model/<model id>/invoke (and its streaming twin)
	// takes Anthropic's Messages body for Anthropic's models.
	if rest, ok := strings.CutPrefix(p, "/model/"); ok {
		if j := strings.LastIndexByte(rest, '/'); j > 0 {
			id, verb := rest[:j], rest[j+1:]
			if (verb == "invoke" || verb == "invoke-with-response-stream") && strings.Contains(id, "anthropic.") {
				return FormatAnthropic, id, true
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
			return FormatGemini, m, true
		case "rawPredict", "streamRawPredict":
			if strings.Contains(p, "/publishers/anthropic/") {
				return FormatAnthropic, m, true
			}
		}
	}
	return "", "", false
}

// decHARWalk finds log.entries in a HAR document and calls each with every
// entry and its byte offset in v.
func decHARWalk(v jsontext.Value, each func(entry jsontext.Value, at int64) bool) error {
	// Over a bytes.Buffer the decoder reads v in place, not into a copy of
	// the whole document.
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), decWalkOpts...)
	// into reads object members until name, leaving the decoder at its value.
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
		return fmt.Errorf("log is a JSON %s, not an object", kindName(dec.PeekKind()))
	}
	if ok, err := into("entries"); !ok || err != nil {
		return err
	}
	if dec.PeekKind() != '[' {
		return fmt.Errorf("log.entries is a JSON %s, not an array", kindName(dec.PeekKind()))
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
	err := decHARWalk(v, func(raw jsontext.Value, at int64) bool {
		n++
		eline := line + lineOf(v, int(at))
		if raw.Kind() != '{' {
			d.fail(eline, "HAR entry %d is a JSON %s, not an object", n, kindName(raw.Kind()))
			return !d.stop
		}
		var e decHAREntry
		if err := unmarshal(raw, &e); err != nil {
			d.fail(eline, "HAR entry %d: %s", n, describeJSONError(err))
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
		if d.opts.Format != FormatAuto && bodyDecoders[d.opts.Format] != nil {
			format = d.opts.Format
		}
		if e.Request.PostData == nil || e.Request.PostData.Text == "" {
			d.fail(eline, "HAR entry %d: POST %s has no recorded body", n, e.Request.URL)
			return !d.stop
		}
		body, err := decHARText(e.Request.PostData.Text, e.Request.PostData.Encoding)
		if err != nil {
			d.fail(eline, "HAR entry %d: request body: %v", n, err)
			return !d.stop
		}
		body = decTrimSpace(body)
		s, err := decCheckObject(body)
		if err != nil {
			d.fail(eline, "HAR entry %d: request body: %s", n, describeJSONError(err))
			return !d.stop
		}
		if s == nil {
			d.fail(eline, "HAR entry %d: request body is a JSON %s, not an object", n, kindName(jsontext.Value(body).Kind()))
			return !d.stop
		}
		var acc decUsageAcc
		if resp, err := decHARText(e.Response.Content.Text, e.Response.Content.Encoding); err == nil {
			acc.read(resp)
		}
		endpoint := e.Request.URL
		d.bodyShape(format, s, eline, off+at, func(r *Request) {
			r.Endpoint = endpoint
			r.Offset, r.Length = off+at, int64(len(raw))
			if r.Model == "" {
				r.Model = model
			}
			if r.Model == "" {
				r.Model = acc.model
			}
			r.Usage = acc.usage(format)
		})
		return !d.stop
	})
	if err != nil {
		d.fail(line+lineOfErr(v, err), "HAR: %s", describeJSONError(err))
		return
	}
	switch {
	case n == 0:
		d.fail(line, "HAR has no log.entries")
	case models == 0:
		// Nothing to show is said, as for an empty array of bodies.
		d.fail(line, "HAR has %d entries, none a POST to a model endpoint (.../chat/completions, .../responses, .../messages, ...:generateContent)", n)
	}
}

// decHARText decodes a HAR text member with its encoding.
func decHARText(text, encoding string) ([]byte, error) {
	if strings.EqualFold(encoding, "base64") {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("invalid base64: %v", err)
		}
		return b, nil
	}
	return []byte(text), nil
}
