package capture

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
)

// apiCase is one API and mode: the path a client posts to, its body, and
// what a provider answers.
type apiCase struct {
	name, path, body string
	format           wire.Format
	sse              bool
	answer           string
	wantInput        int
}

var apiCases = []apiCase{
	{"anthropic", "/v1/messages", `{"model":"claude-x","max_tokens":5,"system":"Be brief.","messages":[{"role":"user","content":"What is 2+2?"}]}`,
		wire.FormatAnthropic, false,
		`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"4"}],"usage":{"input_tokens":10,"cache_read_input_tokens":90,"output_tokens":1}}`, 100},
	{"anthropic-stream", "/v1/messages", `{"model":"claude-x","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"What is 2+2?"}]}`,
		wire.FormatAnthropic, true,
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"claude-x\",\"usage\":{\"input_tokens\":7,\"cache_read_input_tokens\":3,\"output_tokens\":1}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"4\"}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", 10},
	{"chat", "/v1/chat/completions", `{"model":"gpt-x","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"What is 2+2?"}]}`,
		wire.FormatOpenAIChat, false,
		`{"id":"c","object":"chat.completion","model":"gpt-x","choices":[{"index":0,"message":{"role":"assistant","content":"4"},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":0}}}`, 20},
	{"chat-stream", "/v1/chat/completions", `{"model":"gpt-x","stream":true,"messages":[{"role":"user","content":"What is 2+2?"}]}`,
		wire.FormatOpenAIChat, true,
		"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"4\"}}]}\n\n" +
			"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":1}}\n\n" +
			"data: [DONE]\n\n", 12},
	{"responses", "/v1/responses", `{"model":"gpt-x","instructions":"Be brief.","input":"What is 2+2?"}`,
		wire.FormatOpenAIResponses, false,
		`{"id":"r","object":"response","status":"completed","model":"gpt-x","output":[],"usage":{"input_tokens":30,"input_tokens_details":{"cached_tokens":10},"output_tokens":1}}`, 30},
	{"responses-stream", "/v1/responses", `{"model":"gpt-x","stream":true,"input":[{"role":"user","content":"What is 2+2?"}]}`,
		wire.FormatOpenAIResponses, true,
		"event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"status\":\"in_progress\"}}\n\n" +
			"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"4\"}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\",\"usage\":{\"input_tokens\":15,\"output_tokens\":1}}}\n\n", 15},
	{"gemini", "/v1beta/models/gemini-x:generateContent", `{"contents":[{"role":"user","parts":[{"text":"What is 2+2?"}]}]}`,
		wire.FormatGemini, false,
		`{"candidates":[{"content":{"parts":[{"text":"4"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":1}}`, 9},
	{"gemini-stream", "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"What is 2+2?"}]}]}`,
		wire.FormatGemini, true,
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"4\"}],\"role\":\"model\"}}]}\r\n\r\n" +
			"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":11,\"candidatesTokenCount\":1}}\r\n\r\n", 11},
}

// answerWith is an upstream that checks it got body and answers like a
// provider, event by event for a stream.
func answerWith(t *testing.T, c apiCase) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		if string(got) != c.body {
			t.Errorf("%s: the upstream got %q, want %q", c.name, got, c.body)
		}
		if want, _, _ := strings.Cut(c.path, "?"); r.URL.Path != want {
			t.Errorf("%s: the upstream got path %q, want %q", c.name, r.URL.Path, want)
		}
		if c.sse {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range splitEvents(c.answer) {
				io.WriteString(w, ev)
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, c.answer)
	}
}

// splitEvents cuts an event stream after each blank line.
func splitEvents(s string) []string {
	var out []string
	for s != "" {
		i := strings.Index(s, "\n\n")
		if j := strings.Index(s, "\r\n\r\n"); j >= 0 && (i < 0 || j < i) {
			i = j + 2
		}
		if i < 0 {
			return append(out, s)
		}
		out, s = append(out, s[:i+2]), s[i+2:]
	}
	return out
}

// TestProxyForwardsEachAPI: each API, streamed and not, goes to the upstream
// untouched and comes back byte for byte, and the recording holds the
// exchange whole, with the usage wirelens reads from it (from the
// reassembled events for a stream).
func TestProxyForwardsEachAPI(t *testing.T) {
	for _, c := range apiCases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, answerWith(t, c))
			resp, got := r.post(c.path, []byte(c.body), nil)
			if resp.StatusCode != 200 || string(got) != c.answer {
				t.Fatalf("status %d, answer %q, want %q", resp.StatusCode, got, c.answer)
			}
			recs := r.records()
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			rec := recs[0]
			if body := bodyString(rec.Request.Body, nil); body != c.body {
				t.Errorf("recorded request body %q", body)
			}
			if rb := bodyString(rec.Response.Body, rec.Response.BodyRaw); rb != c.answer {
				t.Errorf("recorded response %q", rb)
			}
			if rec.Response.Status != 200 || rec.Request.Method != "POST" || !strings.HasPrefix(rec.Request.URL, r.upstream.URL) {
				t.Errorf("recorded %s %s -> %d", rec.Request.Method, rec.Request.URL, rec.Response.Status)
			}
			reqs, errs := r.decoded()
			if len(errs) > 0 || len(reqs) != 1 {
				t.Fatalf("decoded %d requests, errors %v", len(reqs), errs)
			}
			if reqs[0].Format != c.format {
				t.Errorf("format %s, want %s", reqs[0].Format, c.format)
			}
			if u := reqs[0].Usage; u == nil || u.InputTokens != c.wantInput {
				t.Errorf("usage %+v, want input %d", u, c.wantInput)
			}
		})
	}
}

// TestProxyStreamsEachEventAsItComes: the first event reaches the client
// while the upstream still holds the last one back.
func TestProxyStreamsEachEventAsItComes(t *testing.T) {
	release := make(chan struct{})
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\"}\n\n")
		w.(http.Flusher).Flush()
		<-release // the last event only once the client has the first
		io.WriteString(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	resp, err := http.Post(r.url+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	first := make(chan string, 1)
	go func() {
		line, _ := br.ReadString('\n')
		first <- line
	}()
	select {
	case line := <-first:
		if line != "event: message_start\n" {
			t.Errorf("first line %q", line)
		}
	case <-time.After(20 * time.Second): // a guard against a hang, not a measure
		close(release)
		t.Fatal("the first event did not reach the client before the upstream sent the last: the proxy buffers")
	}
	close(release)
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), "message_stop") {
		t.Errorf("the rest of the stream: %q", rest)
	}
	recs := r.records()
	if len(recs) != 1 || recs[0].Response.BodyRaw == nil || !strings.Contains(*recs[0].Response.BodyRaw, "message_stop") {
		t.Errorf("recorded %+v", recs)
	}
}

// TestProxyUpstreamDropsMidStream: the client sees the stream end short,
// the exchange is recorded with what arrived and the error, and the proxy
// keeps serving.
func TestProxyUpstreamDropsMidStream(t *testing.T) {
	var drop atomic.Bool
	drop.Store(true)
	c := apiCases[0]
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !drop.Load() {
			answerWith(t, c)(w, req)
			return
		}
		io.Copy(io.Discard, req.Body)
		conn, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		// Chunked, one chunk, then the connection dies.
		bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		ev := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5}}}\n\n"
		fmt.Fprintf(bw, "%x\r\n%s\r\n", len(ev), ev)
		bw.Flush()
		conn.Close()
	}))
	resp, err := http.Post(r.url+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr == nil {
		t.Errorf("the client read the cut stream to a clean end: %q", got)
	}
	if !strings.Contains(string(got), "message_start") {
		t.Errorf("the client did not get the event sent before the drop: %q", got)
	}
	drop.Store(false)
	resp2, _ := r.post(c.path, []byte(c.body), nil)
	if resp2.StatusCode != 200 {
		t.Errorf("after a drop, the next request: %d", resp2.StatusCode)
	}
	recs := r.records()
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	// The records are written in the order the exchanges end.
	var cut *record
	for i := range recs {
		if recs[i].Wirelens.Error != "" {
			cut = &recs[i]
		}
	}
	if cut == nil || !strings.Contains(cut.Wirelens.Error, "cut short") || cut.Response.BodyRaw == nil || !strings.Contains(*cut.Response.BodyRaw, "message_start") {
		t.Errorf("the cut exchange's record: %+v", cut)
	}
	if !strings.Contains(r.logs.all(), "cut short") {
		t.Errorf("no line logged for the cut stream: %q", r.logs.all())
	}
}

// TestProxySlowClient: a client that reads slowly still gets every byte,
// and the recording holds the whole answer.
func TestProxySlowClient(t *testing.T) {
	var want strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&want, "data: {\"i\":%d,\"pad\":%q}\n\n", i, strings.Repeat("x", 200))
	}
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, want.String())
	}))
	resp, err := http.Post(r.url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for n := 0; ; n++ {
		k, err := resp.Body.Read(buf)
		got.Write(buf[:k])
		if err != nil {
			break
		}
		if n%16 == 0 {
			time.Sleep(time.Millisecond) // slow: the proxy's writes block
		}
	}
	resp.Body.Close()
	if got.String() != want.String() {
		t.Fatalf("the slow client got %d bytes, want %d", got.Len(), want.Len())
	}
	recs := r.records()
	if len(recs) != 1 || recs[0].Response.BodyRaw == nil || *recs[0].Response.BodyRaw != want.String() {
		t.Errorf("the recording does not hold the whole answer")
	}
}

// TestProxyConcurrentRequests: exchanges in parallel are each recorded
// whole, on a line of their own.
func TestProxyConcurrentRequests(t *testing.T) {
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"echo":%d,"usage":{"input_tokens":1}}`, len(b))
	}))
	const n = 24
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"request %d %s"}]}`, i, strings.Repeat("y", i*1000))
			resp, err := http.Post(r.url+"/v1/messages", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	wg.Wait()
	recs := r.records()
	if len(recs) != n {
		t.Fatalf("%d records, want %d", len(recs), n)
	}
	seen := map[string]bool{}
	for _, rec := range recs {
		body := bodyString(rec.Request.Body, nil)
		var i int
		if _, err := fmt.Sscanf(body[strings.Index(body, "request "):], "request %d", &i); err != nil {
			t.Fatalf("record body %.80q", body)
		}
		if want := fmt.Sprintf(`{"echo":%d,"usage":{"input_tokens":1}}`, len(body)); bodyString(rec.Response.Body, rec.Response.BodyRaw) != want {
			t.Errorf("request %d recorded with another's answer", i)
		}
		seen[body] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct requests recorded, want %d", len(seen), n)
	}
}

// TestProxyLargeBody: a 50 MB request goes through whole and is recorded
// whole.
func TestProxyLargeBody(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB")
	}
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("a", 50<<20) + `"}]}`)
	sum := sha256.Sum256(body)
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := sha256.New()
		n, _ := io.Copy(h, req.Body)
		if n != int64(len(body)) || !bytes.Equal(h.Sum(nil), sum[:]) {
			t.Errorf("the upstream got %d bytes, not the body sent", n)
		}
		io.WriteString(w, `{"usage":{"input_tokens":1}}`)
	}))
	resp, _ := r.post("/v1/messages", body, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	recs := r.records()
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	if got := sha256.Sum256(recs[0].Request.Body); got != sum {
		t.Errorf("the recorded body (%d bytes) is not the body sent (%d)", len(recs[0].Request.Body), len(body))
	}
}

// TestProxyBadJSONPassesThrough: a body that is not JSON reaches the
// upstream as sent and is recorded as sent; wirelens then reports it as one
// error naming the line.
func TestProxyBadJSONPassesThrough(t *testing.T) {
	bad := "{\"model\": \"m\", \"messages\": [ truncated"
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got, _ := io.ReadAll(req.Body)
		if string(got) != bad {
			t.Errorf("the upstream got %q", got)
		}
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"invalid JSON"}}`)
	}))
	resp, got := r.post("/v1/messages", []byte(bad), nil)
	if resp.StatusCode != 400 || !strings.Contains(string(got), "invalid JSON") {
		t.Errorf("the client got %d %q", resp.StatusCode, got)
	}
	recs := r.records()
	if len(recs) != 1 || bodyString(recs[0].Request.Body, nil) != bad || recs[0].Response.Status != 400 {
		t.Fatalf("recorded %+v", recs)
	}
	reqs, errs := r.decoded()
	if len(reqs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), ":1: ") {
		t.Errorf("decoded %d requests, errors %v", len(reqs), errs)
	}
}

// TestProxyRefusedUpstream: an upstream that refuses the connection gives
// the client a JSON error, a recorded error status and one log line; the
// proxy keeps serving.
func TestProxyRefusedUpstream(t *testing.T) {
	r := newRig(t, http.NotFoundHandler())
	r.upstream.Close() // nothing listens there any more
	for range 2 {
		resp, got := r.post("/v1/messages", []byte(`{"model":"m","messages":[]}`), nil)
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(got), "wirelens proxy") {
			t.Errorf("the client got %d %q", resp.StatusCode, got)
		}
	}
	recs := r.records()
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, rec := range recs {
		if rec.Response.Status != http.StatusBadGateway || !strings.Contains(rec.Wirelens.Error, "upstream") {
			t.Errorf("recorded %d %q", rec.Response.Status, rec.Wirelens.Error)
		}
	}
	if n := strings.Count(r.logs.all(), "\n") + 1; n != 2 || strings.Contains(r.logs.all(), "\n\n") {
		t.Errorf("log: %q", r.logs.all())
	}
}

// TestListen: loopback by default; a port in use is one error; a
// non-loopback address is opened with a warning.
func TestListen(t *testing.T) {
	ln, warn, err := Listen("")
	if err != nil || warn != "" {
		t.Fatalf("%v %q", err, warn)
	}
	defer ln.Close()
	if a := ln.Addr().(*net.TCPAddr); !a.IP.IsLoopback() {
		t.Errorf("default address %v is not loopback", a)
	}
	if _, _, err := Listen(ln.Addr().String()); err == nil || !strings.Contains(err.Error(), "cannot listen on") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a port in use: %v", err)
	}
	if _, _, err := Listen("no-port"); err == nil {
		t.Error("an address with no port was accepted")
	}
	ln2, warn, err := Listen("0.0.0.0:0")
	if err != nil {
		t.Skipf("cannot listen on all interfaces here: %v", err)
	}
	ln2.Close()
	if !strings.Contains(warn, "not loopback") {
		t.Errorf("no warning for 0.0.0.0: %q", warn)
	}
}
