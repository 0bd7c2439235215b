package capture

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestForwardRewritesAsReverseProxyDid: the request goes upstream under
// --upstream's path and query, without hop-by-hop or forwarding headers,
// its query re-encoded where it does not parse, without Go's User-Agent;
// Te: trailers passes, and the upstream's trailers reach the client.
func TestForwardRewritesAsReverseProxyDid(t *testing.T) {
	got := make(chan *http.Request, 1)
	r := newRigOpts(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		io.Copy(io.Discard, q.Body)
		got <- q
		w.Header().Set("Trailer", "X-Checksum")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
		w.Header().Set("X-Checksum", "abc")
	}), func(o *Options) {
		u := *o.Upstream
		u.Path, u.RawQuery = "/base", "k=1"
		o.Upstream = &u
	})
	req, _ := http.NewRequest(http.MethodPost, r.url+"/v1/messages?beta=true", strings.NewReader(`{"a":1}`))
	req.Header.Set("Connection", "X-Hop")
	req.Header.Set("X-Hop", "1")
	req.Header.Set("Keep-Alive", "timeout=5")
	req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0")
	req.Header.Set("X-Forwarded-For", "10.0.0.1")
	req.Header.Set("Forwarded", "for=10.0.0.1")
	req.Header.Set("Te", "trailers")
	req.Header.Set("User-Agent", "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	q := <-got
	if q.URL.Path != "/base/v1/messages" || q.URL.RawQuery != "k=1&beta=true" {
		t.Errorf("upstream got %s?%s, want /base/v1/messages?k=1&beta=true", q.URL.Path, q.URL.RawQuery)
	}
	for _, k := range []string{"X-Hop", "Keep-Alive", "Proxy-Authorization", "X-Forwarded-For", "Forwarded", "User-Agent"} {
		if v, ok := q.Header[k]; ok {
			t.Errorf("upstream got %s: %q", k, v)
		}
	}
	if q.Header.Get("Te") != "trailers" {
		t.Errorf("Te: %q, want trailers", q.Header.Get("Te"))
	}
	if string(body) != `{"ok":true}` || resp.Trailer.Get("X-Checksum") != "abc" {
		t.Errorf("client got %q, trailer %q", body, resp.Trailer.Get("X-Checksum"))
	}

	// A query with a ';' (read one way by Go, another by other servers)
	// is re-encoded without what does not parse.
	resp, _ = r.post("/v1/messages?a=1&b=2;c=3", []byte(`{}`), nil)
	if q := <-got; q.URL.RawQuery != "k=1&a=1" {
		t.Errorf("a query with ';' reached the upstream as %q, want k=1&a=1", q.URL.RawQuery)
	}
}

// countConn counts the writes to a client's connection.
type countConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

type countListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countConn{c, &l.writes}, nil
}

// TestForwardHeadGoesWithTheBody: an answer whose head and body come
// together reaches the client in one write (httputil.ReverseProxy's timer
// flushed the head alone first, a write and a wake-up of the client more);
// a head whose body does not come follows at headWait, so that the client
// knows the status while the upstream thinks.
func TestForwardHeadGoesWithTheBody(t *testing.T) {
	release := make(chan struct{})
	up := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		io.Copy(io.Discard, q.Body)
		if q.URL.Path == "/slow" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-release // until the client has the head
		}
		io.WriteString(w, `{"id":"msg_1"}`)
	})).upstream
	u, _ := url.Parse(up.URL)
	rec, err := Create(filepath.Join(t.TempDir(), "c.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, _, err := Listen("")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countListener{Listener: ln}
	srv := Serve(cl, New(rec, Options{Upstream: u}))
	defer srv.Close(5 * time.Second)

	old := headWait
	headWait = time.Hour // only the body's first bytes send the head
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for i := range 3 {
		before := cl.writes.Load()
		fmt.Fprintf(c, "POST /v1/messages HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", ln.Addr())
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if string(b) != `{"id":"msg_1"}` {
			t.Fatalf("answer %q", b)
		}
		if n := cl.writes.Load() - before; n != 1 {
			t.Errorf("exchange %d: the answer took %d writes to the client, want 1 (head and body together)", i, n)
		}
	}
	headWait = time.Millisecond
	defer func() { headWait = old }()
	done := make(chan error, 1)
	go func() {
		resp, err := http.Post(srv.URL()+"/slow", "application/json", strings.NewReader("{}"))
		if err == nil {
			close(release) // the head came before any byte of the body
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatal("the head of an answer whose body had not begun never reached the client")
	}
}

// TestProxyRelaysAnUpgrade: a protocol upgrade (a WebSocket to an
// --upstream) still passes both ways.
func TestProxyRelaysAnUpgrade(t *testing.T) {
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
		line, _ := brw.ReadString('\n')
		io.WriteString(c, "echo "+line)
	}))
	c, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /v1/responses HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", strings.TrimPrefix(r.url, "http://"))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("upgrade: %v %v %s", resp.Status, err, b)
	}
	io.WriteString(c, "hello\n")
	if line, _ := br.ReadString('\n'); line != "echo hello\n" {
		t.Errorf("through the upgraded connection: %q", line)
	}
}

// TestForwardHeadTimerAndTrailers: with the head's timer firing while
// the answer passes (headWait of a microsecond), an empty body with a
// trailer, and a body with one, reach the client whole every time (run
// with -race: the timer and the handler share the ResponseWriter under
// one lock, and the timer is done before the trailers are set).
func TestForwardHeadTimerAndTrailers(t *testing.T) {
	old := headWait
	headWait = time.Microsecond
	defer func() { headWait = old }()
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		io.Copy(io.Discard, q.Body)
		w.Header().Set("Trailer", "X-Sum")
		w.WriteHeader(200)
		if q.URL.Path == "/body" {
			w.(http.Flusher).Flush()
			io.WriteString(w, "data: 1\n\n")
		}
		w.Header().Set("X-Sum", q.URL.Path)
	}))
	for i := range 40 {
		path := []string{"/empty", "/body"}[i%2]
		resp, err := http.Post(r.url+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := map[string]string{"/empty": "", "/body": "data: 1\n\n"}[path]
		if string(b) != want || resp.Trailer.Get("X-Sum") != path {
			t.Fatalf("%s: body %q, trailer %q", path, b, resp.Trailer.Get("X-Sum"))
		}
	}
}
