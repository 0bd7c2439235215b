package capture

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Listen opens addr for the proxy (empty: a free loopback port). An
// address that is not loopback is opened only when named explicitly, and
// then warning says that anyone who can reach it can use the proxy.
func Listen(addr string) (ln net.Listener, warning string, err error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, "", fmt.Errorf("--listen %q: %v (give HOST:PORT, such as 127.0.0.1:8787)", addr, err)
	}
	if !isLoopback(host) {
		warning = fmt.Sprintf("listening on %s, which is not loopback: anyone who can reach it can use the proxy (and the credentials its clients send)", addr)
	}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("cannot listen on %s: %v", addr, unwrapOp(err))
	}
	return ln, warning, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// unwrapOp drops the "listen tcp ADDR:" head of a net error.
func unwrapOp(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// Server serves a Proxy on a listener.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	rec  *Recorder
	done chan error
	// onClose ends what the handler holds beyond the server's own
	// connections (the forward proxy's), until its context is done.
	onClose func(context.Context)
}

// Serve starts serving p on ln in a goroutine.
func Serve(ln net.Listener, p *Proxy) *Server {
	s := &Server{
		srv: &http.Server{
			Handler:           p.guard(ln.Addr(), p),
			ReadHeaderTimeout: 30 * time.Second,
			ErrorLog:          nil,
		},
		ln:   ln,
		rec:  p.rec,
		done: make(chan error, 1),
	}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s
}

// URL is the proxy's base URL, http://HOST:PORT.
func (s *Server) URL() string {
	a := s.ln.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(a.Port))
}

// Close stops accepting, waits up to grace for the exchanges in flight,
// then writes what is queued and closes the recording.
func (s *Server) Close(grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	if s.onClose != nil {
		s.onClose(ctx)
	}
	<-s.done
	return errors.Join(err, s.rec.Close())
}
