package capture

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire/body"
)

// TestMockAnswersEachAPI: with no upstream, each API and mode gets a valid
// answer in its own shape (events for a stream), with usage and zero cached
// tokens, and each exchange is recorded as a mock one.
func TestMockAnswersEachAPI(t *testing.T) {
	for _, c := range apiCases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, nil)
			resp, got := r.post(c.path, []byte(c.body), nil)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			ct := resp.Header.Get("Content-Type")
			switch {
			case c.sse:
				if ct != "text/event-stream" {
					t.Errorf("content type %q for a stream", ct)
				}
				n := 0
				body.EachSSE(got, func(_ string, data []byte) {
					if string(data) != "[DONE]" && !jsontext.Value(data).IsValid() {
						t.Errorf("an event that is not JSON: %q", data)
					}
					n++
				})
				if n < 2 {
					t.Errorf("%d events: %q", n, got)
				}
			default:
				if ct != "application/json" || !jsontext.Value(got).IsValid() {
					t.Errorf("%s %q", ct, got)
				}
			}
			if !strings.Contains(string(got), MockText) {
				t.Errorf("the answer does not say %q: %q", MockText, got)
			}
			u := body.ResponseUsage(c.format, got)
			if u == nil || u.InputTokens <= 0 || u.CachedTokens != 0 {
				t.Errorf("usage %+v", u)
			}
			reqs, errs := r.decoded()
			if len(errs) > 0 || len(reqs) != 1 || reqs[0].Usage == nil || reqs[0].Usage.InputTokens != u.InputTokens {
				t.Errorf("decoded %d requests (%v), errors %v", len(reqs), reqs, errs)
			}
			recs := r.records()
			if len(recs) != 1 || !recs[0].Wirelens.Mock {
				t.Errorf("record not marked mock: %+v", recs)
			}
		})
	}
}

// TestMockAnswersShapes: the streamed answers hold what clients wait for:
// Anthropic's message_stop, OpenAI's [DONE], the Responses API's
// response.completed with its output; a JSON-only request gets JSON.
func TestMockAnswersShapes(t *testing.T) {
	r := newRig(t, nil)
	for _, c := range []struct{ path, body, want string }{
		{"/v1/messages", `{"model":"m","stream":true,"messages":[]}`, "event: message_stop"},
		{"/v1/chat/completions", `{"model":"m","stream":true,"messages":[]}`, "data: [DONE]"},
		{"/v1/responses", `{"model":"m","stream":true,"input":"x"}`, `"type":"response.completed"`},
		{"/v1/responses", `{"model":"m","stream":true,"input":"x"}`, `"output":[{"id":"msg_wirelens_mock_`},
		{"/v1beta/models/g:generateContent", `{"contents":[],"generationConfig":{"responseMimeType":"application/json"}}`, `"text":"{}"`},
		{"/v1beta/models/g:streamGenerateContent", `{"contents":[]}`, `[{"candidates"`},
		{"/v1/messages/count_tokens", `{"model":"m","messages":[]}`, `{"input_tokens":`},
		{"/v1beta/models/g:countTokens", `{"contents":[]}`, `{"totalTokens":`},
		{"/v1/messages", `not json at all`, `"text":"4"`},
	} {
		_, got := r.post(c.path, []byte(c.body), nil)
		if !strings.Contains(string(got), c.want) {
			t.Errorf("%s %s: %q lacks %q", c.path, c.body, got, c.want)
		}
	}
	for _, path := range []string{"/v1/models", "/v1beta/models", "/api/health"} {
		resp, err := http.Get(r.url + path)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !jsontext.Value(got).IsValid() {
			t.Errorf("GET %s: %d %q", path, resp.StatusCode, got)
		}
		if strings.HasSuffix(path, "models") && !strings.Contains(string(got), `"models":[]`) {
			t.Errorf("GET %s: %q is not an empty model list", path, got)
		}
	}
	if recs := r.records(); len(recs) != 12 {
		t.Errorf("%d exchanges recorded, want every one of 12", len(recs))
	}
}

// secrets are credentials in every place a client puts them.
var secrets = map[string]string{
	"Authorization":  "Bearer sk-proj-TESTSECRET000111222333444a1b2",
	"X-Api-Key":      "sk-ant-api03-TESTSECRET555666777888999c3d4",
	"X-Goog-Api-Key": "AIzaSyTESTSECRET0123456789abcdefghiJe5f6",
	"Api-Key":        "azure0TESTSECRET0123456789abcdefg7h8",
	"Cookie":         "session=TESTSECRETcookie0123456789abcdef; other=TESTSECRETcookie2222222222",
}

const querySecret = "AIzaSyTESTSECRETquery0123456789abcdefgh9i0"

// TestRecordingMasksCredentials: no credential a client sends reaches the
// recording or the HAR in the clear (each becomes its hint: scheme and last
// 4 characters), while the upstream gets them as sent.
func TestRecordingMasksCredentials(t *testing.T) {
	var mu sync.Mutex
	upstreamSaw := http.Header{}
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		for k := range secrets {
			upstreamSaw.Set(k, req.Header.Get(k))
		}
		mu.Unlock()
		w.Header().Set("Set-Cookie", "session=TESTSECRETsetcookie0123456789abc; Path=/; HttpOnly")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"usage":{"input_tokens":1}}`)
	}))
	h := http.Header{}
	for k, v := range secrets {
		h.Set(k, v)
	}
	r.post("/v1beta/models/g:generateContent?key="+querySecret+"&alt=json", []byte(`{"contents":[]}`), h)
	for k, v := range secrets {
		if upstreamSaw.Get(k) != v {
			t.Errorf("the upstream got %s %q, want it as sent", k, upstreamSaw.Get(k))
		}
	}
	r.close()
	rec, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	harPath := filepath.Join(t.TempDir(), "x.har")
	var har bytes.Buffer
	if err := WriteHAR(&har, bytes.NewReader(rec), "test"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(harPath, har.Bytes(), 0o600)
	for name, out := range map[string][]byte{"recording": rec, "HAR": har.Bytes()} {
		if bytes.Contains(out, []byte("TESTSECRET")) {
			i := bytes.Index(out, []byte("TESTSECRET"))
			t.Errorf("%s holds a credential in the clear: %q", name, out[max(0, i-60):min(len(out), i+40)])
		}
		for _, hint := range []string{`"Bearer sk-…a1b2"`, `"sk-…c3d4"`, `"…e5f6"`, `"…g7h8"`, "key=%E2%80%A6h9i0", "session=…cdef", "session=…9abc; Path=/; HttpOnly"} {
			if !bytes.Contains(out, []byte(hint)) {
				t.Errorf("%s lacks the hint %s", name, hint)
			}
		}
	}
	if !jsontext.Value(har.Bytes()).IsValid() {
		t.Fatalf("the HAR is not JSON")
	}
}

// TestRecordingFileMode: the recording is created readable by its owner only.
func TestRecordingFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rec, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	// While it is open: closed empty, the file it made is removed.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if st.Mode().Perm()&0o077 != 0 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if _, err := Create(t.TempDir(), nil); err == nil {
		t.Error("a directory was accepted as the recording")
	}
}

// failingFile writes part of a line and then fails, as a full disk does.
type failingFile struct {
	buf    bytes.Buffer
	failOn string // the write that holds this fails half way
}

func (f *failingFile) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(f.failOn)) {
		n := len(p) / 2
		f.buf.Write(p[:n])
		return n, errors.New("no space left on device")
	}
	return f.buf.Write(p)
}

func (f *failingFile) Truncate(n int64) error { f.buf.Truncate(int(n)); return nil }
func (f *failingFile) Close() error           { return nil }

// TestRecorderWriteFailureKeepsTheFileWhole: a write that fails half way
// is cut off again, the exchanges before and after it stay whole, and one
// line says which exchange was lost.
func TestRecorderWriteFailureKeepsTheFileWhole(t *testing.T) {
	f := &failingFile{failOn: `{"n":1}`}
	logs := &logLines{}
	rec := newRecorder("full.jsonl", f, 0, logs.add)
	for i := range 3 {
		rec.Add(&Exchange{Method: "POST", URL: "http://x/v1/messages", ReqBody: []byte(`{"n":` + string(rune('0'+i)) + `}`), Status: 200})
	}
	rec.Close()
	lines := strings.Split(strings.TrimSuffix(f.buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2: %q", len(lines), f.buf.String())
	}
	for _, l := range lines {
		if !jsontext.Value(l).IsValid() {
			t.Errorf("a line is not whole: %q", l)
		}
	}
	if !strings.Contains(lines[0], `"body":{"n":0}`) || !strings.Contains(lines[1], `"body":{"n":2}`) {
		t.Errorf("lines %q", lines)
	}
	if written, lost := rec.Counts(); written != 2 || lost != 1 {
		t.Errorf("written %d, lost %d", written, lost)
	}
	if !strings.Contains(logs.all(), "not recorded: no space left") {
		t.Errorf("log %q", logs.all())
	}
}

// TestCreateLeavesNoEmptyCapture: a recording Create made and nothing was
// written to is removed at Close (record and proxy runs that recorded
// nothing left an empty file); one that existed before, even empty, is
// kept.
func TestCreateLeavesNoEmptyCapture(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.jsonl")
	rec, err := Create(fresh, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(fresh); !os.IsNotExist(err) {
		t.Errorf("the empty capture it made is still there: %v", err)
	}
	kept := filepath.Join(dir, "kept.jsonl")
	if err := os.WriteFile(kept, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err = Create(kept, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if _, err := os.Lstat(kept); err != nil {
		t.Errorf("a file that was there before was removed: %v", err)
	}
}
