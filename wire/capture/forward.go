package capture

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wirelens/wirelens/wire/capture/runca"
)

// The forward proxy of record: the agent's HTTPS_PROXY. A CONNECT to a
// model provider's host (HostSet) is answered with a TLS server of the
// run's CA (a leaf for that host, HTTP/2 or HTTP/1.1 by ALPN), and each
// request on it goes through the recording Proxy, to the real host over TLS
// verified against the system's roots, or to the mock. Every other CONNECT
// is tunnelled untouched, or refused when the run is a mock (offline).
// Requests that name no host (an agent following a base-URL variable to
// this same address) go to the Proxy as in base-URL mode.

// upstreamKey carries, in a request's context, the host an intercepted
// request goes to (the CONNECT target), overriding the Proxy's choice.
type upstreamKey struct{}

// targetKey carries the intercepted connection of a request.
type targetKey struct{}

// Forward is record's forward proxy, an http.Handler.
type Forward struct {
	p     *Proxy
	ca    *runca.CA
	hosts *HostSet
	mock  bool
	log   func(string)

	// Dial opens tunnels and WebSocket upstreams (tests); nil is a
	// net.Dialer with a 30-second timeout.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// UpstreamTLS is the TLS configuration of a WebSocket upstream
	// (tests); nil verifies against the system's roots.
	UpstreamTLS *tls.Config

	inner *http.Server
	ln    *connListener
	pass  *httputil.ReverseProxy
	// base serves the requests in base-URL form, WebSocket upgrades
	// included: serveBase behind the Proxy's guard (no browser page, no
	// foreign Host), made again by ServeForward for its listener's address.
	base http.Handler

	handshakes sync.WaitGroup // CONNECTs being answered, waited for by close
	// relays are the WebSocket connections being relayed: close ends their
	// connections, then waits until each has recorded its last exchange
	// (http.Server.Shutdown does not wait for hijacked connections).
	relays sync.WaitGroup

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	stats  forwardStats
}

type forwardStats struct {
	requests    int            // requests and CONNECTs that reached the proxy
	intercepted map[string]int // host: TLS connections terminated
	tunnelled   map[string]int // host: CONNECTs passed through untouched
	refused     map[string]int // host: CONNECTs refused (mock)
	tlsFailed   map[string]string
}

// NewForward returns the forward proxy in front of p. ca nil tunnels every
// CONNECT (nothing is intercepted); hosts nil is the provider table alone.
func NewForward(p *Proxy, ca *runca.CA, hosts *HostSet, log func(string)) *Forward {
	if log == nil {
		log = func(string) {}
	}
	if hosts == nil {
		hosts = NewHostSet(nil)
	}
	f := &Forward{p: p, ca: ca, hosts: hosts, mock: p.opts.Mock, log: log,
		conns: map[net.Conn]struct{}{},
		stats: forwardStats{intercepted: map[string]int{}, tunnelled: map[string]int{}, refused: map[string]int{}, tlsFailed: map[string]string{}},
	}
	f.base = p.guard(nil, http.HandlerFunc(f.serveBase))
	f.ln = newConnListener()
	f.inner = &http.Server{
		Handler:           http.HandlerFunc(f.serveIntercepted),
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          discardLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if tc, ok := c.(*tls.Conn); ok {
				if t, ok := tc.NetConn().(*targetConn); ok {
					ctx = context.WithValue(ctx, targetKey{}, t)
				}
			}
			return ctx
		},
	}
	go f.inner.Serve(f.ln)
	f.pass = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = pr.In.URL
			pr.Out.Host = pr.In.URL.Host
		},
		ErrorLog:      discardLog,
		FlushInterval: -1,
	}
	return f
}

var discardLog = log.New(io.Discard, "", 0)

// ServeForward serves f on ln; Close also ends the intercepted and
// tunnelled connections.
func ServeForward(ln net.Listener, f *Forward) *Server {
	s := &Server{
		srv: &http.Server{
			Handler:           f,
			ReadHeaderTimeout: 30 * time.Second,
			ErrorLog:          discardLog,
		},
		ln:      ln,
		rec:     f.p.rec,
		done:    make(chan error, 1),
		onClose: f.close,
	}
	f.base = f.p.guard(ln.Addr(), http.HandlerFunc(f.serveBase))
	go func() { s.done <- s.srv.Serve(ln) }()
	return s
}

// ServeHTTP answers a CONNECT, a request in proxy form (an absolute URL)
// or a request in base-URL form (a path).
func (f *Forward) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.stats.requests++
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodConnect:
		f.connect(w, r)
	case r.URL.IsAbs() && r.URL.Host != "":
		f.plain(w, r)
	default:
		f.base.ServeHTTP(w, r)
	}
}

// serveBase answers a request in base-URL form that the guard let in.
func (f *Forward) serveBase(w http.ResponseWriter, r *http.Request) {
	if isWebSocket(r) {
		f.websocket(w, r, "")
		return
	}
	f.p.ServeHTTP(w, r)
}

func (f *Forward) count(m map[string]int, host string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	m[host]++
	return m[host]
}

// connect answers a CONNECT to HOST:PORT.
func (f *Forward) connect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, "443"
	}
	host = strings.ToLower(host)
	intercept := f.ca != nil && f.hosts.Provider(host) != ""
	if !intercept && f.mock {
		f.refuse(w, host, port)
		return
	}
	if !intercept {
		f.tunnel(w, r, host, port)
		return
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		http.Error(w, "wirelens: the proxy is stopping", http.StatusServiceUnavailable)
		return
	}
	f.handshakes.Add(1) // under the lock that close takes before it waits
	f.mu.Unlock()
	defer f.handshakes.Done()
	raw, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "wirelens: cannot take over the connection: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if !f.track(raw) {
		raw.Close()
		return
	}
	if _, err := raw.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		f.untrack(raw)
		raw.Close()
		return
	}
	t := &targetConn{Conn: raw, r: brw.Reader, host: host, port: port, f: f}
	tc := tls.Server(t, &tls.Config{
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return f.ca.Leaf(host) },
		NextProtos:     []string{"h2", "http/1.1"},
		MinVersion:     tls.VersionTLS12,
	})
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	if err := tc.HandshakeContext(ctx); err != nil {
		f.handshakeFailed(host, err)
		tc.Close()
		return
	}
	f.count(f.stats.intercepted, host)
	f.ln.push(tc)
}

// handshakeFailed notes a TLS handshake the client gave up, once per host
// on standard error.
func (f *Forward) handshakeFailed(host string, err error) {
	msg := err.Error()
	f.mu.Lock()
	_, seen := f.stats.tlsFailed[host]
	f.stats.tlsFailed[host] = msg
	f.mu.Unlock()
	if !seen {
		f.log(fmt.Sprintf("TLS to %s refused by the client (%s): it does not trust the run's CA (it pins certificates, or reads neither NODE_EXTRA_CA_CERTS nor SSL_CERT_FILE); nothing of it is recorded", host, msg))
	}
}

// refuse answers a CONNECT to a host that is not intercepted in a mock
// run, which stays offline.
func (f *Forward) refuse(w http.ResponseWriter, host, port string) {
	if f.count(f.stats.refused, host) == 1 {
		f.log(fmt.Sprintf("refused %s: not a model provider's host, and --mock keeps the run offline (--intercept-host %s would answer it with the mock)", net.JoinHostPort(host, port), host))
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintf(w, "wirelens record --mock: %s is not a model provider's host and the run is offline\n", host)
}

// tunnel passes a CONNECT through untouched.
func (f *Forward) tunnel(w http.ResponseWriter, r *http.Request, host, port string) {
	f.count(f.stats.tunnelled, host)
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	up, err := f.dial(ctx, "tcp", net.JoinHostPort(host, port))
	cancel()
	if err != nil {
		http.Error(w, "wirelens: "+err.Error(), http.StatusBadGateway)
		return
	}
	raw, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		http.Error(w, "wirelens: cannot take over the connection: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if !f.track(raw) || !f.track(up) {
		raw.Close()
		up.Close()
		return
	}
	defer func() {
		f.untrack(raw)
		f.untrack(up)
		raw.Close()
		up.Close()
	}()
	if _, err := raw.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		return
	}
	relay(&readConn{raw, brw.Reader}, up)
}

// relay copies both ways until either side ends, then ends both.
func relay(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	a.Close()
	b.Close()
	<-done
}

// readConn reads through a buffered reader (what arrived with the
// CONNECT) and writes to the connection.
type readConn struct {
	net.Conn
	r io.Reader
}

func (c *readConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *readConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (f *Forward) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if f.Dial != nil {
		return f.Dial(ctx, network, addr)
	}
	d := net.Dialer{Timeout: 30 * time.Second}
	return d.DialContext(ctx, network, addr)
}

// plain answers a request in proxy form (http://HOST/PATH, no TLS): a
// provider's host is recorded as in base-URL mode, any other passed on
// (refused with --mock).
func (f *Forward) plain(w http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(r.URL.Hostname())
	if f.hosts.Provider(host) != "" {
		u := &url.URL{Scheme: "http", Host: r.URL.Host}
		r2 := r.WithContext(context.WithValue(r.Context(), upstreamKey{}, u))
		r2.Host = r.URL.Host
		r2.URL = &url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery}
		r2.RequestURI = r2.URL.RequestURI()
		f.p.ServeHTTP(w, r2)
		return
	}
	port := r.URL.Port()
	if port == "" {
		port = "80"
	}
	if f.mock {
		f.refuse(w, host, port)
		return
	}
	f.count(f.stats.tunnelled, host)
	f.pass.ServeHTTP(w, r)
}

// serveIntercepted serves a request on a terminated TLS connection.
func (f *Forward) serveIntercepted(w http.ResponseWriter, r *http.Request) {
	t, _ := r.Context().Value(targetKey{}).(*targetConn)
	if t == nil {
		http.Error(w, "wirelens: no target", http.StatusInternalServerError)
		return
	}
	hostport := t.host
	if t.port != "443" {
		hostport = net.JoinHostPort(t.host, t.port)
	}
	if isWebSocket(r) {
		f.websocket(w, r, hostport)
		return
	}
	u := &url.URL{Scheme: "https", Host: hostport}
	r2 := r.WithContext(context.WithValue(r.Context(), upstreamKey{}, u))
	r2.Host = hostport
	f.p.ServeHTTP(w, r2)
}

// targetConn is an intercepted client connection and where it was going.
type targetConn struct {
	net.Conn
	r          io.Reader
	host, port string
	f          *Forward
}

func (c *targetConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *targetConn) Close() error {
	c.f.untrack(c.Conn)
	return c.Conn.Close()
}

func (f *Forward) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

// holdRelay counts a WebSocket relay that close waits for; false when the
// proxy is stopping (then nothing is relayed).
func (f *Forward) holdRelay() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.relays.Add(1) // under the lock that close takes before it waits
	return true
}

func (f *Forward) untrack(c net.Conn) {
	f.mu.Lock()
	delete(f.conns, c)
	f.mu.Unlock()
}

// close lets the intercepted exchanges in flight end (until ctx is done),
// then ends every connection the forward proxy holds.
func (f *Forward) close(ctx context.Context) {
	f.ln.Close()
	if err := f.inner.Shutdown(ctx); err != nil {
		f.inner.Close()
	}
	f.mu.Lock()
	f.closed = true
	conns := make([]net.Conn, 0, len(f.conns))
	for c := range f.conns {
		conns = append(conns, c)
	}
	f.conns = map[net.Conn]struct{}{}
	f.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	f.handshakes.Wait()
	f.relays.Wait()
}

// Diagnosis says, when nothing was recorded, why that most likely was and
// what to try: one line each.
func (f *Forward) Diagnosis(addr string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stats
	var out []string
	if s.requests == 0 && f.ca == nil {
		out = append(out,
			"no request reached the proxy: the command followed none of the base-URL variables (this run was in base-URL mode: the command exited before a request, or takes its base URL from elsewhere)",
			"try: --intercept (the forward proxy with a CA of the run), the agent's own base-URL option pointed at "+addr+", or record --explain -- COMMAND to see what record applies")
	} else if s.requests == 0 {
		out = append(out,
			"no request reached the proxy: the command followed none of the base-URL variables and not HTTPS_PROXY either (Node before 24 ignores HTTPS_PROXY in fetch unless the program sets a proxy up itself; a program started through a wrapper may have dropped the environment)",
			"try: the agent's own base-URL or proxy option pointed at "+addr+", --intercept (if it is not already on), or a recipe (record --explain -- COMMAND shows what record applies)")
	}
	if len(s.tlsFailed) > 0 {
		var hs []string
		for _, h := range sortedKeys(s.tlsFailed) {
			hs = append(hs, h+" ("+s.tlsFailed[h]+")")
		}
		out = append(out,
			"TLS was refused by the client for "+strings.Join(hs, ", ")+": it does not trust the run's CA (certificate pinning, or a TLS stack that reads neither NODE_EXTRA_CA_CERTS nor SSL_CERT_FILE)",
			"try: the agent's own CA option with the run's CA (NODE_EXTRA_CA_CERTS holds its path while it runs), or base-URL mode if the agent takes a base URL")
	}
	if len(s.tunnelled) > 0 {
		out = append(out, "requests went only to hosts that were tunnelled, not intercepted: "+countList(s.tunnelled)+"; if one is the model's API, add --intercept-host HOST")
	}
	if len(s.refused) > 0 {
		out = append(out, "with --mock these hosts were refused (the run is offline): "+countList(s.refused)+"; if one is the model's API, add --intercept-host HOST so the mock answers it")
	}
	if len(out) == 0 && s.requests > 0 {
		out = append(out, "requests reached the proxy but none was a whole exchange (the client went away before an answer)")
	}
	return out
}

// Intercepted lists the hosts whose TLS was terminated, with counts.
func (f *Forward) Intercepted() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return countList(f.stats.intercepted)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func countList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s (%d)", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// connListener hands the intercepted TLS connections to the inner server.
type connListener struct {
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

func newConnListener() *connListener {
	return &connListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *connListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *connListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }
