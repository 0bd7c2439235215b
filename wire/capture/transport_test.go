package capture

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// connCounter is an upstream that counts the connections it accepts
// (ConnState's StateNew) and the protocol of each request.
type connCounter struct {
	srv   *httptest.Server
	conns atomic.Int64
	h2    atomic.Int64
}

func newConnCounter(t *testing.T, tlsH2 bool) *connCounter {
	c := &connCounter{}
	c.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.ProtoMajor == 2 {
			c.h2.Add(1)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	c.srv.Config.ErrorLog = discardLog // the handshakes of dials given up
	c.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			c.conns.Add(1)
		}
	}
	if tlsH2 {
		c.srv.EnableHTTP2 = true
		c.srv.StartTLS()
	} else {
		c.srv.Start()
	}
	t.Cleanup(c.srv.Close)
	return c
}

// hammer sends n requests through base, conc at a time, and fails on any
// answer that is not whole.
func hammer(t *testing.T, base string, n, conc int) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	var failed atomic.Value
	next := atomic.Int64{}
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				resp, err := client.Post(base+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
				if err != nil {
					failed.Store(err.Error())
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || !strings.Contains(string(b), "message_stop") {
					failed.Store(fmt.Sprintf("status %d, %v, %q", resp.StatusCode, err, b))
					return
				}
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		t.Fatal(f)
	}
}

// proxyTo starts a recording proxy (its own default Transport) in front of
// up.
func proxyTo(t *testing.T, up string, tlsConf *tls.Config) *Server {
	t.Helper()
	rec, err := Create(filepath.Join(t.TempDir(), "c.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(up)
	ln, _, err := Listen("")
	if err != nil {
		t.Fatal(err)
	}
	s := Serve(ln, New(rec, Options{Upstream: u, UpstreamTLS: tlsConf}))
	t.Cleanup(func() { s.Close(5 * time.Second) })
	return s
}

// The proxy reuses its upstream connections: 2,000 requests at 32 at a time
// open about one connection for each request in flight, not one for most
// requests (Go's default pool of 2 idle connections per host opened
// 1,525). Direct, the same client opens as many.
func TestProxyReusesUpstreamConnections(t *testing.T) {
	const n, conc = 2000, 32
	up := newConnCounter(t, false)
	s := proxyTo(t, up.srv.URL, nil)
	hammer(t, s.URL(), n, conc)
	got := up.conns.Load()
	t.Logf("%d new upstream connections for %d requests at %d at a time", got, n, conc)
	if got > conc+conc/2 {
		t.Errorf("%d new upstream connections for %d requests at %d at a time, want at most %d", got, n, conc, conc+conc/2)
	}
}

// Where the upstream offers HTTP/2 (ALPN over TLS) the proxy speaks it,
// with a TLS configuration of its own (which net/http alone would take as a
// reason to stay on HTTP/1.1), and once a connection is up its requests
// share it. (The first requests of a burst each dial: net/http learns that
// a host speaks HTTP/2 from the first connection's handshake.)
func TestProxyUpstreamHTTP2(t *testing.T) {
	const n, conc = 500, 32
	up := newConnCounter(t, true)
	roots := x509.NewCertPool()
	roots.AddCert(up.srv.Certificate())
	s := proxyTo(t, up.srv.URL, &tls.Config{RootCAs: roots})
	hammer(t, s.URL(), 1, 1)
	hammer(t, s.URL(), n-1, conc)
	if h2 := up.h2.Load(); h2 != n {
		t.Errorf("%d of %d requests reached the upstream over HTTP/2", h2, n)
	}
	if got := up.conns.Load(); got > 2 {
		t.Errorf("%d new upstream connections for %d HTTP/2 requests, want at most 2", got, n)
	}
}

// TestSetGC: SetGC raises the heap goal under a limit, and leaves a GOGC or
// GOMEMLIMIT the user set alone.
func TestSetGC(t *testing.T) {
	pct, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(pct); debug.SetMemoryLimit(limit) }()
	for _, c := range []struct {
		gogc, memlimit string
		pct            int
		limit          int64
	}{{"", "", 400, 256 << 20}, {"50", "", 100, math.MaxInt64}, {"", "1GiB", 100, math.MaxInt64}} {
		t.Setenv("GOGC", c.gogc)
		t.Setenv("GOMEMLIMIT", c.memlimit)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		SetGC()
		if got := debug.SetGCPercent(100); got != c.pct {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, want %d", c.gogc, c.memlimit, got, c.pct)
		}
		if got := debug.SetMemoryLimit(math.MaxInt64); got != c.limit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: memory limit %d, want %d", c.gogc, c.memlimit, got, c.limit)
		}
	}
}
