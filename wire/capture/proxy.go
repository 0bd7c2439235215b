package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// MaxBody is the most of one request or response body a recording holds;
// the rest still passes through, and the record says it was cut.
const MaxBody = 512 << 20

// Options configure a Proxy.
type Options struct {
	// Upstream, when set, receives every request (its path prefixed to the
	// request's); else each goes to its provider, chosen by path and headers.
	Upstream *url.URL
	// Mock answers every request in the proxy itself; nothing is forwarded.
	Mock bool
	// Transport forwards requests (tests); nil is a clone of
	// http.DefaultTransport (which honours HTTPS_PROXY).
	Transport http.RoundTripper
	// Log receives one line for each exchange that failed.
	Log func(string)
}

// Proxy is the recording reverse proxy, an http.Handler.
type Proxy struct {
	opts Options
	rec  *Recorder
	rp   *httputil.ReverseProxy
	ids  mockIDs
}

type ctxKey struct{}

// New returns a proxy that appends each exchange to rec.
func New(rec *Recorder, opts Options) *Proxy {
	if opts.Log == nil {
		opts.Log = func(string) {}
	}
	p := &Proxy{opts: opts, rec: rec}
	tr := opts.Transport
	if tr == nil {
		// HTTPS_PROXY and the like still apply: a provider may be reachable
		// only through one.
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			target := opts.Upstream
			if u, ok := pr.In.Context().Value(upstreamKey{}).(*url.URL); ok {
				target = u // the host a forward-proxy client was going to
			} else if target == nil {
				target = upstreamFor(pr.In)
			}
			pr.SetURL(target)
			// Plain bytes from the provider, so the record holds readable
			// JSON; the transport still asks for and undoes gzip itself.
			pr.Out.Header.Del("Accept-Encoding")
			if x, ok := pr.In.Context().Value(ctxKey{}).(*Exchange); ok {
				x.URL = pr.Out.URL.String()
			}
		},
		Transport:     tr,
		FlushInterval: -1, // every write reaches the client at once
		ErrorLog:      log.New(io.Discard, "", 0),
		ModifyResponse: func(resp *http.Response) error {
			x, ok := resp.Request.Context().Value(ctxKey{}).(*Exchange)
			if !ok {
				return nil
			}
			x.Status = resp.StatusCode
			x.RespHeader = resp.Header.Clone()
			resp.Body = &teeBody{r: resp.Body, x: x, resp: true}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			x, _ := r.Context().Value(ctxKey{}).(*Exchange)
			status := http.StatusBadGateway
			msg := err.Error()
			if errors.Is(err, context.Canceled) {
				msg = "the client went away: " + msg
				status = 499 // what nginx calls a closed client request
			}
			if x != nil {
				x.Status = status
				x.Err = "upstream: " + msg
				x.RespHeader = http.Header{"Content-Type": {"application/json"}}
				x.RespBody = errorBody(msg)
			}
			if status == http.StatusBadGateway {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				w.Write(errorBody(msg))
			}
		},
	}
	return p
}

// errorBody is the JSON error the proxy answers when the upstream fails.
func errorBody(msg string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"error":{"type":"wirelens_proxy_error","message":`)
	quote(&b, "wirelens proxy: "+msg)
	b.WriteString("}}")
	return b.Bytes()
}

// ServeHTTP forwards (or, in mock mode, answers) one request and records
// the exchange when it ends, whole or cut short.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The upstream may answer (and the answer reach the client) before the
	// transport has sent the whole request body: an HTTP/1 server would
	// then discard the unread body, the transport's write would fail and
	// take the upstream connection, and the stream with it. Full duplex
	// keeps the body readable while the answer streams.
	_ = http.NewResponseController(w).EnableFullDuplex()
	x := &Exchange{Start: time.Now(), Method: r.Method, ReqHeader: r.Header.Clone(), Mock: p.opts.Mock}
	x.URL = localURL(r)
	tee := &teeBody{r: r.Body, x: x}
	if r.ContentLength > 0 && r.ContentLength <= MaxBody {
		tee.buf.Grow(int(r.ContentLength))
	}
	r.Body = tee
	defer func() {
		// Also on the abort of a stream cut short (http.ErrAbortHandler):
		// the record is written and the panic goes on.
		x.End = time.Now()
		// What the upstream did not read (it answered early, or was never
		// reached) is read now: for the record, and because a full-duplex
		// handler that returns with the body unread leaves the server to
		// reset the client's connection.
		drain(tee)
		tee.mu.Lock()
		x.ReqBody = tee.buf.Bytes()
		tee.mu.Unlock()
		if x.Status == 0 {
			x.Status = http.StatusBadGateway
		}
		if tee.cut {
			x.Err = join(x.Err, fmt.Sprintf("request body longer than %d bytes: recorded up to there", MaxBody))
		}
		if x.Err != "" {
			p.opts.Log(fmt.Sprintf("%s %s: %s", x.Method, r.URL.Path, x.Err))
		}
		p.rec.Add(x)
	}()
	if p.opts.Mock {
		p.mock(w, r, x, tee)
		return
	}
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, x)))
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// localURL is the URL a request was sent to, as the client named it.
func localURL(r *http.Request) string {
	u := *r.URL
	u.Scheme = "http"
	if r.TLS != nil {
		u.Scheme = "https"
	}
	u.Host = r.Host
	return u.String()
}

// teeBody keeps what is read through it, up to MaxBody, for the record.
type teeBody struct {
	r    io.ReadCloser
	x    *Exchange
	resp bool
	mu   sync.Mutex
	buf  bytes.Buffer
	cut  bool
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.mu.Lock()
		if room := MaxBody - t.buf.Len(); room > 0 {
			t.buf.Write(p[:min(n, room)])
			t.cut = t.cut || n > room
		} else {
			t.cut = true
		}
		t.mu.Unlock()
	}
	if err != nil && err != io.EOF && t.resp {
		t.x.Err = join(t.x.Err, "the response was cut short: "+err.Error())
	}
	return n, err
}

func (t *teeBody) Close() error {
	err := t.r.Close()
	if t.resp {
		t.mu.Lock()
		t.x.RespBody = t.buf.Bytes()
		if t.cut {
			t.x.Err = join(t.x.Err, fmt.Sprintf("response body longer than %d bytes: recorded up to there", MaxBody))
		}
		t.mu.Unlock()
	}
	return err
}

// drain reads the rest of a request body, for the record, when the proxy
// answers without reading it all.
func drain(r io.Reader) {
	io.Copy(io.Discard, r)
}
