package body

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDepthCountShortcut: DepthExceeded (which skips the walk when the line
// holds no more openers than the limit) gives what the walk gives, on
// nestings just under, at and over the limit, with brackets in strings and
// escaped quotes, and on random bracket soup.
func TestDepthCountShortcut(t *testing.T) {
	texts := []string{
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		`{"a":"` + strings.Repeat("[", 2*MaxDepth) + `"}`,
		`{"a":"\"` + strings.Repeat("{", MaxDepth) + `"` + strings.Repeat("[", MaxDepth) + `}`,
		`"unterminated ` + strings.Repeat("{", 2*MaxDepth),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(6 * MaxDepth) {
			switch n := r.IntN(100); {
			case n < 2:
				b.WriteByte('"')
			case n < 4:
				b.WriteByte('\\')
			case n < 70:
				b.WriteByte("[{"[n%2])
			default:
				b.WriteByte("]}"[n%2])
			}
		}
		texts = append(texts, b.String())
	}
	exceeded := 0
	for _, s := range texts {
		got, want := DepthExceeded([]byte(s), MaxDepth), depthWalk([]byte(s), MaxDepth, 0)
		if got != want {
			t.Fatalf("%.80q: DepthExceeded %d, the walk %d", s, got, want)
		}
		if want >= 0 {
			exceeded++
		}
	}
	if exceeded < 3 || exceeded == len(texts) {
		t.Fatalf("%d of %d texts exceed the limit: the comparison means little", exceeded, len(texts))
	}
}
