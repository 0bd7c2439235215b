package audit

import (
	"strings"
	"testing"
)

// TestObserveVolatile: a value found the same at the same place in every
// request that carries it is dropped and counted; one seen changing is kept
// once, with the values seen; one seen in a single request is kept.
func TestObserveVolatile(t *testing.T) {
	vol := func(seg string, off int, value string, count int) Finding {
		return Finding{Rule: RuleVolatileInPrefix, Source: "s.jsonl", Segment: seg, Offset: off,
			Message:  "a date (" + value + ") in the trusted prefix changes from request to request",
			Requests: &RequestSpan{First: 1, Count: count}}
	}
	fs := []Finding{
		vol("system[0]", 10, "2026-03-05", 4),                                  // stable in 4 requests
		{Rule: RuleUntrustedInSystem, Source: "s.jsonl", Segment: "system[0]"}, // another rule
		vol("system[1]", 5, "22:08:44Z", 1),                                    // changing
		vol("system[1]", 5, "22:09:13Z", 1),
		vol("system[1]", 5, "22:09:40Z", 1),
		vol("messages[0]", 0, "2026-12-01", 1), // one request only
	}
	keep, stable := ObserveVolatile(fs)
	want := []bool{false, true, true, false, false, true}
	for i := range want {
		if keep[i] != want[i] {
			t.Errorf("finding %d: keep %v, want %v", i, keep[i], want[i])
		}
	}
	if stable != 1 {
		t.Errorf("stable %d, want 1", stable)
	}
	if m := fs[2].Message; !strings.Contains(m, "(seen changing: 22:08:44Z, then 22:09:13Z and 1 more)") || fs[2].Requests.Count != 3 {
		t.Errorf("changed value: %q, count %d", m, fs[2].Requests.Count)
	}
}
