package capture

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// Options configure a Proxy.
type Options struct {
	// Upstream, when set, receives every request (its path prefixed to the
	// request's); else each goes to its provider, chosen by path and headers.
	Upstream *url.URL
	// Mock answers every request in the proxy itself; nothing is forwarded.
	Mock bool
	// Transport forwards requests (tests); nil is upstreamTransport's
	// (http.DefaultTransport's settings, which honour HTTPS_PROXY, with an
	// idle pool for agents' concurrency and HTTP/2 where offered).
	Transport http.RoundTripper
	// UpstreamTLS is the TLS configuration of that Transport (tests); nil
	// verifies against the system's roots.
	UpstreamTLS *tls.Config
	// Log receives one line for each exchange that failed.
	Log func(string)
	// AllowOrigins are the Origin values accepted; a request with any other
	// Origin header (a browser's, from a web page) is refused (guard.go).
	AllowOrigins []string
	// AllowHosts are the host names accepted in the Host header besides
	// loopback ones (and the listener's own address).
	AllowHosts []string
}

// Proxy is the recording reverse proxy, an http.Handler.
type Proxy struct {
	opts Options
	rec  *Recorder
	tr   http.RoundTripper
	bufs copyBuffers
	// rp forwards protocol upgrades (101 Switching Protocols), which
	// forward (relay.go) leaves to it.
	rp  *httputil.ReverseProxy
	ids mockIDs
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
		tr = upstreamTransport(opts.UpstreamTLS)
	}
	p.tr = tr
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(p.target(pr.In))
			// Plain bytes from the provider, so the record holds readable
			// JSON; the transport still asks for and undoes gzip itself.
			pr.Out.Header.Del("Accept-Encoding")
			if x, ok := pr.In.Context().Value(ctxKey{}).(*Exchange); ok {
				x.URL = pr.Out.URL.String()
			}
		},
		Transport:     tr,
		BufferPool:    &p.bufs,
		FlushInterval: -1, // every write reaches the client at once
		ErrorLog:      log.New(io.Discard, "", 0),
		ModifyResponse: func(resp *http.Response) error {
			x, ok := resp.Request.Context().Value(ctxKey{}).(*Exchange)
			if !ok {
				return nil
			}
			x.Status = resp.StatusCode
			x.RespHeader = resp.Header.Clone()
			if resp.StatusCode == http.StatusSwitchingProtocols {
				// The body is the connection itself, which ReverseProxy
				// relays both ways: a tee, which is not writable, made
				// it refuse the upgrade (502).
				return nil
			}
			tee := newTee(resp.Body, x, true, p.rec.path, resp.ContentLength)
			resp.Body = tee
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			x, _ := r.Context().Value(ctxKey{}).(*Exchange)
			failed(w, x, err)
		},
	}
	return p
}

// target is where r goes: the host a forward-proxy client was going to,
// else --upstream, else the provider its path and headers name.
func (p *Proxy) target(r *http.Request) *url.URL {
	if u, ok := r.Context().Value(upstreamKey{}).(*url.URL); ok {
		return u
	}
	if p.opts.Upstream != nil {
		return p.opts.Upstream
	}
	return upstreamFor(r)
}

// failed answers a request the upstream did not (x nil: not recorded):
// 502 with a JSON error, or nothing to a client that went away.
func failed(w http.ResponseWriter, x *Exchange, err error) {
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
	// The body is kept as it arrives: no room is reserved for the length
	// a header declares (a few header-only requests declaring 512 MiB
	// each took gigabytes).
	spoolPath := p.rec.path
	if p.opts.Mock {
		// The mock reads the request it answers: kept in memory.
		spoolPath = ""
	}
	tee := newTee(r.Body, x, false, spoolPath, r.ContentLength)
	r.Body = tee
	defer func() {
		// Also on the abort of a stream cut short (http.ErrAbortHandler):
		// the record is written and the panic goes on.
		x.End = time.Now()
		tee.keepRequest()
		if x.Status == 0 {
			x.Status = http.StatusBadGateway
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
	if upgrade(r.Header) {
		p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, x)))
		return
	}
	p.forward(w, r, x)
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
