package decode

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// harFixture is a file of testdata/har.
func harFixture(name string) string { return filepath.Join("..", "..", "testdata", "har", name) }

// Polly.js recordings of the OpenAI Node SDK (traceloop/openllmetry-js,
// testdata/har/README.md): the response content is a JSON array of base64
// chunks of one gzip stream. The usage inside is read, with no note.
func TestDecodeHARPollyGzip(t *testing.T) {
	cases := []struct {
		file   string
		format wire.Format
		model  string
		usage  *wire.Usage
	}{
		{"polly-openai-chat.har", wire.FormatOpenAIChat, "gpt-3.5-turbo",
			&wire.Usage{InputTokens: 15, OutputTokens: 20}},
		{"polly-openai-responses.har", wire.FormatOpenAIResponses, "gpt-4o-mini",
			&wire.Usage{InputTokens: 14, CachedTokens: 13, OutputTokens: 26}},
	}
	for _, c := range cases {
		reqs, errs := decodeAll(t, harFixture(c.file), Options{})
		if len(errs) > 0 || len(reqs) != 1 {
			t.Fatalf("%s: %d requests, errors %v", c.file, len(reqs), errs)
		}
		r := reqs[0]
		if r.Format != c.format || r.Model != c.model || len(r.Notes) != 0 {
			t.Errorf("%s: format %q model %q notes %q", c.file, r.Format, r.Model, r.Notes)
		}
		checkUsage(t, r, c.usage)
		if len(r.Segments) != 1 || r.Segments[0].Text != "Tell me a joke about OpenTelemetry" {
			t.Errorf("%s: segments %+v", c.file, r.Segments)
		}
	}
}

func gzipOf(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// harOf is a HAR of one Chat Completions POST per response, each response
// given as its content member and headers.
func harOf(responses ...string) string {
	var es []string
	for _, r := range responses {
		es = append(es, `{"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
  "postData": {"text": "{\"model\":\"gpt\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"}},
 "response": `+r+`}`)
	}
	return `{"log": {"entries": [` + strings.Join(es, ",\n") + `]}}`
}

// The ways a response body is recorded: each gives its usage, or a note
// that says why it could not.
func TestDecodeHARResponseBodies(t *testing.T) {
	const usage = `{"usage":{"prompt_tokens":7,"completion_tokens":1}}`
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var zl, raw bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write([]byte(usage))
	zw.Close()
	fw, _ := flate.NewWriter(&raw, flate.DefaultCompression)
	fw.Write([]byte(usage))
	fw.Close()
	gz := gzipOf(t, usage)
	chunks, _ := json.Marshal([]string{b64(gz[:10]), b64(gz[10:17]), b64(gz[17:])})
	ok := &wire.Usage{InputTokens: 7, OutputTokens: 1}
	cases := []struct {
		name     string
		response string
		usage    *wire.Usage
		note     string
	}{
		{"plain text", `{"content": {"text": ` + q(usage) + `}}`, ok, ""},
		{"base64 of gzip, one string", `{"content": {"encoding": "base64", "text": "` + b64(gz) + `"}}`, ok, ""},
		{"Polly.js chunks of gzip", `{"content": {"encoding": "base64", "text": ` + q(string(chunks)) + `}}`, ok, ""},
		{"zlib under deflate", `{"headers": [{"name": "Content-Encoding", "value": "deflate"}], "content": {"encoding": "base64", "text": "` + b64(zl.Bytes()) + `"}}`, ok, ""},
		{"raw deflate under deflate", `{"headers": [{"name": "content-encoding", "value": "deflate"}], "content": {"encoding": "base64", "text": "` + b64(raw.Bytes()) + `"}}`, ok, ""},
		{"decoded text under a gzip header", `{"headers": [{"name": "content-encoding", "value": "gzip"}], "content": {"text": ` + q(usage) + `}}`, ok, ""},
		{"not recorded", `{"status": 200, "content": {"size": 0}}`, nil, "response body not recorded"},
		{"gzip cut short", `{"content": {"encoding": "base64", "text": "` + b64(gz[:len(gz)-12]) + `"}}`, nil,
			"response body is gzip that could not be read: unexpected EOF: usage not read"},
		{"brotli", `{"headers": [{"name": "Content-Encoding", "value": "br"}], "content": {"encoding": "base64", "text": "` + b64([]byte{0x1b, 0x33, 0x00, 0xf8, 0x25, 0x0e}) + `"}}`, nil,
			"response body is Brotli-compressed (Content-Encoding: br), and wirelens has no Brotli decoder (none in Go's standard library): usage not read"},
		{"bad base64", `{"content": {"encoding": "base64", "text": "%%%"}}`, nil,
			"response body could not be read (invalid base64: illegal base64 data at input byte 0): usage not read"},
		{"bad Polly.js chunk", `{"content": {"encoding": "base64", "text": "[\"H4sI\", \"!!\"]"}}`, nil,
			"response body could not be read (base64 chunk 2 (Polly.js): invalid base64: illegal base64 data at input byte 0): usage not read"},
		{"an error response", `{"status": 429, "content": {"text": "{\"error\":{\"message\":\"Rate limit\"}}"}}`, nil,
			"response is HTTP 429, with no usage"},
		{"a body without usage", `{"status": 200, "content": {"text": "{\"id\":\"chatcmpl-1\"}"}}`, nil,
			"response body carries no usage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reqs, errs := runDecodeReqs(t, harOf(c.response))
			if len(errs) > 0 || len(reqs) != 1 {
				t.Fatalf("%d requests, errors %q", len(reqs), errs)
			}
			checkUsage(t, reqs[0], c.usage)
			var want []string
			if c.note != "" {
				want = []string{c.note}
			}
			if !slices.Equal(reqs[0].Notes, want) {
				t.Errorf("notes %q, want %q", reqs[0].Notes, want)
			}
		})
	}
}

func runDecodeReqs(t *testing.T, in string) ([]wire.Request, []string) {
	t.Helper()
	var reqs []wire.Request
	var errs []string
	for r, err := range Decode(strings.NewReader(in), Options{Source: "cap.har"}) {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		reqs = append(reqs, r)
	}
	return reqs, errs
}

// A gzip bomb in a response is read no further than body.MaxDecompressed:
// the request is shown, without usage, with a note that says so.
func TestDecodeHARGzipBomb(t *testing.T) {
	defer func(n int) { body.MaxDecompressed = n }(body.MaxDecompressed)
	body.MaxDecompressed = 1 << 20
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	w.Write([]byte(`{"usage":{"prompt_tokens":7,"completion_tokens":1},"pad":"`))
	w.Write(bytes.Repeat([]byte{' '}, 4<<20))
	w.Write([]byte(`"}`))
	w.Close()
	resp := `{"content": {"encoding": "base64", "text": "` + base64.StdEncoding.EncodeToString(b.Bytes()) + `"}}`
	reqs, errs := runDecodeReqs(t, harOf(resp))
	if len(errs) > 0 || len(reqs) != 1 {
		t.Fatalf("%d requests, errors %q", len(reqs), errs)
	}
	checkUsage(t, reqs[0], nil)
	want := []string{"response body is gzip that decompresses past 1 MiB (not read further): usage not read"}
	if !slices.Equal(reqs[0].Notes, want) {
		t.Errorf("notes %q, want %q", reqs[0].Notes, want)
	}
}

// A request body recorded as base64 of gzip is read like a plain one.
func TestDecodeHARGzipRequestBody(t *testing.T) {
	gz := gzipOf(t, `{"model":"gpt","messages":[{"role":"user","content":"hi"}]}`)
	in := `{"log": {"entries": [{"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
  "headers": [{"name": "Content-Encoding", "value": "gzip"}],
  "postData": {"encoding": "base64", "text": "` + base64.StdEncoding.EncodeToString(gz) + `"}},
 "response": {"content": {"text": "{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}"}}}]}}`
	reqs, errs := runDecodeReqs(t, in)
	if len(errs) > 0 || len(reqs) != 1 || reqs[0].Model != "gpt" {
		t.Fatalf("requests %+v, errors %q", reqs, errs)
	}
	checkUsage(t, reqs[0], &wire.Usage{InputTokens: 3, OutputTokens: 1})
}

// The decompressed bytes are capped per input, not per body: 20 gzip+base64
// request bodies of a small HAR (each under the per-body cap) are read until
// the input's budget is spent, then each is an error that says so; memory
// and time stay those of the budget, not of 20 bodies (259 s and 2.77 GB at
// 64 MiB each before).
func TestDecodeHARDecompressedPerInput(t *testing.T) {
	defer func(n, m int) { body.MaxDecompressed, body.MaxDecompressedInput = n, m }(body.MaxDecompressed, body.MaxDecompressedInput)
	body.MaxDecompressed, body.MaxDecompressedInput = 1<<20, 3<<20
	var es []string
	for i := range 20 {
		text := fmt.Sprintf("body %d ", i) + strings.Repeat("abcdefghijklmnopqrstuvwxyz", 900<<10/26)
		gz := gzipOf(t, `{"model":"gpt","messages":[{"role":"user","content":"`+text+`"}]}`)
		es = append(es, `{"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
  "headers": [{"name": "Content-Encoding", "value": "gzip"}],
  "postData": {"encoding": "base64", "text": "`+base64.StdEncoding.EncodeToString(gz)+`"}},
 "response": {"content": {"text": "{}"}}}`)
	}
	in := `{"log": {"entries": [` + strings.Join(es, ",\n") + `]}}`
	if len(in) > 200<<10 {
		t.Fatalf("the HAR is %d bytes: meant to be small", len(in))
	}
	reqs, errs := runDecodeReqs(t, in)
	if len(reqs) != 3 {
		t.Errorf("%d requests read, want 3 (3 MiB of 0.9 MiB bodies)", len(reqs))
	}
	budget := 0
	for _, e := range errs {
		if strings.Contains(e, "past 3 MiB decompressed in this input") {
			budget++
		}
	}
	if budget == 0 || len(reqs)+len(errs) < 5 {
		t.Errorf("errors %q, want the rest refused for the input's budget", errs)
	}
}
