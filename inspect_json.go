package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// jsonOut writes the fixed shape of `inspect --json` straight into one
// buffer, reused from request to request, as encoding/json indents it
// (two spaces a level after a prefix) and scan.SafeJSON makes it safe: no
// indent pass over what was written, and a string is escaped only when
// it holds something other than printable ASCII (a quote, a backslash, a
// control, any other code point), through the same encoder and SafeJSON.
// A test compares it with that path on every fixture.
type jsonOut struct {
	buf    []byte
	prefix string
	depth  int
	enc    bytes.Buffer // the slow path of str
	encj   *json.Encoder
	// share masks every string written (redact.Share): --redact applies to
	// the model, names, labels and notes as well as to segment text.
	share bool
}

func (o *jsonOut) newline() {
	o.buf = append(o.buf, '\n')
	o.buf = append(o.buf, o.prefix...)
	for range o.depth {
		o.buf = append(o.buf, "  "...)
	}
}

// open starts an object or array ('{' or '['); close ends it; a member or
// element starts with key or elem.
func (o *jsonOut) open(c byte) { o.buf = append(o.buf, c); o.depth++ }

func (o *jsonOut) close(c byte) {
	o.depth--
	o.newline()
	o.buf = append(o.buf, c)
}

// key starts a member: a comma after the one before, a new line, the name.
func (o *jsonOut) key(first bool, name string) {
	if !first {
		o.buf = append(o.buf, ',')
	}
	o.newline()
	o.buf = append(o.buf, '"')
	o.buf = append(o.buf, name...)
	o.buf = append(o.buf, `": `...)
}

// elem starts an array element.
func (o *jsonOut) elem(first bool) {
	if !first {
		o.buf = append(o.buf, ',')
	}
	o.newline()
}

func (o *jsonOut) int(n int) { o.buf = strconv.AppendInt(o.buf, int64(n), 10) }

func (o *jsonOut) bool(b bool) { o.buf = strconv.AppendBool(o.buf, b) }

// str writes s as a JSON string.
func (o *jsonOut) str(s string) {
	if o.share {
		s = redact.Share(s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			o.strSlow(s)
			return
		}
	}
	o.buf = append(o.buf, '"')
	o.buf = append(o.buf, s...)
	o.buf = append(o.buf, '"')
}

// strSlow writes s as encoding/json and scan.SafeJSON write it.
func (o *jsonOut) strSlow(s string) {
	if o.encj == nil {
		o.encj = json.NewEncoder(&o.enc)
		o.encj.SetEscapeHTML(false)
	}
	o.enc.Reset()
	o.encj.Encode(s) // a string always encodes
	o.buf = append(o.buf, scan.SafeJSON(bytes.TrimSuffix(o.enc.Bytes(), []byte("\n")))...)
}

// inspectJSONOut is the buffer writeInspectRequestJSON reuses.
var inspectJSONOut = &jsonOut{prefix: "    "}

// writeInspectRequestJSON writes one element of the "requests" array,
// indented as writeJSON would indent the whole document.
func writeInspectRequestJSON(w io.Writer, r *wire.Request, comma, redacted bool) error {
	o := inspectJSONOut
	o.buf, o.depth = o.buf[:0], 0
	o.share = redacted
	defer func() { o.share = false }()
	if comma {
		o.buf = append(o.buf, ',')
	}
	o.buf = append(o.buf, "\n    "...)
	o.request(r, redacted)
	_, err := w.Write(o.buf)
	if cap(o.buf) > 4<<20 {
		o.buf = nil // a huge request's buffer is not held
	}
	return err
}

// request writes the shape of inspectRequestJSON; with redacted, each
// segment carries its text with every secret masked.
func (o *jsonOut) request(r *wire.Request, redacted bool) {
	o.open('{')
	o.key(true, "source")
	o.str(r.Source)
	o.key(false, "index")
	o.int(r.Index)
	if r.Line != 0 {
		o.key(false, "line")
		o.int(r.Line)
	}
	o.key(false, "format")
	o.str(string(r.Format))
	o.key(false, "model")
	o.str(r.Model)
	if r.Endpoint != "" {
		o.key(false, "endpoint")
		o.str(r.Endpoint)
	}
	o.key(false, "tokens")
	o.int(r.Tokens())
	o.key(false, "bytes")
	o.int(r.Bytes())
	o.key(false, "segments")
	if len(r.Segments) == 0 {
		o.buf = append(o.buf, "[]"...)
	} else {
		o.open('[')
		for i := range r.Segments {
			o.elem(i == 0)
			o.segment(&r.Segments[i], r.Breakpoint(i), redacted)
		}
		o.close(']')
	}
	if u := r.Usage; u != nil {
		o.key(false, "usage")
		o.open('{')
		o.key(true, "input_tokens")
		o.int(u.InputTokens)
		o.key(false, "cached_tokens")
		o.int(u.CachedTokens)
		o.key(false, "cache_write_tokens")
		o.int(u.CacheWriteTokens)
		if u.OutputTokens != 0 {
			o.key(false, "output_tokens")
			o.int(u.OutputTokens)
		}
		if u.CacheWrite1hTokens != 0 {
			o.key(false, "cache_write_1h_tokens")
			o.int(u.CacheWrite1hTokens)
		}
		if u.CachedUnknown {
			o.key(false, "cached_unknown")
			o.bool(true)
		}
		o.close('}')
	}
	if len(r.Notes) > 0 {
		o.key(false, "notes")
		o.open('[')
		for i, n := range r.Notes {
			o.elem(i == 0)
			o.str(n)
		}
		o.close(']')
	}
	o.close('}')
}

// segment writes the shape of inspectSegmentJSON; bp is set when s carries
// a cache breakpoint.
func (o *jsonOut) segment(s *wire.Segment, bp, redacted bool) {
	o.open('{')
	o.key(true, "id")
	o.str(s.ID)
	o.key(false, "channel")
	o.str(string(s.Channel))
	o.key(false, "role")
	o.str(s.Role)
	o.key(false, "kind")
	o.str(string(s.Kind))
	o.key(false, "trust")
	o.str(string(s.Trust))
	o.key(false, "envelope")
	o.str(s.Envelope)
	if s.Label != "" {
		o.key(false, "label")
		o.str(s.Label)
	}
	if s.Server != "" {
		o.key(false, "server")
		o.str(s.Server)
	}
	o.key(false, "bytes")
	o.int(len(s.Text))
	o.key(false, "tokens")
	o.int(s.Tokens())
	if bp {
		o.key(false, "cache_breakpoint")
		o.bool(true)
	}
	o.key(false, "escapes")
	if len(s.Escapes) == 0 {
		o.buf = append(o.buf, "[]"...)
	} else {
		o.open('[')
		for i := range s.Escapes {
			e := &s.Escapes[i]
			o.elem(i == 0)
			o.open('{')
			o.key(true, "rule")
			o.str(e.Rule)
			o.key(false, "offset")
			o.int(e.Offset)
			o.key(false, "text")
			o.str(e.Text)
			if e.Original != "" {
				o.key(false, "original")
				o.str(e.Original)
			}
			o.close('}')
		}
		o.close(']')
	}
	if redacted {
		o.key(false, "text")
		o.str(s.Text) // masked by str (redact.Share)
	}
	o.close('}')
}
