package capture

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
)

// The proxy's door: it serves the agents of this machine, not web pages. A
// page a browser shows can POST to a loopback port (its Origin header says
// where it came from), and through DNS rebinding reach it under a name of
// its own (its Host header says which); either would add requests to a
// capture and spend the keys of the agent's environment. Both are refused
// unless allowed (Options.AllowOrigins, AllowHosts). A path with a dot
// segment is refused too: joined to --upstream's path it would reach above
// it.

// guard wraps next (the proxy, or the forward proxy's requests in base-URL
// form, WebSocket upgrades included) with the door's checks; local is the
// listener's address (a Host naming it is accepted; nil names none).
func (p *Proxy) guard(local net.Addr, next http.Handler) http.Handler {
	var refused atomic.Int64
	localIP := ""
	if a, ok := local.(*net.TCPAddr); ok && !a.IP.IsUnspecified() {
		localIP = a.IP.String()
	}
	anyIP := false
	if a, ok := local.(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		// Listening beyond loopback was asked for by name (--listen): a
		// client then names the proxy by one of the machine's addresses.
		anyIP = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, why := http.StatusOK, ""
		switch {
		case len(r.Header.Values("Origin")) > 0: // an empty Origin too
			if o := r.Header.Get("Origin"); !containsFold(p.opts.AllowOrigins, o) {
				status, why = http.StatusForbidden, fmt.Sprintf("a request from a browser page (Origin %q) was refused (--allow-origin allows one)", o)
			}
		case !p.hostAllowed(r.Host, localIP, anyIP):
			status, why = http.StatusForbidden, fmt.Sprintf("a request for host %q, which is not loopback, was refused (--allow-host allows a name)", r.Host)
		case dotSegment(r.URL.Path) || dotSegment(r.URL.RawPath) || dotSegment(r.URL.EscapedPath()):
			status, why = http.StatusBadRequest, fmt.Sprintf("a request whose path has a . or .. segment (%q) was refused", r.URL.EscapedPath())
		}
		if status == http.StatusOK {
			next.ServeHTTP(w, r)
			return
		}
		// Said once for the first few, then counted: a page may send many.
		if n := refused.Add(1); n <= 5 {
			if n == 5 {
				why += "; further refusals are not reported"
			}
			p.opts.Log(why)
		}
		// The body is not read: nothing of it is recorded or forwarded.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Connection", "close")
		w.WriteHeader(status)
		w.Write(errorBody(why))
	})
}

// hostAllowed reports whether a Host header names the proxy: a loopback
// address or localhost, the listener's own address, a name allowed, or
// (listening beyond loopback) any IP address.
func (p *Proxy) hostAllowed(hostport, localIP string, anyIP bool) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case host == "":
		return false
	case isLoopback(host), strings.EqualFold(strings.TrimSuffix(host, "."), "localhost"), host == localIP:
		return true
	case containsFold(p.opts.AllowHosts, host):
		return true
	}
	_, err := netip.ParseAddr(host)
	return anyIP && err == nil
}

// dotSegment reports whether a path has a "." or ".." segment, its dots
// written plainly or percent-encoded, between slashes or encoded slashes.
func dotSegment(path string) bool {
	if path == "" {
		return false
	}
	p := strings.ReplaceAll(strings.ToLower(path), "%2e", ".")
	p = strings.ReplaceAll(p, "%2f", "/")
	p = strings.ReplaceAll(p, "%5c", "/")
	p = strings.ReplaceAll(p, "\\", "/")
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(strings.TrimRight(v, "/"), strings.TrimRight(s, "/")) {
			return true
		}
	}
	return false
}
