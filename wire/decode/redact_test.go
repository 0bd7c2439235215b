package decode

import (
	"strconv"
	"strings"
	"sync"
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
	// Twice: the second time from the memo of masked notes (noteMasks).
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

// TestMaskNoteSharedByDecoders: a note masked by one decoder is the same
// masked text for another, on other goroutines at once (noteMasks), and
// the memo, once full, starts again rather than grow.
func TestMaskNoteSharedByDecoders(t *testing.T) {
	const note = "base URL https://user:hunter2@proxy.example/v1"
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = (&decoder{}).maskNotes([]string{note})[0] })
	}
	wg.Wait()
	for _, g := range got {
		if g != "base URL https://[redacted]@proxy.example/v1" {
			t.Fatalf("masked %q", g)
		}
	}
	for i := range noteMasksMax + 10 {
		maskNote("note " + strconv.Itoa(i))
	}
	noteMasks.Lock()
	n := len(noteMasks.m)
	noteMasks.Unlock()
	if n == 0 || n > noteMasksMax {
		t.Fatalf("the memo holds %d notes, want 1 to %d", n, noteMasksMax)
	}
	if m := maskNote(note); m != got[0] {
		t.Fatalf("after the memo started again: %q", m)
	}
}
