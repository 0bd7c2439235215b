package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
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
