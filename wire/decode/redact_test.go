package decode

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// TestDecodeMasksCredentials: nothing decode hands out carries a recorded
// credential: neither a request's Endpoint, nor an error, nor the bytes
// ReadBody reads back.
func TestDecodeMasksCredentials(t *testing.T) {
	l := wiretest.WriteLeaks(t)
	leak := func(s string) bool { return strings.Contains(strings.ToLower(s), wiretest.LeakMarker) }
	n, errs := 0, 0
	for _, path := range []string{l.HAR, l.Trace, l.Broken} {
		for r, err := range Path(path, Options{}) {
			if err != nil {
				errs++
				if leak(err.Error()) {
					t.Errorf("%v", err)
				}
				continue
			}
			n++
			if leak(r.Endpoint) || r.Endpoint == "" {
				t.Errorf("%s: endpoint %q", r.Name(), r.Endpoint)
			}
			body, err := ReadBody(&r, 1<<20)
			if err != nil {
				t.Fatalf("%s: %v", r.Name(), err)
			}
			if leak(string(body)) {
				t.Errorf("%s: the body read back shows a credential:\n%s", r.Name(), body)
			}
		}
	}
	if n < 7 || errs != 1 {
		t.Fatalf("%d requests, %d errors", n, errs)
	}
}

// TestMaskNotes: notes are masked in a copy, the shared slice is kept.
func TestMaskNotes(t *testing.T) {
	d := &decoder{}
	shared := []string{"system prompt not recorded", "base URL https://u:p@proxy.example/v1"}
	// Twice: the second time from the decoder's memo of masked notes.
	for range 2 {
		got := d.maskNotes(shared)
		if got[1] != "base URL https://[redacted]@proxy.example/v1" || shared[1] != "base URL https://u:p@proxy.example/v1" {
			t.Fatalf("masked %q, shared now %q", got, shared)
		}
	}
	if clean := []string{"model not recorded"}; &d.maskNotes(clean)[0] != &clean[0] {
		t.Fatal("notes with nothing to mask were copied")
	}
}
