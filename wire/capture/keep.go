package capture

import (
	"fmt"
	"io"
	"sync"
)

// What a recording keeps of a body, for every way an exchange reaches the
// recorder (the reverse proxy, and the forward proxy through it): the bytes
// as they arrive, never room reserved for what a header declares, up to a
// cap past which the rest still passes through and the record says how much
// was kept and how much dropped.

// MaxBody is the most of one request body a recording holds.
const MaxBody = 256 << 20

// MaxResponseBody is the most of one response body a recording holds,
// counted on the bytes the client receives (the transport has undone gzip:
// 527 KB on the wire can be gigabytes). Answers are far smaller than
// requests; with MaxBody it keeps a line, written at most 4/3 of the bytes
// kept (see writeBody), under the readers' limit (body.MaxLine, 1 GiB).
const MaxResponseBody = 64 << 20

// keptRequest and keptResponse are the limits in force: MaxBody and
// MaxResponseBody, lowered by tests.
var keptRequest, keptResponse = MaxBody, MaxResponseBody

// kept is a body kept as it is read, up to a limit.
type kept struct {
	mu    sync.Mutex
	buf   []byte
	limit int
	total int64 // bytes seen, kept or not
}

// add keeps what of p fits under the limit, growing the buffer as bytes
// arrive (doubling, but never past the limit).
func (k *kept) add(p []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.total += int64(len(p))
	room := k.limit - len(k.buf)
	if room <= 0 {
		return
	}
	p = p[:min(len(p), room)]
	if need := len(k.buf) + len(p); need > cap(k.buf) {
		grown := make([]byte, len(k.buf), min(k.limit, max(need, 2*cap(k.buf), 4<<10)))
		copy(grown, k.buf)
		k.buf = grown
	}
	k.buf = append(k.buf, p...)
}

// bytes is what is kept so far.
func (k *kept) bytes() []byte {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.buf
}

// cutNote is the record's note for a body past its limit ("" for a body
// kept whole): the bytes kept and dropped.
func (k *kept) cutNote(what string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.total <= int64(len(k.buf)) {
		return ""
	}
	return fmt.Sprintf("%s body cut: %d bytes recorded (the most a recording keeps), %d more passed through unrecorded",
		what, len(k.buf), k.total-int64(len(k.buf)))
}

// teeBody keeps what is read through it, up to its limit, for the record.
type teeBody struct {
	r    io.ReadCloser
	x    *Exchange
	resp bool
	keep kept
}

// newTee keeps a request body (resp false) or a response body read
// through r for x.
func newTee(r io.ReadCloser, x *Exchange, resp bool) *teeBody {
	t := &teeBody{r: r, x: x, resp: resp}
	t.keep.limit = keptRequest
	if resp {
		t.keep.limit = keptResponse
	}
	return t
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.keep.add(p[:n])
	}
	if err != nil && err != io.EOF && t.resp {
		t.x.Err = join(t.x.Err, "the response was cut short: "+err.Error())
	}
	return n, err
}

func (t *teeBody) Close() error {
	err := t.r.Close()
	if t.resp {
		t.x.RespBody = t.keep.bytes()
		if note := t.keep.cutNote("response"); note != "" {
			t.x.Err = join(t.x.Err, note)
		}
	}
	return err
}

// keepRequest reads what the upstream did not of a request body (it
// answered early, or was never reached: for the record, and because a
// full-duplex handler that returns with the body unread leaves the server
// to reset the client's connection), then puts the body and its note in
// the exchange.
func (t *teeBody) keepRequest() {
	drain(t)
	t.x.ReqBody = t.keep.bytes()
	if note := t.keep.cutNote("request"); note != "" {
		t.x.Err = join(t.x.Err, note)
	}
}

// drain reads the rest of a body.
func drain(r io.Reader) {
	io.Copy(io.Discard, r)
}
