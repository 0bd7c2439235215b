package capture

import (
	"crypto/tls"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
)

// The upstream side of the proxy: one Transport for the run, whose pool of
// idle connections suits agents' concurrency. Go's default keeps two idle
// connections per host, so an agent with a few dozen requests in flight
// (subagents, parallel tools, title and routing requests) opened a new
// connection, each a TCP and TLS handshake with the provider, for most of
// them (1,525 new connections for 2,000 requests at 32 at a time, issue 27).

// MaxIdlePerHost is how many idle connections to one upstream host the
// proxy keeps for reuse.
const MaxIdlePerHost = 64

// upstreamTransport is the proxy's Transport: http.DefaultTransport's
// settings (HTTPS_PROXY and the like still apply: a provider may be
// reachable only through one), MaxIdlePerHost idle connections per host,
// and HTTP/2 where the upstream offers it. net/http turns HTTP/2 off by
// itself for a Transport with its own TLS configuration unless
// ForceAttemptHTTP2 is set; tlsConf nil verifies against the system's
// roots.
func upstreamTransport(tlsConf *tls.Config) *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 4 * MaxIdlePerHost
	tr.MaxIdleConnsPerHost = MaxIdlePerHost
	if tlsConf == nil {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	tr.TLSClientConfig = tlsConf.Clone()
	tr.ForceAttemptHTTP2 = true
	return tr
}

// copyBuffers are the buffers the reverse proxy copies bodies through,
// reused across exchanges (each would otherwise allocate 32 KiB).
type copyBuffers struct{ p sync.Pool }

func (b *copyBuffers) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, 32<<10)
}

func (b *copyBuffers) Put(p []byte) { b.p.Put(&p) }

// SetGC sets the garbage collector for a process that runs the proxy,
// unless GOGC or GOMEMLIMIT says otherwise: a heap goal of five times the
// live heap, not twice (each exchange allocates its bodies, and the proxy's
// live heap is a few MiB: a collection every 20 exchanges at 40 KB each
// before), under a limit of 256 MiB, above what the queue's, the spools'
// and the exchanges' bounds together hold.
func SetGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(256 << 20)
	}
}
