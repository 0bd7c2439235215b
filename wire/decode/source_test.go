package decode

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// sourceRequests decodes a file and fails the test on any error.
func sourceRequests(t *testing.T, path string) []wire.Request {
	t.Helper()
	var out []wire.Request
	for r, err := range Path(path, Options{Source: path}) {
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// TestReadBodyJSONL reads each body of a JSONL session back: it is the
// session's line, byte for byte.
func TestReadBodyJSONL(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "sessions", "session.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	reqs := sourceRequests(t, path)
	if len(reqs) != len(lines) {
		t.Fatalf("%d requests from %d lines", len(reqs), len(lines))
	}
	for i := range reqs {
		body, err := ReadBody(&reqs[i], 1<<20)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if string(body) != strings.TrimSpace(lines[i]) {
			t.Fatalf("request %d: read back %q, the line is %q", i+1, body, lines[i])
		}
	}
}

// TestReadBodyHAR reads back a request of a HAR export: the entry that
// holds its body.
func TestReadBodyHAR(t *testing.T) {
	reqs := sourceRequests(t, filepath.Join("..", "..", "testdata", "payloads", "capture.har"))
	if len(reqs) == 0 {
		t.Fatal("no request in the HAR fixture")
	}
	r := &reqs[0]
	entry, err := ReadBody(r, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Request struct {
			URL string `json:"url"`
		} `json:"request"`
	}
	if err := json.Unmarshal(entry, &v); err != nil || v.Request.URL != r.Endpoint {
		t.Fatalf("read back %.200q: url %q (%v), want %q", entry, v.Request.URL, err, r.Endpoint)
	}
}

// TestReadBodyString: bytes that are one JSON string come back unquoted.
func TestReadBodyString(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logged.json")
	data := ` "{\"model\":\"m\"}"` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBody(&wire.Request{Source: path, Offset: 0, Length: int64(len(data))}, 1<<20)
	if err != nil || string(b) != `{"model":"m"}` {
		t.Fatalf("read back %q, %v", b, err)
	}
}

// TestReadBodyErrors: nothing on disk is ErrNotOnDisk; a body longer than
// the limit, a file that lost the body and a file that is gone are other
// errors, each naming the file.
func TestReadBodyErrors(t *testing.T) {
	for _, r := range []wire.Request{
		{Source: "-", Offset: 0, Length: 10},
		{Source: "", Offset: 0, Length: 10},
		{Source: "built.json", Offset: -1, Length: 10},
		{Source: "built.json", Offset: 0, Length: 0},
	} {
		if _, err := ReadBody(&r, 1<<20); !errors.Is(err, ErrNotOnDisk) {
			t.Errorf("source %q offset %d length %d: %v, want ErrNotOnDisk", r.Source, r.Offset, r.Length, err)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "short.json")
	if err := os.WriteFile(path, []byte(`{"model":"m"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadBody(&wire.Request{Source: path, Offset: 0, Length: 13}, 1<<20); err != nil || !bytes.Equal(b, []byte(`{"model":"m"}`)) {
		t.Fatalf("whole file: %q, %v", b, err)
	}
	for _, c := range []struct {
		name string
		r    wire.Request
	}{
		{"longer than the limit", wire.Request{Source: path, Offset: 0, Length: 13}},
		{"past the end of the file", wire.Request{Source: path, Offset: 4, Length: 12}},
	} {
		_, err := ReadBody(&c.r, 12)
		if err == nil || errors.Is(err, ErrNotOnDisk) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := ReadBody(&wire.Request{Source: filepath.Join(dir, "gone.json"), Offset: 0, Length: 4}, 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestSentBody reads back the body each request was sent with: a JSONL
// line itself, a HAR entry's postData (also base64 and gzip), a trace
// line's request body; the same bytes the decoder read its request from.
func TestSentBody(t *testing.T) {
	dir := t.TempDir()
	body := `{"model":"gpt","messages":[{"role":"user","content":"hi \u202e there"}]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(body))
	zw.Close()
	quoted, _ := json.Marshal(body)
	files := map[string]string{
		"s.jsonl": body + "\n",
		"plain.har": `{"log":{"entries":[{"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions",
  "postData":{"text":` + string(quoted) + `}},"response":{"status":200,"content":{"text":"{}"}}}]}}`,
		"gzip.har": `{"log":{"entries":[{"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions",
  "headers":[{"name":"Content-Encoding","value":"gzip"}],
  "postData":{"encoding":"base64","text":"` + base64.StdEncoding.EncodeToString(gz.Bytes()) + `"}},"response":{"status":200,"content":{"text":"{}"}}}]}}`,
		"trace.jsonl": `{"request":{"url":"https://api.openai.com/v1/chat/completions","method":"POST","body":` + body + `},"response":{}}` + "\n",
		// wirelens proxy's and claude-trace's lines keep headers as an
		// object: the body was not found in them (the whole line came back).
		"proxy.jsonl": `{"request":{"url":"https://api.openai.com/v1/chat/completions","method":"POST","headers":{"content-type":"application/json"},"body":` + body + `},"response":{"status_code":200,"headers":{}}}` + "\n",
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		reqs := sourceRequests(t, path)
		if len(reqs) != 1 {
			t.Fatalf("%s: %d requests", name, len(reqs))
		}
		got, what, err := SentBody(&reqs[0], 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != body {
			t.Errorf("%s: the body sent is read back as %q (%s)", name, got, what)
		}
		if (what == "") != (name == "s.jsonl") {
			t.Errorf("%s: said to be %q", name, what)
		}
	}
}
