package capture

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/wirelens/wirelens/wire/decode"
)

// hugeAnswer is the size of the answer TestHugeResponseIsStreamed sends.
const hugeAnswer = 500 << 20

// procStatus is a field of /proc/self/status in bytes (VmHWM, VmRSS).
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// TestHugeResponseChild is TestHugeResponseIsStreamed's own process (its
// peak resident memory is the proxy's, not earlier tests'): a 20 MB request
// and a 500 MB event stream through the proxy, recorded in the file
// WIRELENS_HUGE_OUT names; it prints its peak and final resident memory.
func TestHugeResponseChild(t *testing.T) {
	out := os.Getenv("WIRELENS_HUGE_OUT")
	if out == "" {
		t.Skip("run by TestHugeResponseIsStreamed")
	}
	event := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("é4", 80) + "\"}}\n\n")
	chunk := bytes.Repeat(event, (32<<10)/len(event))
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < hugeAnswer; {
			n := min(len(chunk), hugeAnswer-sent)
			if _, err := w.Write(chunk[:n]); err != nil {
				return
			}
			sent += n
		}
	}))
	defer up.Close()
	rec, err := Create(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(up.URL)
	ln, _, err := Listen("")
	if err != nil {
		t.Fatal(err)
	}
	srv := Serve(ln, New(rec, Options{Upstream: u}))
	// A long session's request: 200 messages of 100 KB, sent as it is
	// made (the test holds none of it).
	msg := `{"role":"user","content":"` + strings.Repeat("q", 100<<10) + `"},`
	parts := []io.Reader{strings.NewReader(`{"model":"claude-huge","api_key":"sk-ant-api03-verysecret","stream":true,"messages":[`)}
	for range 200 {
		parts = append(parts, strings.NewReader(msg))
	}
	parts = append(parts, strings.NewReader(`{"role":"user","content":"go on"}]}`))
	resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", io.MultiReader(parts...))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n != hugeAnswer {
		t.Fatalf("%d bytes reached the client (%v), want %d", n, err, hugeAnswer)
	}
	if err := srv.Close(time.Minute); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("HUGE hwm=%d rss=%d\n", procStatus(t, "VmHWM"), procStatus(t, "VmRSS"))
}

// A 500 MB answer passes whole to the client while the proxy stays under
// 100 MB resident (it held 2.9 GB when each body was kept whole, copied
// and quoted in memory): the record keeps the response's first 64 MiB,
// written from its spool file, with a note of the rest, and the 20 MB
// request whole, its api_key masked; wirelens's own reader reads it back.
func TestHugeResponseIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("500 MB through the proxy")
	}
	out := filepath.Join(t.TempDir(), "huge.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestHugeResponseChild$", "-test.v")
	cmd.Env = append(os.Environ(), "WIRELENS_HUGE_OUT="+out)
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	var hwm, rss int64
	for _, l := range strings.Split(string(got), "\n") {
		if strings.HasPrefix(l, "HUGE ") {
			fmt.Sscanf(l, "HUGE hwm=%d rss=%d", &hwm, &rss)
		}
	}
	t.Logf("peak resident %d MB, after %d MB", hwm>>20, rss>>20)
	if hwm == 0 || hwm > 100<<20 || rss > 100<<20 {
		t.Errorf("peak resident %d MB, %d MB after: want both under 100 MB\n%s", hwm>>20, rss>>20, got)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*spool*")); len(left) > 0 {
		t.Errorf("spool files left: %v", left)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 1<<20).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var r record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	// On a loaded machine the spool can fall behind the stream, which does
	// not wait for it (by design): then the note says so and how much was
	// kept, and the record holds exactly that much.
	kept := keptResponse
	want := fmt.Sprintf("response body cut: %d bytes recorded (the most a recording keeps), %d more passed through unrecorded", keptResponse, hugeAnswer-keptResponse)
	var k, more int
	behind := false
	if i := strings.Index(r.Wirelens.Error, "response body cut: "); i >= 0 {
		_, err := fmt.Sscanf(r.Wirelens.Error[i:], "response body cut: %d bytes recorded, then the recording fell behind the stream (the disk was slower than the exchange, which did not wait for it), %d more passed through unrecorded", &k, &more)
		behind = err == nil
	}
	if behind {
		t.Logf("the recording fell behind the stream here after %d bytes", k)
		if k+more != hugeAnswer || k > keptResponse {
			t.Errorf("note %q: %d kept and %d more, want %d in all, at most %d kept", r.Wirelens.Error, k, more, hugeAnswer, keptResponse)
		}
		kept = k
	} else if !strings.Contains(r.Wirelens.Error, want) {
		t.Errorf("note %q, want %q", r.Wirelens.Error, want)
	}
	if r.Response.BodyRaw == nil || len(*r.Response.BodyRaw) != kept || kept > 0 && !strings.HasPrefix(*r.Response.BodyRaw, "event: content_block_delta\n") {
		t.Errorf("the response's body_raw is not its first %d bytes", kept)
	}
	if bytes.Contains(line, []byte("verysecret")) || len(r.Request.Body) < 200*100<<10 {
		t.Errorf("the request body is %d bytes, its api_key masked: %t", len(r.Request.Body), !bytes.Contains(line, []byte("verysecret")))
	}
	line = nil
	var n int
	for q, err := range decode.Path(out, decode.Options{Source: out}) {
		if err != nil {
			t.Fatalf("the reader: %v", err)
		}
		n++
		if q.Model != "claude-huge" || len(q.Segments) == 0 {
			t.Errorf("read back: model %q, %d segments", q.Model, len(q.Segments))
		}
	}
	if n != 1 {
		t.Errorf("%d requests read back, want 1", n)
	}
}
