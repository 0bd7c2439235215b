package memo

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestTextsFindOncePerText: a text is looked at once per hash (the same
// slice comes back), a different text of the same hash but another length
// is looked at again, a segment without a hash every time, and a nil
// *Texts finds the same as a memo.
func TestTextsFindOncePerText(t *testing.T) {
	var tx Texts
	text := "a \u202e b AKIAQWERTY2345ABCDEF"
	s := wire.Segment{Text: text, Hash: wire.HashText(text)}
	h1, h2 := tx.Hazards(&s), tx.Hazards(&s)
	if len(h1) != 1 || &h1[0] != &h2[0] {
		t.Fatalf("hazards %v then %v: not found once", h1, h2)
	}
	if sec := tx.Secrets(&s); len(sec) != 1 || len(tx.Secrets(&s)) != 1 {
		t.Fatalf("secrets %v", sec)
	}
	other := wire.Segment{Text: "plain, and longer than the first text", Hash: s.Hash}
	if got := tx.Hazards(&other); len(got) != 0 {
		t.Errorf("a colliding hash of another length: %v", got)
	}
	bare := wire.Segment{Text: "\u202e"}
	if len(tx.Hazards(&bare)) != 1 || len(tx.hz) != 1 {
		t.Errorf("a segment without a hash was kept (%d kept)", len(tx.hz))
	}
	var none *Texts
	if got := none.Hazards(&s); len(got) != 1 || len(none.Secrets(&s)) != 1 {
		t.Errorf("a nil memo: %v", got)
	}
}
