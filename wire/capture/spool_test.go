package capture

import (
	"bytes"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"sync"

	"github.com/go-json-experiment/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// spoolOf is b in a spool file in dir, sent in pieces of step bytes.
func spoolOf(t *testing.T, dir string, b []byte, step int) *spool {
	t.Helper()
	s := newSpool(dir, "test.jsonl")
	for len(b) > 0 {
		n := min(step, len(b))
		for !s.send(b[:n]) {
			runtime.Gosched() // the writer is behind: let it catch up
		}
		b = b[n:]
	}
	s.finish()
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s
}

// A body written from a spool file, a piece at a time, is written as the
// same body held in memory is, byte for byte: JSON kept as its value (a
// request's credential-named members masked, white space dropped where it
// holds a line end, Unicode white space around it trimmed), text quoted
// (runes cut by the pieces whole again), bytes that are not UTF-8 or would
// quote larger as base64, an event stream as body_raw. The bodies are
// larger than the 64 KiB pieces the line writer reads.
func TestSpooledBodyIsWrittenAsInMemory(t *testing.T) {
	long := strings.Repeat("é—x\"\\\t", 20000)  // 9 bytes a round: runes cut at every boundary
	longJ := strings.Repeat(`é—x\"\\\t`, 20000) // the same in a JSON string
	bodies := map[string]string{
		"json request with a key":  `{"api_key":"sk-ant-secret-value","model":"m","messages":[{"role":"user","content":"` + longJ + `"}]}`,
		"pretty json with a key":   "{\r\n  \"password\": \"hunter2\",\n  \"messages\": [ {\"content\": \"" + longJ + "\"} ]\n}\n",
		"json after unicode space": "\u00a0\u2003 \n{\"a\": [1, 2, {\"token\": \"t0k\"}], \"s\": \"" + longJ + "\"}\u00a0",
		"duplicate names":          `{"a":1,"a":"` + longJ + `"}`,
		"text":                     long,
		"control bytes":            strings.Repeat("\x01\x02x", 40000),
		"not utf-8":                long + "\xff\xfe" + long,
		"white space only":         strings.Repeat(" \n", 70000),
		"cut json":                 `{"model":"m","messages":[{"content":"` + longJ,
		"nested json string":       `{"input":[{"arguments":"{\"client_secret\":\"abc\",\"x\":\"` + strings.Repeat("é—x", 30000) + `\"}"}]}`,
	}
	dir := t.TempDir()
	for name, b := range bodies {
		for _, sse := range []bool{false, true} {
			respHeader := http.Header{"Content-Type": {"application/json"}}
			if sse {
				respHeader.Set("Content-Type", "text/event-stream")
			}
			mem := &Exchange{Start: time.Unix(1, 0), End: time.Unix(2, 0), Method: "POST", URL: "http://h/v1/messages",
				ReqHeader: http.Header{"X-Api-Key": {"sk-ant-abcdefghijklmnop"}}, ReqBody: []byte(b),
				Status: 200, RespHeader: respHeader, RespBody: []byte(b)}
			want := Line(mem)
			for _, step := range []int{1000, 32 << 10, 100 << 10} {
				sp := *mem
				sp.ReqBody, sp.RespBody = nil, nil
				sp.reqSpool, sp.respSpool = spoolOf(t, dir, []byte(b), step), spoolOf(t, dir, []byte(b), step)
				got := Line(&sp)
				sp.release()
				if !bytes.Equal(got, want) {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("%s (event stream %t, pieces of %d): the spooled line differs at byte %d of %d/%d:\n got %.120q\nwant %.120q",
						name, sse, step, i, len(got), len(want), got[max(0, i-20):], want[max(0, i-20):])
				}
			}
			if !jsontext.Value(bytes.TrimSpace(want)).IsValid() {
				t.Errorf("%s: the line is not JSON", name)
			}
			req, _, _ := bytes.Cut(want, []byte(`"response":`))
			if bytes.Contains(req, []byte("hunter2")) || bytes.Contains(req, []byte("sk-ant-secret-value")) || bytes.Contains(req, []byte(`"abc\"`)) || bytes.Contains(req, []byte("t0k")) {
				t.Errorf("%s: a credential reached the line", name)
			}
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*spool*"))
	if len(left) > 0 {
		t.Errorf("spool files left behind: %v", left)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// blockingFile is a recording on a disk that does not answer: every write
// waits until release is closed.
type blockingFile struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (f *blockingFile) Write(p []byte) (int, error) {
	<-f.release
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Write(p)
}

func (f *blockingFile) Truncate(n int64) error { f.buf.Truncate(int(n)); return nil }
func (f *blockingFile) Close() error           { return nil }

// The answers never wait on the recorder: with a recording whose writes
// block, 80 exchanges complete whole (the old recorder's queue of 64 held
// the 66th's end until the disk answered); the queue holds what it may (4 with
// their bodies, 8 in all here), the others are recorded without bodies or
// not at all, and both the capture and the log say so, counted.
func TestResponsesDoNotWaitOnTheRecorder(t *testing.T) {
	defer func(a, b, c int) { maxQueued, maxQueuedBytes, maxStubs = a, b, c }(maxQueued, maxQueuedBytes, maxStubs)
	maxQueued, maxStubs = 4, 8
	const n = 80
	answer := strings.Repeat("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"4\"}}\n\n", 50)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, answer)
	}))
	defer up.Close()
	sink := &blockingFile{release: make(chan struct{})}
	logs := &logLines{}
	rec := newRecorder(filepath.Join(t.TempDir(), "blocked.jsonl"), sink, 0, logs.add)
	u, _ := url.Parse(up.URL)
	ln, _, err := Listen("")
	if err != nil {
		t.Fatal(err)
	}
	srv := Serve(ln, New(rec, Options{Upstream: u}))
	done := make(chan string, 1)
	go func() {
		for i := range n {
			resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(fmt.Sprintf(`{"model":"m","n":%d}`, i)))
			if err != nil {
				done <- err.Error()
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != answer {
				done <- fmt.Sprintf("answer %d: %d bytes, want %d", i, len(b), len(answer))
				return
			}
		}
		done <- ""
	}()
	// A deadlock guard, not a measure: with the old recorder the 66th
	// exchange waited for the disk for ever.
	select {
	case msg := <-done:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the answers waited on the recorder")
	}
	close(sink.release)
	if err := srv.Close(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	var whole, stubs int
	for _, l := range strings.Split(strings.TrimSuffix(sink.buf.String(), "\n"), "\n") {
		var rec record
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("a line is not JSON: %v", err)
		}
		switch {
		case strings.Contains(rec.Wirelens.Error, "bodies not recorded"):
			stubs++
			if len(rec.Request.Body) != 0 || rec.Response.BodyRaw != nil {
				t.Errorf("a dropped exchange kept a body: %.200q", l)
			}
		case len(rec.Request.Body) > 0 && rec.Response.BodyRaw != nil && *rec.Response.BodyRaw == answer:
			whole++
		default:
			t.Errorf("a line neither whole nor said to be dropped: %.300q", l)
		}
		if strings.Contains(rec.Wirelens.Error, "not at all") && !strings.Contains(rec.Wirelens.Error, fmt.Sprintf("and %d exchanges before this one not at all", n-maxStubs-1)) {
			t.Errorf("the last line says %q", rec.Wirelens.Error)
		}
	}
	if whole != maxQueued || stubs != maxStubs-maxQueued+1 {
		t.Errorf("%d whole and %d without bodies, want %d and %d", whole, stubs, maxQueued, maxStubs-maxQueued+1)
	}
	written, lost := rec.Counts()
	dropped, _ := rec.Behind()
	if written != whole+stubs || lost != n-whole-stubs || dropped != n-whole {
		t.Errorf("counts: %d written, %d lost, %d dropped", written, lost, dropped)
	}
	if l := logs.all(); !strings.Contains(l, "recorded without its bodies: the recording is 4 exchanges behind") || !strings.Contains(l, "further ones are counted") {
		t.Errorf("log %q", l)
	}
}

// The queue holds at most maxSpooled exchanges whose bodies are in spool
// files (an open file each): past that, with the disk not answering, an
// exchange is recorded without its bodies and its spool file is closed.
func TestQueueBoundsSpoolFiles(t *testing.T) {
	defer func(a int) { maxSpooled = a }(maxSpooled)
	maxSpooled = 2
	dir := t.TempDir()
	sink := &blockingFile{release: make(chan struct{})}
	rec := newRecorder(filepath.Join(dir, "c.jsonl"), sink, 0, nil)
	body := []byte(`{"model":"m","messages":[]}` + strings.Repeat(" ", 100))
	var xs []*Exchange
	for range 5 {
		x := &Exchange{Method: "POST", URL: "http://h/v1/messages", Status: 200, reqSpool: spoolOf(t, dir, body, 1000)}
		xs = append(xs, x)
		rec.Add(x)
	}
	for i, x := range xs[maxSpooled:] {
		if x.reqSpool != nil || !strings.Contains(x.Err, "bodies not recorded") {
			t.Errorf("exchange %d past the bound: spool %v, note %q", maxSpooled+i, x.reqSpool, x.Err)
		}
	}
	close(sink.release)
	rec.Close()
	if n := strings.Count(sink.buf.String(), `"body":{"model":"m","messages":[]}`); n != maxSpooled {
		t.Errorf("%d lines with their body, want %d", n, maxSpooled)
	}
}

// A spool file that cannot be read back when the line is written (here
// closed under the recorder) costs the exchange its bodies, not its line:
// the recorder writes it again without them, saying so, as Line does.
func TestUnreadableSpoolRecordedWithoutBodies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cap.jsonl")
	rec, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := &Exchange{Start: time.Unix(1, 0), End: time.Unix(2, 0), Method: "POST", URL: "http://h/v1/messages",
		ReqHeader: http.Header{}, Status: 200, RespHeader: http.Header{}}
	x.reqSpool = spoolOf(t, dir, bytes.Repeat([]byte("x"), 3<<20), 32<<10)
	x.reqSpool.f.Close()
	rec.Add(x)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if n, lost := rec.Counts(); n != 1 || lost != 0 {
		t.Errorf("written %d, lost %d: want the exchange's line", n, lost)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines != 1 || !bytes.Contains(data, []byte("bodies not recorded")) || bytes.Contains(data, []byte("xxxx")) {
		t.Errorf("%d lines: %.300s", lines, data)
	}
}
