package capture

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestUpstreamForPath: without --upstream, each request goes to the
// provider its path (or, for a path any provider could have, its headers)
// names.
func TestUpstreamForPath(t *testing.T) {
	for _, c := range []struct {
		path   string
		header http.Header
		want   string
	}{
		{"/v1/messages", nil, "api.anthropic.com"},
		{"/v1/messages/count_tokens", nil, "api.anthropic.com"},
		{"/v1/chat/completions", nil, "api.openai.com"},
		{"/v1/responses", nil, "api.openai.com"},
		{"/v1beta/models/gemini-2.5-pro:streamGenerateContent", nil, "generativelanguage.googleapis.com"},
		{"/v1/models", http.Header{"X-Goog-Api-Key": {"k"}}, "generativelanguage.googleapis.com"},
		{"/v1/models", http.Header{"Anthropic-Version": {"2023-06-01"}}, "api.anthropic.com"},
		{"/v1/models", nil, "api.openai.com"},
	} {
		r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1"+c.path, nil)
		for k, v := range c.header {
			r.Header[k] = v
		}
		if got := upstreamFor(r).Host; got != c.want {
			t.Errorf("%s %v: %s, want %s", c.path, c.header, got, c.want)
		}
	}
}

// TestProxyServesOnAfterGarbage: a client that sends bytes that are not
// HTTP gets an error and nothing is recorded for it; the next request is
// served and recorded.
func TestProxyServesOnAfterGarbage(t *testing.T) {
	r := newRig(t, nil)
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(conn, "\x00\x01garbage that is not HTTP\r\n\r\n")
	line, _ := bufio.NewReader(conn).ReadString('\n')
	conn.Close()
	if !strings.Contains(line, "400") {
		t.Errorf("garbage got %q, want a 400", line)
	}
	resp, _ := r.post("/v1/messages", []byte(`{"model":"m","messages":[]}`), nil)
	if resp.StatusCode != 200 {
		t.Errorf("after garbage: %d", resp.StatusCode)
	}
	if recs := r.records(); len(recs) != 1 {
		t.Errorf("%d records, want only the real request", len(recs))
	}
}
