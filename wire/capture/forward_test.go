package capture

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/capture/runca"
)

// frig is a forward proxy (with a CA of its own) in front of a TLS
// upstream on loopback (or in mock mode), recording into a temporary file.
type frig struct {
	rig
	ca       *runca.CA
	fwd      *Forward
	proxyURL *url.URL
}

// newForwardRig starts a forward proxy; upstream nil means mock mode. The
// loopback address is an intercepted host (as --intercept-host 127.0.0.1).
func newForwardRig(t *testing.T, upstream http.Handler, intercept ...string) *frig {
	t.Helper()
	r := &frig{rig: rig{t: t, path: filepath.Join(t.TempDir(), "capture.jsonl"), logs: &logLines{}}}
	rec, err := Create(r.path, r.logs.add)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Mock: upstream == nil, Log: r.logs.add}
	if upstream != nil {
		up := httptest.NewUnstartedServer(upstream)
		up.EnableHTTP2 = true
		up.StartTLS()
		t.Cleanup(up.Close)
		r.upstream = up
		opts.Transport = up.Client().Transport
	}
	r.ca, err = runca.New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.ca.Close() })
	r.fwd = NewForward(New(rec, opts), r.ca, NewHostSet(intercept), r.logs.add)
	if upstream != nil {
		r.fwd.UpstreamTLS = up2TLS(r.upstream)
	}
	ln, _, err := Listen("")
	if err != nil {
		t.Fatal(err)
	}
	r.server = ServeForward(ln, r.fwd)
	r.url = r.server.URL()
	r.proxyURL, _ = url.Parse(r.url)
	t.Cleanup(r.close)
	return r
}

// up2TLS trusts the upstream's own certificate (a WebSocket upstream).
func up2TLS(up *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(up.Certificate())
	return &tls.Config{RootCAs: pool}
}

// client goes through the proxy and trusts roots only (nil: the system's).
func (r *frig) client(roots *x509.CertPool, h2 bool) *http.Client {
	tr := &http.Transport{
		Proxy:             http.ProxyURL(r.proxyURL),
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: h2,
	}
	if !h2 {
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	r.t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

func (r *frig) caPool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(r.ca.Certificate())
	return pool
}

const chatBody = `{"model":"gpt-test","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"What is 2+2?"}]}`

// TestForwardInterceptsWithTheRunsCA: a client that trusts only the run's
// CA reaches the upstream through the proxy over HTTP/2 and over HTTP/1.1;
// the certificate it saw is a leaf of the run's CA for the host it asked
// for, the upstream's answer reaches it, and each exchange is recorded
// under the host's own URL and read back as a Chat Completions request.
func TestForwardInterceptsWithTheRunsCA(t *testing.T) {
	var protos []string
	r := newForwardRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		protos = append(protos, q.Proto)
		io.Copy(io.Discard, q.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"up","object":"chat.completion","model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"from upstream"},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}`)
	}), "127.0.0.1")
	target := r.upstream.URL + "/v1/chat/completions"
	for _, h2 := range []bool{true, false} {
		resp, err := r.client(r.caPool(), h2).Post(target, "application/json", strings.NewReader(chatBody))
		if err != nil {
			t.Fatalf("h2=%v: %v", h2, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := map[bool]int{true: 2, false: 1}[h2]; resp.ProtoMajor != want {
			t.Errorf("h2=%v: the terminated connection spoke HTTP/%d, want %d", h2, resp.ProtoMajor, want)
		}
		if !strings.Contains(string(b), "from upstream") {
			t.Errorf("h2=%v: the upstream's answer did not reach the client: %q", h2, b)
		}
		leaf := resp.TLS.PeerCertificates[0]
		if err := leaf.CheckSignatureFrom(r.ca.Certificate()); err != nil {
			t.Errorf("h2=%v: the client was not shown a leaf of the run's CA: %v", h2, err)
		}
		if len(leaf.IPAddresses) != 1 || !leaf.IPAddresses[0].Equal(net.IPv4(127, 0, 0, 1)) {
			t.Errorf("h2=%v: leaf for %v, want 127.0.0.1", h2, leaf.IPAddresses)
		}
	}
	recs := r.records()
	if len(recs) != 2 {
		t.Fatalf("%d exchanges recorded, want 2: %s", len(recs), r.logs.all())
	}
	for _, rec := range recs {
		if rec.Request.URL != target || rec.Response.Status != 200 || rec.Wirelens.Mock {
			t.Errorf("recorded %s status %d mock %v, want %s 200 forwarded", rec.Request.URL, rec.Response.Status, rec.Wirelens.Mock, target)
		}
	}
	reqs, errs := r.decoded()
	if len(errs) > 0 || len(reqs) != 2 || reqs[0].Format != wire.FormatOpenAIChat || reqs[0].Usage == nil || reqs[0].Usage.InputTokens != 7 {
		t.Errorf("decoded %d requests (errors %v), want 2 Chat Completions with usage 7: %+v", len(reqs), errs, reqs)
	}
	if len(protos) != 2 {
		t.Errorf("the upstream saw %d requests, want 2", len(protos))
	}
}

// TestForwardClientThatDoesNotTrustTheCA: a client that trusts only the
// system's roots fails closed: its request fails on the certificate,
// nothing is recorded, and the proxy says which host refused the run's CA.
func TestForwardClientThatDoesNotTrustTheCA(t *testing.T) {
	upstreamHit := false
	r := newForwardRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) { upstreamHit = true }), "127.0.0.1")
	_, err := r.client(nil, true).Post(r.upstream.URL+"/v1/chat/completions", "application/json", strings.NewReader(chatBody))
	var uerr x509.UnknownAuthorityError
	if err == nil || !errors.As(err, &uerr) {
		t.Fatalf("the request got through or failed otherwise: %v", err)
	}
	recs := r.records()
	diag := strings.Join(r.fwd.Diagnosis(r.url), "\n")
	if len(recs) != 0 || upstreamHit {
		t.Fatalf("recorded %d exchanges (upstream reached: %v), want none", len(recs), upstreamHit)
	}
	if !strings.Contains(r.logs.all(), "TLS to 127.0.0.1 refused by the client") {
		t.Errorf("no line names the host that refused the CA: %q", r.logs.all())
	}
	if !strings.Contains(diag, "TLS was refused by the client for 127.0.0.1") {
		t.Errorf("the diagnosis does not say TLS was refused: %q", diag)
	}
}

// TestForwardMockAnswersAndRefusesOtherHosts: with --mock an intercepted
// host is answered by the mock (nothing forwarded); a CONNECT to any other
// host is refused with 403 and one line naming it; the diagnosis of a run
// that reached only such hosts lists them.
func TestForwardMockAnswersAndRefusesOtherHosts(t *testing.T) {
	r := newForwardRig(t, nil, "127.0.0.1")
	// An intercepted host: the mock answers, whatever listens there (no
	// one does on port 1).
	resp, err := r.client(r.caPool(), true).Post("https://127.0.0.1:1/v1/chat/completions", "application/json", strings.NewReader(chatBody))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("X-Wirelens-Mock") != "1" || !strings.Contains(string(b), `"content":"4"`) {
		t.Errorf("the mock did not answer: %d %q", resp.StatusCode, b)
	}
	// Another host: refused.
	_, err = r.client(r.caPool(), true).Get("https://localhost:1/")
	if err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("a CONNECT to a host that is not intercepted was not refused: %v", err)
	}
	if !strings.Contains(r.logs.all(), "refused localhost:1: not a model provider's host, and --mock keeps the run offline") {
		t.Errorf("no line on the refused host: %q", r.logs.all())
	}
	if d := strings.Join(r.fwd.Diagnosis(r.url), "\n"); !strings.Contains(d, "refused (the run is offline): localhost (1)") {
		t.Errorf("the diagnosis does not list the refused host: %q", d)
	}
	recs := r.records()
	if len(recs) != 1 || recs[0].Request.URL != "https://127.0.0.1:1/v1/chat/completions" || !recs[0].Wirelens.Mock {
		t.Errorf("recorded %+v, want the one mocked exchange", recs)
	}
}

// TestForwardTunnelsOtherHosts: without --mock a host that is not a
// provider's is tunnelled untouched: the client sees the host's own
// certificate, nothing is recorded, and the diagnosis names the host.
func TestForwardTunnelsOtherHosts(t *testing.T) {
	r := newForwardRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) { io.WriteString(w, "direct") }))
	resp, err := r.client(up2TLS(r.upstream).RootCAs, true).Get(r.upstream.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "direct" || !resp.TLS.PeerCertificates[0].Equal(r.upstream.Certificate()) {
		t.Errorf("the tunnel was not untouched: %q, peer %v", b, resp.TLS.PeerCertificates[0].Subject)
	}
	if d := strings.Join(r.fwd.Diagnosis(r.url), "\n"); !strings.Contains(d, "tunnelled, not intercepted: 127.0.0.1 (1)") {
		t.Errorf("the diagnosis does not name the tunnelled host: %q", d)
	}
	if recs := r.records(); len(recs) != 0 {
		t.Errorf("a tunnelled exchange was recorded: %+v", recs)
	}
}

// TestForwardDiagnosisWhenNothingArrived names the cause of an empty run,
// in forward-proxy mode and in base-URL mode (no CA).
func TestForwardDiagnosisWhenNothingArrived(t *testing.T) {
	r := newForwardRig(t, nil)
	d := strings.Join(r.fwd.Diagnosis(r.url), "\n")
	if !strings.Contains(d, "no request reached the proxy") || !strings.Contains(d, "not HTTPS_PROXY either") || !strings.Contains(d, r.url) {
		t.Errorf("diagnosis %q", d)
	}
	base := NewForward(New(nil, Options{Mock: true}), nil, nil, nil)
	d = strings.Join(base.Diagnosis("http://x"), "\n")
	if !strings.Contains(d, "this run was in base-URL mode") || !strings.Contains(d, "try: --intercept") {
		t.Errorf("base-URL diagnosis %q", d)
	}
}

// TestHostSet: the table's names and patterns, and --intercept-host.
func TestHostSet(t *testing.T) {
	hs := NewHostSet([]string{"Models.Example.COM.", "*.corp.invalid"})
	for host, want := range map[string]string{
		"api.openai.com":                          "OpenAI",
		"API.Anthropic.com.":                      "Anthropic",
		"bedrock-runtime.us-east-1.amazonaws.com": "Amazon Bedrock",
		"us-central1-aiplatform.googleapis.com":   "Google Vertex AI (regional)",
		"api.individual.githubcopilot.com":        "GitHub Copilot (plans)",
		"api.cline.bot":                           "Cline's gateway",
		"dashscope-intl.aliyuncs.com":             "Qwen DashScope (international)",
		"models.example.com":                      "--intercept-host",
		"llm.corp.invalid":                        "--intercept-host",
		"registry.npmjs.org":                      "",
		"openai.com":                              "",
		"s3.amazonaws.com":                        "",
		"evilapi.openai.com":                      "",
	} {
		if got := hs.Provider(host); got != want {
			t.Errorf("%s: %q, want %q", host, got, want)
		}
	}
}

// wsClient opens a WebSocket through the proxy to host over TLS trusting
// the run's CA, and returns the connection and its reader.
func wsClient(t *testing.T, r *frig, host, path string) (*tls.Conn, *bufio.Reader) {
	t.Helper()
	resp, tc, tbr := wsUpgrade(t, r, host, path)
	if resp.StatusCode != 101 || resp.Header.Get("Sec-Websocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("upgrade: %v", resp)
	}
	return tc, tbr
}

// wsUpgrade sends a WebSocket upgrade to host through the forward proxy
// and returns the answer.
func wsUpgrade(t *testing.T, r *frig, host, path string) (*http.Response, *tls.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.DialTimeout("tcp", r.proxyURL.Host, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", host, host)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	hn, _, _ := net.SplitHostPort(host)
	tc := tls.Client(&readConn{c, br}, &tls.Config{RootCAs: r.caPool(), ServerName: hn, NextProtos: []string{"http/1.1"}})
	fmt.Fprintf(tc, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer sk-proj-WSSECRET0123456789abcdefghij\r\n\r\n", path, hn)
	tbr := bufio.NewReader(tc)
	resp, err = http.ReadResponse(tbr, &http.Request{Method: http.MethodGet})
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	return resp, tc, tbr
}

// A WebSocket upgrade the upstream refuses reaches the client as it was
// answered, its body whole as it streams, and is recorded as an exchange
// with that body and a note.
func TestWebSocketRefusalPassedAndRecorded(t *testing.T) {
	refusal := `{"error":{"message":"` + strings.Repeat("no websockets here ", 5000) + `"}}`
	r := newForwardRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, refusal)
	}), "127.0.0.1")
	_, port, _ := net.SplitHostPort(r.upstream.Listener.Addr().String())
	resp, tc, _ := wsUpgrade(t, r, "127.0.0.1:"+port, "/v1/responses")
	b, err := io.ReadAll(resp.Body)
	tc.Close()
	if resp.StatusCode != http.StatusForbidden || string(b) != refusal {
		t.Fatalf("the client got %d and %d bytes (%v), want 403 and %d", resp.StatusCode, len(b), err, len(refusal))
	}
	recs := r.records()
	if len(recs) != 1 || recs[0].Response.Status != http.StatusForbidden || !strings.Contains(recs[0].Wirelens.Error, "the WebSocket upgrade was refused") {
		t.Fatalf("recorded %+v", recs)
	}
	if got := bodyString(recs[0].Response.Body, recs[0].Response.BodyRaw); got != refusal {
		t.Errorf("the recorded refusal is %d bytes, want %d", len(got), len(refusal))
	}
}

// clientFrame writes a masked text frame, as a client must.
func clientFrame(w io.Writer, op byte, payload []byte) {
	var mask [4]byte
	rand.Read(mask[:])
	hdr := []byte{0x80 | op}
	switch l := len(payload); {
	case l < 126:
		hdr = append(hdr, 0x80|byte(l))
	default:
		hdr = append(hdr, 0x80|126, 0, 0)
		binary.BigEndian.PutUint16(hdr[2:], uint16(l))
	}
	hdr = append(hdr, mask[:]...)
	m := bytes.Clone(payload)
	for i := range m {
		m[i] ^= mask[i%4]
	}
	w.Write(append(hdr, m...))
}

// readUntilCompleted reads server messages up to response.completed.
func readUntilCompleted(t *testing.T, br *bufio.Reader) []string {
	t.Helper()
	var got []string
	for {
		fr, err := readFrame(br, nil)
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		if fr.opcode != 1 {
			continue
		}
		got = append(got, string(fr.payload))
		if strings.Contains(string(fr.payload), `"type":"response.completed"`) {
			return got
		}
	}
}

const wsCreate = `{"type":"response.create","model":"gpt-ws","instructions":"Be brief.","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"turn %d"}]}],"stream":true}`

// TestWebSocketMockAnswersAndRecordsEachMessage: with --mock the proxy is
// the WebSocket server: each response.create gets the Responses API's
// events; each is one line of the recording, in order, with the events
// after it, and the decoder reads the requests out of them.
func TestWebSocketMockAnswersAndRecordsEachMessage(t *testing.T) {
	r := newForwardRig(t, nil, "127.0.0.1")
	tc, br := wsClient(t, r, "127.0.0.1:443", "/v1/responses")
	for i := 1; i <= 2; i++ {
		clientFrame(tc, 1, []byte(fmt.Sprintf(wsCreate, i)))
		evs := readUntilCompleted(t, br)
		if !strings.Contains(evs[0], `"type":"response.created"`) || !strings.Contains(strings.Join(evs, ""), `"delta":"4"`) {
			t.Errorf("turn %d: the mock's events %q", i, evs)
		}
	}
	clientFrame(tc, 8, nil)
	tc.Close()
	recs := r.records()
	if len(recs) != 2 {
		t.Fatalf("%d lines, want 2: %s", len(recs), r.logs.all())
	}
	for i, rec := range recs {
		if rec.Request.Method != "WEBSOCKET" || rec.Request.URL != "wss://127.0.0.1/v1/responses" || !strings.Contains(string(rec.Request.Body), fmt.Sprintf("turn %d", i+1)) {
			t.Errorf("line %d: %s %s %s", i+1, rec.Request.Method, rec.Request.URL, rec.Request.Body)
		}
		if rec.Response.BodyRaw == nil || !strings.Contains(*rec.Response.BodyRaw, `data: {"type":"response.completed"`) {
			t.Errorf("line %d: the server's messages are not kept: %v", i+1, rec.Response.BodyRaw)
		}
		if strings.Contains(rec.Request.Headers["authorization"], "WSSECRET") {
			t.Errorf("line %d: the credential of the upgrade is in the clear", i+1)
		}
	}
	reqs, errs := r.decoded()
	if len(errs) > 0 || len(reqs) != 2 || reqs[1].Format != wire.FormatOpenAIResponses || reqs[1].Model != "gpt-ws" {
		t.Fatalf("decoded %+v, errors %v", reqs, errs)
	}
	if reqs[1].Usage == nil {
		t.Errorf("the usage of response.completed was not read")
	}
	found := false
	for _, s := range reqs[1].Segments {
		found = found || s.Text == "turn 2"
	}
	if !found {
		t.Errorf("the second message's input is not a segment: %+v", reqs[1].Segments)
	}
}

// TestWebSocketRelayedBothWays: without --mock the upgrade goes to the
// real host (over TLS it verifies), the frames pass both ways untouched,
// and each client message is recorded with the server's answers.
func TestWebSocketRelayedBothWays(t *testing.T) {
	r := newForwardRig(t, http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
		if q.Header.Get("Sec-WebSocket-Extensions") != "" {
			http.Error(w, "compression offered", 400)
			return
		}
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprintf(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", wsAccept(q.Header.Get("Sec-WebSocket-Key")))
		for {
			fr, err := readFrame(brw.Reader, nil)
			if err != nil || fr.opcode == 8 {
				return
			}
			writeFrame(c, 1, []byte(`{"type":"response.created","echo":`+fmt.Sprint(len(fr.payload))+`}`))
			writeFrame(c, 1, []byte(`{"type":"response.completed","response":{"model":"gpt-ws","usage":{"input_tokens":11,"output_tokens":1}}}`))
		}
	}), "127.0.0.1")
	_, port, _ := net.SplitHostPort(r.upstream.Listener.Addr().String())
	tc, br := wsClient(t, r, "127.0.0.1:"+port, "/v1/responses")
	msg := fmt.Sprintf(wsCreate, 1)
	clientFrame(tc, 1, []byte(msg))
	evs := readUntilCompleted(t, br)
	if len(evs) != 2 || !strings.Contains(evs[0], fmt.Sprintf(`"echo":%d`, len(msg))) {
		t.Errorf("the upstream's messages did not come through untouched: %q", evs)
	}
	clientFrame(tc, 8, nil)
	tc.Close()
	recs := r.records()
	if len(recs) != 1 || recs[0].Request.URL != "wss://127.0.0.1:"+port+"/v1/responses" || string(recs[0].Request.Body) != msg {
		t.Fatalf("recorded %+v: %s", recs, r.logs.all())
	}
	if raw := recs[0].Response.BodyRaw; raw == nil || !strings.Contains(*raw, `"echo"`) || recs[0].Wirelens.Mock {
		t.Errorf("the server's messages: %v", raw)
	}
}

// TestForwardCloseEndsHeldConnections: a tunnel held open by a client
// ends when the proxy closes.
func TestForwardCloseEndsHeldConnections(t *testing.T) {
	r := newForwardRig(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	c, err := net.Dial("tcp", r.proxyURL.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: x\r\n\r\n", r.upstream.Listener.Addr())
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect}); err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { <-ctx.Done(); c.Close() }()
	r.close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the tunnel was still open after Close: %v", err)
	}
}

// TestForwardKeepsTheGuardForBaseURLRequests: behind record's forward
// proxy, a request in base-URL form from a browser page (an Origin) or
// for a foreign Host is still refused, and a WebSocket upgrade likewise;
// an agent's is answered.
func TestForwardKeepsTheGuardForBaseURLRequests(t *testing.T) {
	r := newForwardRig(t, nil)
	for _, c := range []struct {
		h    http.Header
		host string
		want int
	}{
		{nil, "", 200},
		{http.Header{"Origin": {"https://evil.example"}}, "", 403},
		{nil, "rebound.example", 403},
		{http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}, "Origin": {"https://evil.example"}}, "", 403},
		{http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}, "Origin": {""}}, "", 403},
		{http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}, "rebound.example", 403},
	} {
		req, _ := http.NewRequest(http.MethodPost, r.url+"/v1/chat/completions", strings.NewReader(chatBody))
		for k, v := range c.h {
			req.Header[k] = v
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%v host %q: status %d, want %d", c.h, c.host, resp.StatusCode, c.want)
		}
	}
	if recs := r.records(); len(recs) != 1 {
		t.Errorf("%d exchanges recorded, want the agent's one", len(recs))
	}
}

// noteCheck is a relay's destination that records, at each write, how
// many messages had been noted by then.
type noteCheck struct {
	noted  *int
	seen   []int
	output bytes.Buffer
}

func (w *noteCheck) Write(p []byte) (int, error) {
	w.seen = append(w.seen, *w.noted)
	return w.output.Write(p)
}

// TestRelayNotesAMessageBeforePassingItOn: a client's message is noted
// before any of its bytes reach the upstream, so an answer that comes back
// at once finds it (the relay used to pass the bytes first: a fast upstream
// answered before the message was noted and the answer was not recorded).
// The bytes passed on are the frames exactly as read, masks included.
func TestRelayNotesAMessageBeforePassingItOn(t *testing.T) {
	var in bytes.Buffer
	clientFrame(&in, 1, []byte(`{"type":"response.create"}`))
	clientFrame(&in, 9, []byte("ping"))
	clientFrame(&in, 1, []byte(`{"type":"response.create","n":2}`))
	clientFrame(&in, 8, nil)
	sent := bytes.Clone(in.Bytes())
	noted := 0
	dst := &noteCheck{noted: &noted}
	var msgs []string
	err := relayFrames(dst, bufio.NewReader(&in), func(op byte, msg []byte, cut bool) {
		noted++
		msgs = append(msgs, string(msg))
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 1, 2, 2}; fmt.Sprint(dst.seen) != fmt.Sprint(want) {
		t.Errorf("messages noted at each write: %v, want %v (each message noted before its frame is passed on)", dst.seen, want)
	}
	if !bytes.Equal(dst.output.Bytes(), sent) {
		t.Errorf("the frames passed on differ from those read")
	}
	if len(msgs) != 2 || msgs[1] != `{"type":"response.create","n":2}` {
		t.Errorf("messages: %q", msgs)
	}
}
