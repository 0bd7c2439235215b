package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/redact"
)

// ErrNotOnDisk is the error of ReadBody for a request whose body cannot be
// read again: it came from standard input, was built rather than recorded,
// or its place in the source is unknown.
var ErrNotOnDisk = errors.New("the body is not on disk")

// ReadBody reads back from Source the bytes r was decoded from: the Length
// bytes at Offset, which are the body (for a HAR export or a trace, the
// entry or line that holds it). Bytes that are one JSON string (a body
// logged as the text that was sent) are returned unquoted. Credentials in
// them (headers, cookies, URLs, keys) are masked (redact.Body); everything
// else comes back as recorded, byte for byte. It fails with
// ErrNotOnDisk when there is nothing on disk to read, and with an error
// naming the file when the bytes are more than limit or the file no longer
// holds them. The file is opened by wire.OpenInput: a source that is no
// longer a regular file is refused, never waited on.
func ReadBody(r *wire.Request, limit int64) ([]byte, error) {
	if r.Source == "" || r.Source == "-" || r.Offset < 0 || r.Length <= 0 {
		return nil, ErrNotOnDisk
	}
	if r.Length > limit {
		return nil, fmt.Errorf("%s: the body is %d bytes, more than the %d read back", r.Source, r.Length, limit)
	}
	f, err := wire.OpenInput(r.Source, wire.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, r.Length)
	n, err := f.ReadAt(buf, r.Offset)
	if n < len(buf) {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("%s: the file ends before the body's bytes %d-%d (changed since it was read?)", r.Source, r.Offset, r.Offset+r.Length)
		}
		return nil, err
	}
	if t := bytes.TrimSpace(buf); len(t) > 0 && t[0] == '"' {
		var inner string
		if json.Unmarshal(t, &inner) == nil {
			buf = []byte(inner)
		}
	}
	return redact.Body(buf), nil
}

// SentBody is the body of r as it was sent: ReadBody's bytes, and for a
// HAR entry its request's postData decoded (base64, Polly.js chunks) and
// decompressed as the decoder read it, for a claude-trace line its
// request's body. what says which it is ("" for the bytes themselves).
// Credentials are masked as ReadBody masks them.
func SentBody(r *wire.Request, limit int64) (b []byte, what string, err error) {
	raw, err := ReadBody(r, limit)
	if err != nil {
		return nil, "", err
	}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return raw, "", nil
	}
	var entry struct {
		Request *struct {
			// HAR's [{"name", "value"}], a trace's {"name": "value"}
			Headers  json.RawMessage `json:"headers"`
			PostData *struct {
				Text     string `json:"text"`
				Encoding string `json:"encoding"`
			} `json:"postData"`
			Body json.RawMessage `json:"body"`
		} `json:"request"`
	}
	if json.Unmarshal(t, &entry) != nil || entry.Request == nil {
		return raw, "", nil
	}
	switch rq := entry.Request; {
	case rq.PostData != nil:
		b, err := harText(rq.PostData.Text, rq.PostData.Encoding)
		if err != nil {
			return nil, "", fmt.Errorf("%s: the HAR entry's request body: %v", r.Source, err)
		}
		if b, _, err = body.Decompress(b, headerValue(responseHeaders(rq.Headers), "Content-Encoding")); err != nil {
			return nil, "", fmt.Errorf("%s: the HAR entry's request body is %v", r.Source, err)
		}
		return redact.Body(b), "the HAR entry's request.postData", nil
	case len(rq.Body) > 0 && !bytes.Equal(rq.Body, []byte("null")):
		b := []byte(rq.Body)
		var s string
		if json.Unmarshal(b, &s) == nil {
			b = []byte(s)
		}
		return redact.Body(b), "the trace line's request.body", nil
	}
	return raw, "", nil
}
