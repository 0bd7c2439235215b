package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/redact"
)

// Exchange is one request and its response as the proxy saw them.
type Exchange struct {
	Start, End time.Time
	Method     string
	URL        string // where the request went (the upstream's URL, or the proxy's own in mock mode)
	ReqHeader  http.Header
	ReqBody    []byte
	Status     int
	RespHeader http.Header
	RespBody   []byte
	Mock       bool
	Err        string // what went wrong: a refused upstream, a stream cut short, a body too large
	// WebSocket places a message sent on a WebSocket (Method "WEBSOCKET",
	// the message as ReqBody, the server's messages after it in RespBody).
	WebSocket *WSInfo
}

// Recorder appends exchanges to a recording, one whole line each, in the
// order they end. It writes from its own goroutine, so a slow disk does not
// hold the answer to a client back; Close waits for what was queued.
type Recorder struct {
	path string
	f    file
	off  int64 // the end of the last whole line written
	ch   chan *Exchange
	done chan struct{}
	log  func(string)

	mu      sync.Mutex
	n       int // exchanges written
	lost    int // exchanges not written (write errors)
	closed  bool
	closeMu sync.Mutex
	created bool  // Create made the file (or Adopt says the caller did)
	start   int64 // its size then: Close removes it when nothing came after
}

// Create opens path for appending (wire.CreateOutput: created mode 0600,
// never through a link, no named pipe or device) and starts the writer. log
// receives one line for each exchange that could not be written. A file it
// created and Close finds empty is removed: a run that recorded nothing
// leaves no empty capture behind.
func Create(path string, log func(string)) (*Recorder, error) {
	_, statErr := os.Lstat(path)
	created := errors.Is(statErr, fs.ErrNotExist)
	f, err := wire.CreateOutput(path, true)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r := newRecorder(path, f, st.Size(), log)
	r.created, r.start = created, st.Size()
	return r, nil
}

// file is what a Recorder writes to: an *os.File, or a failing one in tests.
type file interface {
	io.WriteCloser
	Truncate(size int64) error
}

// newRecorder starts a Recorder appending to f, which ends at off.
func newRecorder(path string, f file, off int64, log func(string)) *Recorder {
	if log == nil {
		log = func(string) {}
	}
	r := &Recorder{path: path, f: f, off: off, ch: make(chan *Exchange, 64), done: make(chan struct{}), log: log}
	go r.loop()
	return r
}

// Adopt tells the recorder that its caller made the file just before
// Create (record's provenance record, written first): a run that records no
// exchange then leaves no capture, as when Create made it.
func (r *Recorder) Adopt() { r.created = true }

// Path is the recording's file name.
func (r *Recorder) Path() string { return r.path }

// Add queues an exchange to be written.
func (r *Recorder) Add(x *Exchange) {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	if r.closed {
		return
	}
	r.ch <- x
}

// Counts returns how many exchanges were written and how many were lost.
func (r *Recorder) Counts() (written, lost int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n, r.lost
}

// Close writes what is queued and closes the file.
func (r *Recorder) Close() error {
	r.closeMu.Lock()
	if !r.closed {
		r.closed = true
		close(r.ch)
	}
	r.closeMu.Unlock()
	<-r.done
	err := r.f.Close()
	if r.created && r.off == r.start {
		if st, serr := os.Lstat(r.path); serr == nil && st.Mode().IsRegular() && st.Size() == r.start {
			os.Remove(r.path)
		}
	}
	return err
}

func (r *Recorder) loop() {
	defer close(r.done)
	for x := range r.ch {
		// Written piece by piece: a JSON body goes from the exchange's own
		// buffer to the file, not through a copy in a line.
		var err error
		n := 0
		for _, p := range lineParts(x) {
			var k int
			k, err = r.f.Write(p)
			n += k
			if err != nil {
				break
			}
		}
		r.mu.Lock()
		if err != nil {
			// A full disk: what was written before stays whole; the part
			// of this line that was written is cut off again.
			r.lost++
			r.mu.Unlock()
			if terr := r.f.Truncate(r.off); terr != nil {
				err = errors.Join(err, terr)
			}
			r.log(fmt.Sprintf("%s: exchange %s %s not recorded: %v", r.path, x.Method, x.URL, err))
			continue
		}
		r.n++
		r.off += int64(n)
		r.mu.Unlock()
	}
}

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
	return bytes.Join(lineParts(x), nil)
}

// lineParts is Line in pieces, a request body that is JSON on one line
// being its own piece, not copied.
func lineParts(x *Exchange) [][]byte {
	var parts [][]byte
	var b bytes.Buffer
	b.WriteString(`{"request":{"timestamp":`)
	b.WriteString(stamp(x.Start))
	b.WriteString(`,"method":`)
	quote(&b, x.Method)
	b.WriteString(`,"url":`)
	quote(&b, redact.URLHint(x.URL))
	b.WriteString(`,"headers":`)
	headers(&b, x.ReqHeader)
	if t := bytes.TrimSpace(x.ReqBody); len(t) > 0 && (t[0] == '{' || t[0] == '[') && !bytes.ContainsAny(t, "\r\n") && jsontext.Value(t).IsValid() {
		b.WriteString(`,"body":`)
		parts = append(parts, bytes.Clone(b.Bytes()), redact.Members(t))
		b.Reset()
	} else {
		writeBody(&b, x.ReqBody, false, true)
	}
	b.WriteString(`},"response":{"timestamp":`)
	b.WriteString(stamp(x.End))
	fmt.Fprintf(&b, `,"status_code":%d,"headers":`, x.Status)
	headers(&b, x.RespHeader)
	sse := strings.HasPrefix(x.RespHeader.Get("Content-Type"), "text/event-stream") || x.WebSocket != nil
	writeBody(&b, x.RespBody, sse, false)
	b.WriteString(`},"logged_at":`)
	quote(&b, x.End.UTC().Format(time.RFC3339Nano))
	fmt.Fprintf(&b, `,"wirelens":{"mock":%t,"duration_ms":%.3f`, x.Mock, float64(x.End.Sub(x.Start).Microseconds())/1000)
	if ws := x.WebSocket; ws != nil {
		fmt.Fprintf(&b, `,"websocket":{"connection":%d,"message":%d}`, ws.Conn, ws.Message)
	}
	if x.Err != "" {
		b.WriteString(`,"error":`)
		quote(&b, redact.Text(x.Err))
	}
	b.WriteString("}}\n")
	return append(parts, b.Bytes())
}

func stamp(t time.Time) string {
	return fmt.Sprintf("%.3f", float64(t.UnixMilli())/1000)
}

func quote(b *bytes.Buffer, s string) {
	q, _ := jsontext.AppendQuote(b.AvailableBuffer(), s)
	b.Write(q)
}

// headers writes h as an object of masked values (several values of one
// name joined with ", "), names in order.
func headers(b *bytes.Buffer, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		quote(b, strings.ToLower(k))
		b.WriteByte(':')
		vals := make([]string, len(h[k]))
		for j, v := range h[k] {
			vals[j] = redact.Header(k, v)
		}
		quote(b, strings.Join(vals, ", "))
	}
	b.WriteByte('}')
}

// writeBody writes ,"body": (JSON, or a request's text), ,"body_raw": (a
// response's text; always for an event stream) or ,"body_base64": (bytes
// that are not UTF-8, or text that quoting would make larger than base64),
// or nothing for an empty body.
func writeBody(b *bytes.Buffer, body []byte, stream, request bool) {
	t := bytes.TrimSpace(body)
	switch {
	case len(t) == 0 && len(body) == 0:
	case !stream && len(t) > 0 && (t[0] == '{' || t[0] == '[') && jsontext.Value(t).IsValid():
		b.WriteString(`,"body":`)
		if request {
			t = redact.Members(t)
		}
		if bytes.ContainsAny(t, "\r\n") {
			v := jsontext.Value(bytes.Clone(t))
			if v.Compact() == nil {
				b.Write(v)
				return
			}
		}
		b.Write(t)
	case utf8.Valid(body) && quotedLen(body) <= base64.StdEncoding.EncodedLen(len(body))+2:
		// Text, unless escaping it would write more than base64 does (a
		// control byte is six bytes quoted): the line stays within 4/3 of
		// the body.
		key := `,"body":`
		if !request && (stream || len(t) == 0 || (t[0] != '{' && t[0] != '[')) {
			// Text the proxy answered (an event stream, an error page).
			key = `,"body_raw":`
		}
		b.WriteString(key)
		quote(b, string(body))
	default:
		b.WriteString(`,"body_base64":`)
		b.WriteByte('"')
		w := base64.NewEncoder(base64.StdEncoding, b)
		w.Write(body)
		w.Close()
		b.WriteByte('"')
	}
}

// quotedLen is the length of b written as a JSON string by quote: short
// escapes for \b \f \n \r \t " and \, six bytes for other control bytes.
func quotedLen(b []byte) int {
	n := 2 + len(b)
	for _, c := range b {
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}
