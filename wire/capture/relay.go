package capture

import (
	"bytes"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The exchange's path through the proxy: the request on to its upstream,
// the answer back, each read of it written and flushed at once (an event
// stream passes event by event). httputil.ReverseProxy did this before;
// what it adds on the way was measured at one connection against a local
// upstream (issue 27): a timer that fires at once and a goroutine per
// request to flush the answer's head on its own (FlushInterval -1), a
// system call and a wake-up of the client more, racing the first body
// write; a client trace per request to relay 1xx answers; and the request
// cloned twice. forward keeps what it did to the request and the answer
// (hop-by-hop and forwarding headers dropped, a query that does not parse
// re-encoded, trailers relayed, an answer cut short aborting the client's),
// sends the head with the body's first bytes (or after headWait without
// them), and the last piece with the answer's end. Interim 1xx answers are
// not relayed (the server answers a client's Expect: 100-continue itself);
// protocol upgrades still go through ReverseProxy (Proxy.rp).

// headWait is how long the head of an answer waits for the first bytes of
// its body, to go in one write with them. A variable for tests.
var headWait = time.Millisecond

// forward sends r (its body the exchange's tee) on to its upstream and
// streams the answer back to w, kept for x as it passes.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, x *Exchange) {
	out := p.outgoing(r)
	x.URL = out.URL.String()
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		failed(w, x, err)
		return
	}
	removeHopByHop(resp.Header)
	x.Status = resp.StatusCode
	x.RespHeader = resp.Header.Clone()
	tee := newTee(resp.Body, x, true, p.rec.path, resp.ContentLength)
	closed := false
	defer func() {
		if !closed {
			tee.Close()
		}
	}()
	h := w.Header()
	for k, vv := range resp.Header {
		h[k] = append(h[k], vv...)
	}
	announced := len(resp.Trailer)
	if announced > 0 {
		keys := make([]string, 0, announced)
		for k := range resp.Trailer {
			keys = append(keys, k)
		}
		h.Add("Trailer", strings.Join(keys, ", "))
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	// The head goes with the body's first bytes, in one write, or on its
	// own once headWait has passed without them (an upstream that sends
	// its head and then thinks): the client knows the status by then.
	var mu sync.Mutex
	headSent := false
	t := time.AfterFunc(headWait, func() {
		mu.Lock()
		defer mu.Unlock()
		if !headSent {
			headSent = true
			rc.Flush()
		}
	})
	// stopTimer: the timer does not touch w after this (a callback under
	// way has run by the time the lock is had).
	stopTimer := func() {
		t.Stop()
		mu.Lock()
		headSent = true
		mu.Unlock()
	}
	defer stopTimer() // whatever the way out
	buf := p.bufs.Get()
	defer p.bufs.Put(buf)
	for {
		n, rerr := tee.Read(buf)
		if n > 0 {
			mu.Lock()
			headSent = true
			_, werr := w.Write(buf[:n])
			if werr == nil && rerr != io.EOF {
				// The last piece (the transport read the end with it)
				// goes with the answer's end, in one write, when the
				// handler returns.
				rc.Flush()
			}
			mu.Unlock()
			if werr != nil {
				// The client went away: its answer is aborted (the
				// record is written on the way out, with what came).
				panic(http.ErrAbortHandler)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			// Cut short upstream (the tee notes it): so is the client's.
			panic(http.ErrAbortHandler)
		}
	}
	stopTimer() // w is the handler's alone from here: the trailer
	closed = true
	tee.Close() // now, for resp.Trailer
	if len(resp.Trailer) == 0 {
		return
	}
	rc.Flush() // a trailer needs a chunked answer
	for k, vv := range resp.Trailer {
		if announced != len(resp.Trailer) {
			k = http.TrailerPrefix + k
		}
		for _, v := range vv {
			h.Add(k, v)
		}
	}
}

// outgoing is the request r sends upstream, as httputil.ReverseProxy's
// Rewrite with ProxyRequest.SetURL builds it: r's URL joined to the
// target's, no Host of its own, hop-by-hop and forwarding headers dropped,
// and no Accept-Encoding (plain bytes from the provider, so that the record
// holds readable JSON; the transport still asks for gzip and undoes it).
func (p *Proxy) outgoing(r *http.Request) *http.Request {
	out := r.Clone(r.Context())
	out.Body = nil // an empty body: nil, so that the transport may retry
	if r.ContentLength != 0 {
		// Not closed by a transport that fails to connect: the body is
		// still read to the end for the record (keepRequest).
		out.Body = io.NopCloser(r.Body)
		if t, ok := r.Body.(*teeBody); ok && r.ContentLength > 0 && r.ContentLength <= int64(min(memKeep, t.keep.limit)) &&
			len(r.Header["Expect"]) == 0 {
			out.Body = t.prefetch(r.ContentLength, &p.bufs)
		}
	}
	out.Close = false
	removeHopByHop(out.Header)
	if tokenIn(r.Header["Te"], "trailers") {
		out.Header.Set("Te", "trailers")
	}
	for _, k := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "Accept-Encoding"} {
		delete(out.Header, k)
	}
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header.Set("User-Agent", "") // not Go's own
	}
	target := p.target(r)
	out.URL.RawQuery = cleanQuery(out.URL.RawQuery)
	query := target.RawQuery
	out.URL.Scheme, out.URL.Host = target.Scheme, target.Host
	out.URL.Path, out.URL.RawPath = joinURLPath(target, out.URL)
	if query != "" && out.URL.RawQuery != "" {
		query += "&"
	}
	out.URL.RawQuery = query + out.URL.RawQuery
	out.Host = ""
	return out
}

// hopHeaders are dropped on the way through, besides those Connection
// names (RFC 9110, 7.6.1).
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHopByHop(h http.Header) {
	for _, f := range h["Connection"] {
		for sf := range strings.SplitSeq(f, ",") {
			if sf = textproto.TrimString(sf); sf != "" {
				h.Del(sf)
			}
		}
	}
	for _, k := range hopHeaders {
		delete(h, k)
	}
}

// upgrade reports whether a request asks to switch protocols (a
// WebSocket): ReverseProxy relays those.
func upgrade(h http.Header) bool {
	return tokenIn(h["Connection"], "upgrade") && h.Get("Upgrade") != ""
}

// tokenIn reports whether a comma-separated header value lists token
// (case-insensitive).
func tokenIn(values []string, token string) bool {
	for _, v := range values {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(textproto.TrimString(t), token) {
				return true
			}
		}
	}
	return false
}

// cleanQuery re-encodes a query that does not parse (a ';', a bad %
// escape), dropping what does not, as ReverseProxy's Rewrite does: a
// parameter the proxy and the upstream would read differently does not
// pass.
func cleanQuery(q string) string {
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case ';':
			return reencode(q)
		case '%':
			if i+2 >= len(q) || !isHex(q[i+1]) || !isHex(q[i+2]) {
				return reencode(q)
			}
			i += 2
		}
	}
	return q
}

func reencode(q string) string {
	v, _ := url.ParseQuery(q)
	return v.Encode()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// joinURLPath joins the target's path and the request's, one slash
// between them (ReverseProxy's rule, escaped paths kept).
func joinURLPath(a, b *url.URL) (path, rawpath string) {
	if a.RawPath == "" && b.RawPath == "" {
		return joinSlash(a.Path, b.Path), ""
	}
	apath, bpath := a.EscapedPath(), b.EscapedPath()
	aslash, bslash := strings.HasSuffix(apath, "/"), strings.HasPrefix(bpath, "/")
	switch {
	case aslash && bslash:
		return a.Path + b.Path[1:], apath + bpath[1:]
	case !aslash && !bslash:
		return a.Path + "/" + b.Path, apath + "/" + bpath
	}
	return a.Path + b.Path, apath + bpath
}

func joinSlash(a, b string) string {
	aslash, bslash := strings.HasSuffix(a, "/"), strings.HasPrefix(b, "/")
	switch {
	case aslash && bslash:
		return a + b[1:]
	case !aslash && !bslash:
		return a + "/" + b
	}
	return a + b
}

// prefetch reads the whole of a request body of n bytes (kept in memory:
// n is at most memKeep and the keep's limit) before the request goes on,
// and returns it as the outgoing body, in memory. The transport then sends
// the head with the body's first bytes instead of flushing it alone first,
// and its writer no longer reads the client's connection through the tee.
// A body cut short gives the transport what came, then the same error.
// Not for a request that expects 100-continue: the client waits for the
// upstream's answer before it sends the body.
func (t *teeBody) prefetch(n int64, bufs *copyBuffers) io.ReadCloser {
	buf := bufs.Get()
	defer bufs.Put(buf)
	var got int64
	var err error
	for got < n && err == nil {
		var k int
		k, err = t.Read(buf[:min(int64(len(buf)), n-got)])
		got += int64(k)
	}
	mem := t.keep.memory()
	if got == n {
		return io.NopCloser(bytes.NewReader(mem))
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return io.NopCloser(io.MultiReader(bytes.NewReader(mem), errReader{err}))
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
