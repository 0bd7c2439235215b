package capture

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
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

	// A body larger than memKeep is in a spool file instead of ReqBody or
	// RespBody.
	reqSpool, respSpool *spool
	behind              bool  // the recording fell behind a body: it is cut
	queued              bool  // queued with its bodies
	wasSpooled          bool  // queued with a spool file
	held                int64 // bytes of them in memory, when queued
}

// spooled reports whether a body of the exchange is in a spool file.
func (x *Exchange) spooled() bool { return x.reqSpool != nil || x.respSpool != nil }

// memBytes is what of the exchange's bodies is held in memory.
func (x *Exchange) memBytes() int64 { return int64(len(x.ReqBody) + len(x.RespBody)) }

// release lets the exchange's bodies go (its spool files removed).
func (x *Exchange) release() {
	for _, s := range []*spool{x.reqSpool, x.respSpool} {
		if s != nil {
			s.release()
		}
	}
	x.reqSpool, x.respSpool = nil, nil
	x.ReqBody, x.RespBody = nil, nil
}

// The recorder's queue: exchanges wait in it for the writer, which may lag
// behind (a slow disk, dirty pages being flushed) without any exchange
// waiting for it. It is bounded; past the bound an exchange is recorded
// without its bodies (its line says why, and standard error says so), and
// past a larger one it is only counted. Limits lowered by tests.
var (
	maxQueued      = 1024     // exchanges with their bodies
	maxQueuedBytes = 64 << 20 // bytes of those bodies held in memory
	maxStubs       = 8192     // exchanges in all, with or without bodies
	maxSpooled     = 64       // exchanges with a body in a spool file (an open file each)
)

// Recorder appends exchanges to a recording, one whole line each, in the
// order they end. It writes from its own goroutine, at a lower priority
// than the exchanges', and Add never waits for it: a slow disk does not
// hold the answer to a client back. Close
// waits for what was queued.
type Recorder struct {
	path string
	f    file
	bw   *bufio.Writer
	off  int64 // the end of the last whole line written
	done chan struct{}
	// masks is the writer goroutine's own: header values masked before.
	masks *headerMasks
	log   func(string)

	mu      sync.Mutex
	queue   []*Exchange
	whole   int   // exchanges in the queue with their bodies
	held    int64 // their bodies' bytes in memory
	spooled int   // of those, the ones with a spool file
	wake    chan struct{}
	n       int       // exchanges written
	lost    int       // exchanges not written (write errors)
	dropped int       // exchanges recorded without their bodies, or not at all (the queue was full)
	untold  int       // of those, the ones not recorded at all, not yet said in a line
	last    *Exchange // the last of them, without its bodies: said at Close
	behind  int       // bodies cut because the recording fell behind them
	said    int       // drops said on standard error
	closed  bool
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
	r := &Recorder{path: path, f: f, bw: bufio.NewWriterSize(f, 64<<10), off: off,
		done: make(chan struct{}), wake: make(chan struct{}, 1), log: log, masks: newHeaderMasks()}
	go r.loop()
	return r
}

// Adopt tells the recorder that its caller made the file just before
// Create (record's provenance record, written first): a run that records no
// exchange then leaves no capture, as when Create made it.
func (r *Recorder) Adopt() { r.created = true }

// Path is the recording's file name.
func (r *Recorder) Path() string { return r.path }

// Add queues an exchange to be written, without waiting: when the queue is
// full the exchange is recorded without its bodies, or only counted.
func (r *Recorder) Add(x *Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		x.release()
		return
	}
	if x.behind {
		r.behind++
		r.sayLocked(fmt.Sprintf("%s: exchange %s %s recorded cut: the recording fell behind its body (the disk, or the CPU left to the recorder, is slower than the exchanges)", r.path, x.Method, redact.URLHint(x.URL)))
	}
	switch {
	case r.whole < maxQueued && r.held+x.memBytes() <= int64(maxQueuedBytes) && (!x.spooled() || r.spooled < maxSpooled):
		x.queued, x.held = true, x.memBytes()
		r.whole++
		r.held += x.held
		if x.spooled() {
			x.wasSpooled = true
			r.spooled++
		}
	case len(r.queue) < maxStubs:
		r.dropped++
		x.release()
		x.Err = join(x.Err, fmt.Sprintf("bodies not recorded: the recording was %d exchanges behind (the disk, or the CPU left to the recorder, is slower than the exchanges, which do not wait for it)", len(r.queue)))
		r.sayLocked(fmt.Sprintf("%s: exchange %s %s recorded without its bodies: the recording is %d exchanges behind", r.path, x.Method, redact.URLHint(x.URL), len(r.queue)))
	default:
		r.dropped++
		r.untold++
		r.lost++
		x.release()
		r.last = x
		r.sayLocked(fmt.Sprintf("%s: exchange %s %s not recorded: the recording is %d exchanges behind", r.path, x.Method, redact.URLHint(x.URL), len(r.queue)))
		return
	}
	if r.untold > 0 {
		x.Err = join(x.Err, fmt.Sprintf("%d exchanges before this one were not recorded at all: the recording was too far behind", r.untold))
		r.untold, r.last = 0, nil
	}
	r.queue = append(r.queue, x)
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// sayLocked logs one line about an exchange dropped or cut, for the first
// few; the rest are counted (Counts, and the summary at the end).
func (r *Recorder) sayLocked(msg string) {
	r.said++
	switch {
	case r.said < 5:
		r.log(msg)
	case r.said == 5:
		r.log(msg + "; further ones are counted, not reported")
	}
}

// Counts returns how many exchanges were written and how many were lost
// (a write failed, or the queue was full and the exchange was not recorded
// at all).
func (r *Recorder) Counts() (written, lost int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n, r.lost
}

// Behind returns how many exchanges were recorded without their bodies or
// not at all because the queue was full (dropped), and how many bodies
// were recorded cut because the recording fell behind them (cut).
func (r *Recorder) Behind() (dropped, cut int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped, r.behind
}

// Close writes what is queued and closes the file.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		if x := r.last; x != nil && r.untold > 0 {
			// Said in the capture too: the last of them, without bodies.
			x.Err = join(x.Err, fmt.Sprintf("bodies not recorded, and %d exchanges before this one not at all: the recording was too far behind", r.untold-1))
			r.queue = append(r.queue, x)
			r.lost--
			r.untold, r.last = 0, nil
		}
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
	r.mu.Unlock()
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
	lowerPriority() // the exchanges first (priority_linux.go)
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			closed := r.closed
			r.mu.Unlock()
			if closed {
				return
			}
			<-r.wake
			continue
		}
		x := r.queue[0]
		r.mu.Unlock()

		n, err := r.write(x)
		x.release()

		r.mu.Lock()
		r.queue[0] = nil
		r.queue = r.queue[1:]
		if x.queued {
			r.whole--
			r.held -= x.held
			if x.wasSpooled {
				r.spooled--
			}
		}
		if err != nil {
			r.lost++
			r.mu.Unlock()
			r.log(fmt.Sprintf("%s: exchange %s %s not recorded: %v", r.path, x.Method, redact.URLHint(x.URL), err))
			continue
		}
		r.n++
		r.off += n
		r.mu.Unlock()
	}
}

// write appends x's line, or, when a write fails (a full disk), cuts off
// again what of it was written: what was written before stays whole. When
// it is a spool file that could not be read back, not the recording, the
// line is written again without the bodies, saying so (as Line does).
func (r *Recorder) write(x *Exchange) (int64, error) {
	n, readErr, err := r.writeOnce(x)
	if readErr {
		n, _, err = r.writeOnce(bodiless(x, err))
	}
	return n, err
}

// writeOnce is write's one attempt; readErr reports that it failed on a
// read of a body, not on a write.
func (r *Recorder) writeOnce(x *Exchange) (n int64, readErr bool, err error) {
	cw := &countWriter{w: r.bw}
	err = writeLine(cw, x, r.masks)
	readErr = err != nil && cw.err == nil
	if err == nil {
		err = r.bw.Flush()
	}
	if err != nil {
		r.bw.Reset(r.f)
		if terr := r.f.Truncate(r.off); terr != nil {
			err = errors.Join(err, terr)
			readErr = false
		}
		return 0, readErr, err
	}
	return cw.n, false, nil
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error // the first write error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
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
func (m *headerMasks) headers(b *bytes.Buffer, h http.Header) {
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
		if m != nil {
			b.WriteString(m.name(k))
		} else {
			quote(b, strings.ToLower(k))
		}
		b.WriteByte(':')
		if vs := h[k]; len(vs) == 1 {
			quote(b, m.mask(k, vs[0]))
			continue
		}
		vals := make([]string, len(h[k]))
		for j, v := range h[k] {
			vals[j] = m.mask(k, v)
		}
		quote(b, strings.Join(vals, ", "))
	}
	b.WriteByte('}')
}

// headerMasks remembers what redact.Header gave for the header values a
// recorder has written: an agent sends the same dozen or two headers with
// every request, and masking each (redact.Text's credential rules) was a
// fifth of the recorder's time on a 40 KB request with six headers. The
// values are keyed by a SHA-256 of a key of the recorder's own, the name
// and the value, so that no credential is kept in clear; only masked
// values are held, at most maxMasks (then it starts again).
type headerMasks struct {
	key   [32]byte
	m     map[[32]byte]string
	names map[string]string // a header's name, lower case and quoted
	buf   []byte
	hits  int // lookups answered from m (tests)
}

const maxMasks = 4096

func newHeaderMasks() *headerMasks {
	m := &headerMasks{m: make(map[[32]byte]string), names: make(map[string]string)}
	rand.Read(m.key[:])
	return m
}

// name is a header's name as the line writes it, remembered.
func (m *headerMasks) name(k string) string {
	if q, ok := m.names[k]; ok {
		return q
	}
	var b bytes.Buffer
	quote(&b, strings.ToLower(k))
	if len(m.names) >= maxMasks {
		clear(m.names)
	}
	m.names[k] = b.String()
	return m.names[k]
}

// mask is redact.Header(name, value), remembered (m nil: not).
func (m *headerMasks) mask(name, value string) string {
	if m == nil {
		return redact.Header(name, value)
	}
	m.buf = append(append(append(append(m.buf[:0], m.key[:]...), name...), 0), value...)
	sum := sha256.Sum256(m.buf)
	clear(m.buf)
	if v, ok := m.m[sum]; ok {
		m.hits++
		return v
	}
	v := redact.Header(name, value)
	if len(m.m) >= maxMasks {
		clear(m.m)
	}
	m.m[sum] = v
	return v
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
