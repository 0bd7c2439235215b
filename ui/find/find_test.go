package find

import (
	"slices"
	"testing"
)

// TestAllWordsCursor: a lower-case query matches either case at the same
// byte offsets (a capital in the query makes it exact), overlapping
// occurrences count once; Words wants every word; a Cursor starts at the
// first match at or after a place and steps round both ways.
func TestAllWordsCursor(t *testing.T) {
	text := "Ünï POISONED poisoned aaa"
	if got := All(text, "poisoned", Fold("poisoned")); !slices.Equal(got, []int{6, 15}) {
		t.Errorf("smart case: %v", got)
	}
	if got := All(text, "POISONED", Fold("POISONED")); !slices.Equal(got, []int{6}) {
		t.Errorf("exact case: %v", got)
	}
	if got := All(text, "aa", true); !slices.Equal(got, []int{24}) {
		t.Errorf("overlaps: %v", got)
	}
	if !Words("high bidi-control #4", "BIDI high") || Words("high bidi-control", "high medium") {
		t.Error("Words")
	}
	c := Cursor{At: []int{2, 5, 9}}
	c.Start(4)
	for _, want := range []int{5, 9, 2} {
		if at, ok := c.Step(1); !ok || at != want {
			t.Fatalf("step: %d, want %d", at, want)
		}
	}
	if at, _ := c.Step(-1); at != 9 {
		t.Fatalf("back: %d", at)
	}
	c.Start(10) // past the last: round to the first
	if at, _ := c.Step(1); at != 2 {
		t.Fatalf("round: %d", at)
	}
	if _, ok := (&Cursor{}).Step(1); ok {
		t.Fatal("a cursor without matches stepped")
	}
}

// TestRequestFilter: every word must match, is:NAME by the markers given,
// an unknown is: word as text, in either case.
func TestRequestFilter(t *testing.T) {
	is := map[string]bool{"break": true, "finding": false}
	for _, c := range []struct {
		filter string
		want   bool
	}{
		{"", true},
		{"is:break", true},
		{"IS:BREAK sonnet", true},
		{"is:break is:finding", false},
		{"is:nosuch", false},
		{"is:odd", true},
		{"#3 haiku", false},
	} {
		if got := Request(c.filter, "#3 claude-Sonnet-4-6 is:odd.jsonl anthropic", is); got != c.want {
			t.Errorf("Request(%q) = %v, want %v", c.filter, got, c.want)
		}
	}
}
