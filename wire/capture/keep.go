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

// kept is a body kept as it is read, up to a limit: in memory up to
// memKeep, past that in a spool file (spool.go).
type kept struct {
	mu     sync.Mutex
	buf    []byte
	sp     *spool // the body past memKeep, buf then nil
	dir    string // where a spool file goes ("" keeps all in memory)
	base   string
	limit  int
	hint   int64 // the length a header declares: room for up to 64 KiB of it is made when the first bytes come
	n      int64 // bytes kept, in buf or sent to sp
	total  int64 // bytes seen, kept or not
	behind bool  // the spool fell behind: nothing more is kept
	sealed bool  // the body went to the record: nothing more is kept
}

// add keeps what of p fits under the limit, growing the buffer as bytes
// arrive (doubling, but never past the limit or memKeep), and past memKeep
// hands it to a spool file.
func (k *kept) add(p []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sealed {
		return
	}
	k.total += int64(len(p))
	room := int64(k.limit) - k.n
	if room <= 0 || k.behind {
		return
	}
	p = p[:min(int64(len(p)), room)]
	if k.sp == nil && (k.dir == "" || len(k.buf)+len(p) <= memKeep) {
		if need := len(k.buf) + len(p); need > cap(k.buf) {
			grown := make([]byte, len(k.buf), min(k.limit, max(need, 2*cap(k.buf), int(min(max(k.hint, 4<<10), 64<<10)))))
			copy(grown, k.buf)
			k.buf = grown
		}
		k.buf = append(k.buf, p...)
		k.n += int64(len(p))
		return
	}
	if k.sp == nil {
		k.sp = newSpool(k.dir, k.base)
		if len(k.buf) > 0 && !k.sp.sendOwned(k.buf) {
			// Even the first part could not go: keep none.
			k.n = 0
			k.behind = true
		}
		k.buf = nil
		if k.behind {
			return
		}
	}
	if !k.sp.send(p) {
		k.behind = true
		return
	}
	k.n += int64(len(p))
}

// seal ends the body: nothing read after is kept. It returns the bytes in
// memory, or the spool that holds them.
func (k *kept) seal() ([]byte, *spool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sealed = true
	return k.buf, k.sp
}

// memory is what is kept in memory (the whole body kept, for a body that
// is never spooled).
func (k *kept) memory() []byte {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.buf
}

// cutNote is the record's note for a body past its limit, or one the
// recording fell behind on ("" for a body kept whole): the bytes kept and
// dropped.
func (k *kept) cutNote(what string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.total <= k.n {
		return ""
	}
	if k.behind {
		return fmt.Sprintf("%s body cut: %d bytes recorded, then the recording fell behind the stream (the disk was slower than the exchange, which did not wait for it), %d more passed through unrecorded",
			what, k.n, k.total-k.n)
	}
	return fmt.Sprintf("%s body cut: %d bytes recorded (the most a recording keeps), %d more passed through unrecorded",
		what, k.n, k.total-k.n)
}

// fellBehind reports whether the recording fell behind this body.
func (k *kept) fellBehind() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.behind
}

// teeBody keeps what is read through it, up to its limit, for the record.
type teeBody struct {
	r    io.ReadCloser
	x    *Exchange
	resp bool
	keep kept
}

// newTee keeps a request body (resp false) or a response body read
// through r for x, spooling past memKeep beside the recording at path ("":
// all in memory); size is the length its header declares (-1: none).
func newTee(r io.ReadCloser, x *Exchange, resp bool, path string, size int64) *teeBody {
	t := &teeBody{r: r, x: x, resp: resp}
	t.keep.hint = size
	if path != "" {
		t.keep.dir, t.keep.base = spoolDir(path)
	}
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
		t.x.RespBody, t.x.respSpool = t.keep.seal()
		t.x.behind = t.x.behind || t.keep.fellBehind()
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
	t.x.ReqBody, t.x.reqSpool = t.keep.seal()
	t.x.behind = t.x.behind || t.keep.fellBehind()
	if note := t.keep.cutNote("request"); note != "" {
		t.x.Err = join(t.x.Err, note)
	}
}

// drain reads the rest of a body.
func drain(r io.Reader) {
	io.Copy(io.Discard, r)
}
