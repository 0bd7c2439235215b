package capture

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"os"

	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// waitRecorded waits (up to 20 s) until the rig's recorder has written n
// exchanges.
func waitRecorded(t *testing.T, r *rig, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		w, lost := r.server.rec.Counts()
		if w+lost >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d exchanges recorded after 20 s", w+lost, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A request that declares a huge Content-Length and sends none of it costs
// the proxy what it sent, not what it declared: the body is grown as it
// arrives. (It reserved the whole declared length, up to 512 MiB, before
// reading a byte: a few such 110-byte requests killed it.) Loopback only,
// 8 requests of 100 MiB declared each, under a 16 MiB budget of allocation.
func TestProxyDeclaredLengthIsNotReserved(t *testing.T) {
	r := newRig(t, nil)
	addr := strings.TrimPrefix(r.url, "http://")
	const n, declared = 8, 100 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "POST /v1/messages HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"model\":\"m%d\"", addr, declared, i)
		c.(*net.TCPConn).CloseWrite()
		buf := make([]byte, 512)
		for {
			if _, err := c.Read(buf); err != nil {
				break
			}
		}
		c.Close()
	}
	waitRecorded(t, r, n)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("%d header-only requests declaring %d MiB each allocated %d MiB", n, declared>>20, grew>>20)
	}
	if recs := r.records(); len(recs) != n {
		t.Errorf("%d exchanges recorded, want %d", len(recs), n)
	}
}

// A body past the cap passes through whole; the record keeps the cap's
// worth and a note of the bytes kept and dropped, and the proxy lives on.
func TestProxyBodyCapRecordsTheCut(t *testing.T) {
	defer func(a, b int) { keptRequest, keptResponse = a, b }(keptRequest, keptResponse)
	keptRequest, keptResponse = 1<<10, 2<<10
	answer := `{"usage":{"input_tokens":1},"pad":"` + strings.Repeat("r", 5000) + `"}`
	got := 0
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n, _ := io.Copy(io.Discard, req.Body)
		got = int(n)
		io.WriteString(w, answer)
	}))
	body := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("q", 3000) + `"}]}`
	resp, b := r.post("/v1/messages", []byte(body), nil)
	if resp.StatusCode != 200 || string(b) != answer || got != len(body) {
		t.Fatalf("status %d, %d bytes answered (want %d), upstream got %d (want %d)", resp.StatusCode, len(b), len(answer), got, len(body))
	}
	recs := r.records()
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	e := recs[0].Wirelens.Error
	for _, want := range []string{
		fmt.Sprintf("request body cut: 1024 bytes recorded (the most a recording keeps), %d more passed through unrecorded", len(body)-1024),
		fmt.Sprintf("response body cut: 2048 bytes recorded (the most a recording keeps), %d more passed through unrecorded", len(answer)-2048),
	} {
		if !strings.Contains(e, want) {
			t.Errorf("note %q\nwant it to say %q", e, want)
		}
	}
}

// A hostile upstream's answer: gzip of megabytes of control bytes (the
// transport undoes the gzip; each control byte was written as a 6-byte
// \u0001). The cap counts the decoded bytes, and the line stays within 4/3
// of what is kept (the body as base64 when quoting it would be larger), so
// it never nears the readers' 1 GiB line limit.
func TestProxyHostileUpstreamLineIsBounded(t *testing.T) {
	defer func(a, b int) { keptRequest, keptResponse = a, b }(keptRequest, keptResponse)
	keptResponse = 1 << 20
	const decoded = 8 << 20
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte{1}, decoded))
	zw.Close()
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	}))
	resp, b := r.post("/v1/messages", []byte(`{"model":"m"}`), nil)
	if resp.StatusCode != 200 || len(b) != decoded {
		t.Fatalf("status %d, %d bytes reached the client, want %d", resp.StatusCode, len(b), decoded)
	}
	r.close()
	data, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	if limit := keptResponse*4/3 + 4<<10; len(data) > limit {
		t.Errorf("the line is %d bytes for %d kept (more than %d)", len(data), keptResponse, limit)
	}
	recs := r.records()
	if len(recs) != 1 || !strings.Contains(recs[0].Wirelens.Error, fmt.Sprintf("response body cut: %d bytes recorded", keptResponse)) {
		t.Fatalf("records %+v", recs)
	}
	if !bytes.Contains(data, []byte(`"body_base64":"AQEB`)) {
		t.Errorf("the answer is not kept as base64: %.300q", data)
	}
}

// The escaped length of a text is what jsontext.AppendQuote writes.
func TestQuotedLen(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\x00\x01\x1f\b\f\n\r\t", "é\u2028<>&\x7f", strings.Repeat("\x02x", 100)} {
		q, _ := jsontext.AppendQuote(nil, s)
		if got := quotedLen([]byte(s)); got != len(q) {
			t.Errorf("quotedLen(%q) = %d, AppendQuote wrote %d (%s)", s, got, len(q), q)
		}
	}
}

// What a capture keeps of credentials: a header named like one (not in any
// list) is hinted, a Basic credential and an unknown first word keep
// nothing, credential-named members of a JSON request body (and of the
// tool-call arguments inside it) are masked, and the upstream gets all as
// sent.
func TestRecordingMasksCredentialNamesAndBodies(t *testing.T) {
	var got http.Header
	var gotBody []byte
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got = req.Header.Clone()
		gotBody, _ = io.ReadAll(req.Body)
		io.WriteString(w, `{"usage":{"input_tokens":1}}`)
	}))
	h := http.Header{}
	h.Set("X-Custom-Creds", "TESTSECRETcreds0123456789")
	h.Set("X-Api-Key", "TESTSECRETword! and then the rest")
	h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("alice:TESTSECRET-123")))
	body := `{"model":"m","api_key":"TESTSECRETbody","metadata":{"password":"TESTSECRETpw"},"max_tokens":5,` +
		`"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"login","arguments":"{\"apiKey\":\"TESTSECRETargs\"}"}}]}]}`
	r.post("/v1/chat/completions", []byte(body), h)
	if got.Get("X-Custom-Creds") != "TESTSECRETcreds0123456789" || string(gotBody) != body {
		t.Errorf("the upstream did not get the request as sent")
	}
	r.close()
	rec, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.Index(rec, []byte("TESTSECRET")); i >= 0 {
		t.Errorf("the recording holds a credential: %q", rec[max(0, i-60):min(len(rec), i+40)])
	}
	for _, want := range []string{`"authorization":"Basic …"`, `"max_tokens":5`, `"model":"m"`} {
		if !bytes.Contains(rec, []byte(want)) {
			t.Errorf("the recording lacks %s: %s", want, rec)
		}
	}
}

// rawRequest sends one request to the rig with the given Host and headers
// and returns its status.
func rawRequest(t *testing.T, r *rig, path, host string, h http.Header) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.url+path, strings.NewReader(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// A web page cannot add requests to a capture: a request with an Origin
// (browsers send one on every cross-origin POST) or a Host that is not
// loopback (DNS rebinding) is refused with 403 and not recorded, unless
// the origin or host is allowed; a path with a dot segment (.., ., in any
// spelling) is refused with 400 instead of reaching above --upstream's
// path.
func TestProxyRefusesBrowsersForeignHostsAndDotSegments(t *testing.T) {
	var paths []string
	r := newRigOpts(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		paths = append(paths, req.URL.Path)
		io.WriteString(w, `{}`)
	}), func(o *Options) {
		o.AllowOrigins = []string{"https://ok.example"}
		o.AllowHosts = []string{"host.docker.internal"}
	})
	port := r.url[strings.LastIndexByte(r.url, ':')+1:]
	for _, c := range []struct {
		path, host, origin string
		want               int
	}{
		{"/v1/messages", "", "", 200},
		{"/v1/messages", "localhost:" + port, "", 200},
		{"/v1/messages", "[::1]:" + port, "", 200},
		{"/v1/messages", "host.docker.internal:" + port, "", 200},
		{"/v1/messages", "", "https://ok.example", 200},
		{"/v1/messages", "", "https://evil.example", 403},
		{"/v1/messages", "", "null", 403},
		{"/v1/messages", "evil.example:" + port, "", 403},
		{"/v1/messages", "127.0.0.1.evil.example", "", 403},
		{"/v1/messages", "10.0.0.8:" + port, "", 403},
		{"/v1/../../admin", "", "", 400},
		{"/v1/%2e%2e/admin", "", "", 400},
		{"/v1/./messages", "", "", 400},
		{"/v1/..%2fadmin", "", "", 400},
	} {
		h := http.Header{}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		if got := rawRequest(t, r, c.path, c.host, h); got != c.want {
			t.Errorf("%s Host %q Origin %q: status %d, want %d", c.path, c.host, c.origin, got, c.want)
		}
	}
	if recs := r.records(); len(recs) != 5 {
		t.Errorf("%d exchanges recorded, want the 5 accepted", len(recs))
	}
	for _, p := range paths {
		if strings.Contains(p, "..") || strings.Contains(p, "admin") {
			t.Errorf("the upstream got %q", p)
		}
	}
}
