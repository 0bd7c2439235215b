package capture

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire/capture/validjson"
	"github.com/wirelens/wirelens/wire/redact"
)

// Line is an exchange as one line of the recording, in the claude-trace
// shape wire/decode reads: {"request": {"timestamp", "method", "url",
// "headers", "body"}, "response": {"timestamp", "status_code", "headers",
// "body" | "body_raw"}, "logged_at", "wirelens": {...}}. Credentials in the
// URL and headers are replaced by hints (redact.URLHint, redact.Header), and
// the credential-named members of a JSON request body by the mask
// (redact.Members: api_key, password, client_secret, ...). A
// body that is JSON is kept as its value (white space outside strings
// dropped, so that it fits on the line); other text is kept as a string; bytes
// that are not UTF-8 as "body_base64".
func Line(x *Exchange) []byte {
	var b bytes.Buffer
	if err := writeLine(&b, x, nil); err != nil {
		// Only a spool file that cannot be read back: the line says so.
		b.Reset()
		writeLine(&b, bodiless(x, err), nil)
	}
	return b.Bytes()
}

// bodiless is x without its bodies, its error saying why (err: a spool file
// that could not be read back).
func bodiless(x *Exchange, err error) *Exchange {
	y := *x
	y.ReqBody, y.RespBody, y.reqSpool, y.respSpool = nil, nil, nil, nil
	y.Err = join(y.Err, "bodies not recorded: "+err.Error())
	return &y
}

// writeLine writes x's line to w as it goes: a body in a spool file is read
// back from it a piece at a time, escaped as it is written, never held.
// masks remembers header values masked before (nil: none).
func writeLine(w io.Writer, x *Exchange, masks *headerMasks) error {
	req, resp := bodyOf(x.ReqBody, x.reqSpool), bodyOf(x.RespBody, x.respSpool)
	errText := x.Err
	for _, c := range []struct {
		what string
		b    keptBody
	}{{"request", req}, {"response", resp}} {
		if c.b.sp != nil && c.b.sp.err != nil {
			errText = join(errText, fmt.Sprintf("%s body cut: %d bytes recorded, then its spool file failed: %v", c.what, c.b.sp.n, c.b.sp.err))
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"request":{"timestamp":`)
	b.WriteString(stamp(x.Start))
	b.WriteString(`,"method":`)
	quote(&b, x.Method)
	b.WriteString(`,"url":`)
	quote(&b, redact.URLHint(x.URL))
	b.WriteString(`,"headers":`)
	masks.headers(&b, x.ReqHeader)
	if err := writeBody(w, &b, req, false, true); err != nil {
		return err
	}
	b.WriteString(`},"response":{"timestamp":`)
	b.WriteString(stamp(x.End))
	fmt.Fprintf(&b, `,"status_code":%d,"headers":`, x.Status)
	masks.headers(&b, x.RespHeader)
	sse := strings.HasPrefix(x.RespHeader.Get("Content-Type"), "text/event-stream") || x.WebSocket != nil
	if err := writeBody(w, &b, resp, sse, false); err != nil {
		return err
	}
	b.WriteString(`},"logged_at":`)
	quote(&b, x.End.UTC().Format(time.RFC3339Nano))
	fmt.Fprintf(&b, `,"wirelens":{"mock":%t,"duration_ms":%.3f`, x.Mock, float64(x.End.Sub(x.Start).Microseconds())/1000)
	if ws := x.WebSocket; ws != nil {
		fmt.Fprintf(&b, `,"websocket":{"connection":%d,"message":%d}`, ws.Conn, ws.Message)
	}
	if errText != "" {
		b.WriteString(`,"error":`)
		quote(&b, redact.Text(errText))
	}
	b.WriteString("}}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// keptBody is a kept body: in memory, or in a spool file.
type keptBody struct {
	mem []byte
	sp  *spool
}

func bodyOf(mem []byte, sp *spool) keptBody {
	if sp != nil {
		sp.finish()
	}
	return keptBody{mem, sp}
}

func (s keptBody) size() int64 {
	if s.sp != nil {
		return s.sp.n
	}
	return int64(len(s.mem))
}

// reader reads the bytes [lo, hi) of the body.
func (s keptBody) reader(lo, hi int64) io.Reader {
	if s.sp != nil {
		return s.sp.reader(lo, hi)
	}
	return bytes.NewReader(s.mem[lo:hi])
}

// facts are what decides how a body is written.
type facts struct {
	lo, hi int64 // the body without the white space around it (as bytes.TrimSpace)
	first  byte  // the byte at lo
	crlf   bool  // a CR or LF between lo and hi
	utf8   bool  // the body is UTF-8
	quoted int64 // its length quoted (quotedLen)
}

func (s keptBody) facts() (facts, error) {
	if s.sp == nil {
		t := bytes.TrimSpace(s.mem)
		lo := int64(len(s.mem) - len(bytes.TrimLeftFunc(s.mem, unicode.IsSpace)))
		// utf8 and quoted are left for text (textFacts): a JSON body does
		// not need them.
		f := facts{lo: lo, hi: lo + int64(len(t)), crlf: lineEnd(t)}
		if len(t) > 0 {
			f.first = t[0]
		}
		return f, nil
	}
	return scanFacts(s.reader(0, s.size()))
}

// lineEnd reports whether b holds a CR or an LF (bytes.IndexByte's
// vector search, twice: bytes.ContainsAny goes a byte at a time, a tenth
// of the proxy's CPU on 40 KB bodies).
func lineEnd(b []byte) bool {
	return bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0
}

// scanFacts reads the facts of a body from r, a piece at a time.
func scanFacts(r io.Reader) (facts, error) {
	f := facts{utf8: true, quoted: 2, lo: -1}
	buf := make([]byte, 64<<10)
	var pos int64 // the offset of buf[0]
	nl := false   // a line end after lo, inside the body if anything but white space follows
	carry := 0
	for {
		k, err := io.ReadFull(r, buf[carry:])
		end := carry + k
		f.quoted += int64(quotedLen(buf[carry:end])) - 2
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return f, err
		}
		i := 0
		for i < end {
			c := buf[i]
			at := pos + int64(i)
			if c < utf8.RuneSelf {
				if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
					if (c == '\n' || c == '\r') && f.lo >= 0 {
						nl = true
					}
				} else {
					if f.lo < 0 {
						f.lo, f.first = at, c
					}
					f.hi = at + 1
					f.crlf = f.crlf || nl
				}
				i++
				continue
			}
			if !eof && !utf8.FullRune(buf[i:end]) {
				break // the rest of the rune is in the next read
			}
			ru, size := utf8.DecodeRune(buf[i:end])
			if ru == utf8.RuneError && size == 1 {
				f.utf8 = false
			}
			if !unicode.IsSpace(ru) {
				if f.lo < 0 {
					f.lo, f.first = at, c
				}
				f.hi = at + int64(size)
				f.crlf = f.crlf || nl
			}
			i += size
		}
		carry = copy(buf, buf[i:end])
		pos += int64(i)
		if eof {
			break
		}
	}
	if f.lo < 0 {
		f.lo, f.hi = 0, 0
	}
	return f, nil
}

// writeBody writes ,"body": (JSON, or a request's text), ,"body_raw": (a
// response's text; always for an event stream) or ,"body_base64": (bytes
// that are not UTF-8, or text that quoting would make larger than base64),
// or nothing for an empty body: the key after what b holds, then the value,
// to w. b is left empty.
func writeBody(w io.Writer, b *bytes.Buffer, src keptBody, stream, request bool) error {
	n := src.size()
	if n == 0 {
		return nil
	}
	f, err := src.facts()
	if err != nil {
		return err
	}
	open := f.hi > f.lo && (f.first == '{' || f.first == '[')
	if !stream && open && src.validJSON(f) {
		b.WriteString(`,"body":`)
		if err := flush(w, b); err != nil {
			return err
		}
		return src.writeJSON(w, f, request)
	}
	if s := src; s.sp == nil {
		f.utf8, f.quoted = utf8.Valid(s.mem), int64(quotedLen(s.mem))
	}
	if f.utf8 && f.quoted <= int64(base64.StdEncoding.EncodedLen(int(n)))+2 {
		// Text, unless escaping it would write more than base64 does (a
		// control byte is six bytes quoted): the line stays within 4/3 of
		// the body.
		key := `,"body":`
		if !request && (stream || !open) {
			// Text the proxy answered (an event stream, an error page).
			key = `,"body_raw":`
		}
		b.WriteString(key)
		if err := flush(w, b); err != nil {
			return err
		}
		if src.sp == nil {
			return writeQuotedBytes(w, src.mem)
		}
		return writeQuoted(w, src.reader(0, n))
	}
	b.WriteString(`,"body_base64":"`)
	if err := flush(w, b); err != nil {
		return err
	}
	enc := base64.NewEncoder(base64.StdEncoding, w)
	if _, err := io.Copy(enc, src.reader(0, n)); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err = io.WriteString(w, `"`)
	return err
}

func flush(w io.Writer, b *bytes.Buffer) error {
	_, err := w.Write(b.Bytes())
	b.Reset()
	return err
}

// validJSON reports whether the body between f.lo and f.hi is one JSON
// value (jsontext's IsValid: UTF-8, names unique), read a token at a time
// from a spool file. In memory validjson answers first, where it is sure
// (a 40 KB request: 33 µs instead of 78, BenchmarkSure).
func (s keptBody) validJSON(f facts) bool {
	if s.sp == nil {
		t := s.mem[f.lo:f.hi]
		return validjson.Sure(t) || jsontext.Value(t).IsValid()
	}
	dec := jsontext.NewDecoder(s.reader(f.lo, f.hi))
	if dec.SkipValue() != nil {
		return false
	}
	_, err := dec.ReadToken()
	return err == io.EOF
}

// writeJSON writes the JSON body between f.lo and f.hi, a request's
// credential-named members masked (redact.Members, redact.MemberEdits),
// white space outside strings dropped if it holds a line end.
func (s keptBody) writeJSON(w io.Writer, f facts, request bool) error {
	if s.sp == nil {
		t := s.mem[f.lo:f.hi]
		if request {
			t = redact.Members(t)
		}
		if !f.crlf {
			_, err := w.Write(t)
			return err
		}
		return copyJSON(w, bytes.NewReader(t), nil, true)
	}
	var edits []redact.Edit
	if request {
		var err error
		if edits, err = redact.MemberEdits(s.reader(f.lo, f.hi)); err != nil {
			return err
		}
	}
	return copyJSON(w, s.reader(f.lo, f.hi), edits, f.crlf)
}

// copyJSON copies the JSON read from r to w with the edits applied (in
// order, none inside another, offsets in r), and, when compact, white space
// outside strings dropped.
func copyJSON(w io.Writer, r io.Reader, edits []redact.Edit, compact bool) error {
	if len(edits) == 0 && !compact {
		_, err := io.Copy(w, r)
		return err
	}
	buf := make([]byte, 64<<10)
	out := make([]byte, 0, 64<<10)
	var pos int64
	skipTo := int64(0)
	inStr, esc := false, false
	for {
		k, err := r.Read(buf)
		for i, c := range buf[:k] {
			at := pos + int64(i)
			if at < skipTo {
				continue
			}
			if len(edits) > 0 && at == edits[0].Start {
				out = append(out, edits[0].With...)
				skipTo = edits[0].End
				edits = edits[1:]
				continue
			}
			if compact {
				switch {
				case inStr && esc:
					esc = false
				case inStr && c == '\\':
					esc = true
				case inStr && c == '"':
					inStr = false
				case inStr:
				case c == '"':
					inStr = true
				case c == ' ' || c == '\t' || c == '\n' || c == '\r':
					continue
				}
			}
			out = append(out, c)
			if len(out) >= 64<<10 {
				if _, werr := w.Write(out); werr != nil {
					return werr
				}
				out = out[:0]
			}
		}
		pos += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(out)
	return err
}

// writeQuoted writes the UTF-8 text read from r as a JSON string, quoted a
// piece at a time (each cut at a rune's end).
func writeQuoted(w io.Writer, r io.Reader) error {
	if _, err := io.WriteString(w, `"`); err != nil {
		return err
	}
	buf := make([]byte, 64<<10)
	var q []byte
	carry := 0
	for {
		k, err := io.ReadFull(r, buf[carry:])
		end := carry + k
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		cut := end
		if !eof {
			cut = runeEnd(buf[:end])
		}
		q, _ = jsontext.AppendQuote(q[:0], buf[:cut])
		if _, werr := w.Write(q[1 : len(q)-1]); werr != nil {
			return werr
		}
		carry = copy(buf, buf[cut:end])
		if eof {
			break
		}
	}
	_, err := io.WriteString(w, `"`)
	return err
}

// writeQuotedBytes is writeQuoted for a body in memory.
func writeQuotedBytes(w io.Writer, b []byte) error {
	qp := quoteBufs.Get().(*[]byte)
	defer quoteBufs.Put(qp)
	q := append((*qp)[:0], '"')
	for len(b) > 0 {
		cut := len(b)
		if cut > 64<<10 {
			cut = runeEnd(b[:64<<10])
		}
		at := len(q)
		q, _ = jsontext.AppendQuote(q, b[:cut])
		// The piece's own quotes go: the string goes on.
		copy(q[at:], q[at+1:len(q)-1])
		q = q[:len(q)-2]
		b = b[cut:]
		if len(q) >= 64<<10 {
			if _, err := w.Write(q); err != nil {
				return err
			}
			q = q[:0]
		}
	}
	q = append(q, '"')
	_, err := w.Write(q)
	*qp = q[:0]
	return err
}

var quoteBufs = sync.Pool{New: func() any { b := make([]byte, 0, 80<<10); return &b }}

// runeEnd is the end of the last whole rune of b (a rune cut by the end of
// b is left for the next piece).
func runeEnd(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
