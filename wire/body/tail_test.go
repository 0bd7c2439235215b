package body

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestRememberCopiesOnlyTheNewTail: a line read into the buffer of the line
// before (as a bufio.Reader reuses its buffer) is remembered byte for byte,
// whether WalkAfter walked it (and Remember copies only what it does not
// share with the line before) or the full walk did.
func TestRememberCopiesOnlyTheNewTail(t *testing.T) {
	lines := []string{
		`{"model":"m","messages":[{"role":"user","content":"a"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}],"x":1}`,
		`{"model":"n","messages":[{"role":"user","content":"z"}]}`,
		`{"model":"n","messages":[{"role":"user","content":"z"},{"role":"user","content":"y"}]}`,
	}
	c := NewElementCache()
	var w Walker
	buf := make([]byte, 0, 512)
	walkedAfter := 0
	for i, l := range lines {
		buf = append(buf[:0], l...)
		v := jsontext.Value(buf)
		s := w.WalkAfter(v, c)
		if s != nil {
			walkedAfter++
		} else {
			var err error
			if s, err = w.Walk(v); err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
		}
		for range s.get("messages").elems() { // as the decoders do: the elements' places are learnt
		}
		c.Remember(s)
		if c.last == nil || !bytes.Equal(c.last.line, []byte(l)) {
			t.Fatalf("line %d: remembered %q, want %q", i, c.last.line, l)
		}
		// The buffer is read over by the next line; the copy stays.
		clear(buf)
	}
	if walkedAfter < 2 {
		t.Errorf("%d lines walked after the one before, want at least 2", walkedAfter)
	}
}
