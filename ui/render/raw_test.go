package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// TestRawBodyReadsTheBodyBack checks the Raw view shows the body as recorded
// (pretty-printed) when the file holds it, and wirelens's model with the
// reason when the file no longer does.
func TestRawBodyReadsTheBodyBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	if err := os.WriteFile(path, []byte("\n"+body+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := wire.Request{Source: path, Index: 1, Offset: 1, Length: int64(len(body))}
	text, note := RawBody(&r)
	if !strings.HasPrefix(note, "body from "+path) || !strings.Contains(text, "\n  \"model\": \"m\",\n") {
		t.Fatalf("read back: note %q\n%s", note, text)
	}
	r.Length = 100
	text, note = RawBody(&r)
	if !strings.Contains(note, path) || !strings.HasSuffix(note, ": wirelens's model of the request") || !strings.Contains(text, `"segments"`) {
		t.Fatalf("past the end of the file: note %q\n%s", note, text)
	}
}

// TestRawBodyOfABuiltRequest: a request not on disk (the demo's, watch's)
// is shown as the JSON it is sent as, encoded from it, which decodes back
// to the same text; and a HAR entry shows its request body, not the entry
// with the body as an escaped string.
func TestRawBodyOfABuiltRequest(t *testing.T) {
	var r wire.Request
	for req, err := range decode.Path(filepath.Join("..", "..", "testdata", "payloads", "capture.har"), decode.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		r = req
		break
	}
	text, note := RawBody(&r)
	if !strings.Contains(note, "request.postData") || !strings.HasPrefix(text, "{\n  \"model\": ") || strings.Contains(text, `\"`) {
		t.Fatalf("HAR entry: note %q\n%s", note, text)
	}
	r.Source, r.Offset, r.Length = "demo (isolated)", -1, 0
	text, note = RawBody(&r)
	if !strings.HasPrefix(note, "the body as sent") || strings.Contains(text, `"segments"`) {
		t.Fatalf("built request: note %q\n%s", note, text)
	}
	var back wire.Request
	for req, err := range decode.Decode(strings.NewReader(text), decode.Options{}) {
		if err != nil {
			t.Fatalf("the shown body does not decode: %v\n%s", err, text)
		}
		back = req
	}
	if len(back.Segments) != len(r.Segments) {
		t.Fatalf("the shown body decodes to %d segments, the request has %d", len(back.Segments), len(r.Segments))
	}
	for i := range back.Segments {
		if back.Segments[i].Text != r.Segments[i].Text {
			t.Fatalf("segment %d decodes to %q, was %q", i, back.Segments[i].Text, r.Segments[i].Text)
		}
	}
}

// TestRawBodyOfABuiltRequestMasksCredentials: a credential in a built
// request's text (a workspace file holding a key) is masked in the Raw view
// as in a body read back from a file; it was shown in clear.
func TestRawBodyOfABuiltRequestMasksCredentials(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Zq7", 30) + "AA"
	r := wire.Request{Source: "demo (isolated)", Offset: -1, Format: wire.FormatAnthropic, Model: "claude-x",
		Segments: []wire.Segment{{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user",
			Kind: wire.KindAgentsMD, Trust: wire.Untrusted, Text: "deploy with " + key + " please"}}}
	text, note := RawBody(&r)
	if !strings.HasPrefix(note, "the body as sent") {
		t.Fatalf("note %q\n%s", note, text)
	}
	if strings.Contains(text, key) || strings.Contains(text, "Zq7Zq7Zq7") {
		t.Fatalf("the built body shows the key in clear:\n%s", text)
	}
	if !strings.Contains(text, "deploy with ") {
		t.Fatalf("the text around the key is gone:\n%s", text)
	}
}
