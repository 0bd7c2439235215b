package capture

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOutgoingBodyInMemory: a request body of a declared length the proxy
// keeps in memory goes on as bytes in memory (read whole first, so that the
// transport sends the head with it); a larger one, one of no declared
// length and one that expects 100-continue stream through the tee.
func TestOutgoingBodyInMemory(t *testing.T) {
	p := New(newRecorder("", nopFile{}, 0, nil), Options{})
	defer p.rec.Close()
	body := `{"model":"m","messages":[]}`
	for _, c := range []struct {
		name     string
		length   int64
		expect   string
		inMemory bool
	}{
		{"declared", int64(len(body)), "", true},
		{"expects 100-continue", int64(len(body)), "100-continue", false},
		{"no declared length", -1, "", false},
		{"past memKeep", int64(memKeep) + 1, "", false},
	} {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/v1/messages", strings.NewReader(body))
		r.ContentLength = c.length
		if c.expect != "" {
			r.Header.Set("Expect", c.expect)
		}
		x := &Exchange{}
		r.Body = newTee(r.Body, x, false, "", r.ContentLength)
		out := p.outgoing(r)
		_, inMemory := out.Body.(io.WriterTo) // io.NopCloser of a *bytes.Reader
		if inMemory != c.inMemory {
			t.Errorf("%s: the outgoing body is in memory: %t, want %t", c.name, inMemory, c.inMemory)
		}
		if got, _ := io.ReadAll(out.Body); string(got) != body {
			t.Errorf("%s: the outgoing body is %q, want %q", c.name, got, body)
		}
	}
}

type nopFile struct{}

func (nopFile) Write(p []byte) (int, error) { return len(p), nil }
func (nopFile) Close() error                { return nil }
func (nopFile) Truncate(int64) error        { return nil }

// TestProxyRequestBodyCutShort: a client that declares more than it sends
// and closes: the upstream gets no whole request, the record keeps what
// came, with the transport's error, as when the body streamed.
func TestProxyRequestBodyCutShort(t *testing.T) {
	reached := make(chan int, 1)
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		reached <- len(b)
	}))
	addr := strings.TrimPrefix(r.url, "http://")
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	sent := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 500)
	fmt.Fprintf(c, "POST /v1/messages HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(sent)+100, sent)
	c.(*net.TCPConn).CloseWrite()
	answer, _ := io.ReadAll(c)
	c.Close()
	recs := r.records()
	if len(recs) != 1 {
		t.Fatalf("%d exchanges recorded, want 1", len(recs))
	}
	// The client half-closed: the server cancels the request's context
	// when its body ends short, and the transport, streaming that body,
	// saw either the cut (502) or the cancellation first (499, nothing
	// written: the server's empty 200); read whole first, the cancellation.
	x := recs[0]
	cut := x.Response.Status == http.StatusBadGateway && strings.Contains(x.Wirelens.Error, "unexpected EOF") &&
		strings.HasPrefix(string(answer), "HTTP/1.1 502")
	gone := x.Response.Status == 499 && strings.Contains(x.Wirelens.Error, "the client went away")
	if !cut && !gone {
		t.Errorf("recorded status %d, error %q, answer %.40q: want the cut (502) or the client gone (499)", x.Response.Status, x.Wirelens.Error, answer)
	}
	if !strings.Contains(string(x.Request.Body), strings.Repeat("x", 500)) {
		t.Errorf("the recorded request body is %.80q, want the %d bytes sent", x.Request.Body, len(sent))
	}
	select {
	case n := <-reached:
		if n >= len(sent)+100 {
			t.Errorf("the upstream read %d bytes, more than were sent", n)
		}
	default:
	}
}
