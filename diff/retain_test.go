package diff

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
	"weak"

	"github.com/wirelens/wirelens/wire"
)

// heldRequest is request i of a session built for the retention tests, and
// weak pointers to what only it holds: its segments and the text of its
// system prompt. The system prompt changes at its timestamp every request
// (a break with excerpts cut from it) and names its part by a piece of its
// text (a label cut from it); the model changes every other request.
func heldRequest(i int, format wire.Format) (*wire.Request, weak.Pointer[wire.Segment], weak.Pointer[byte]) {
	sys := fmt.Sprintf("You are a coding agent.\nThe current time is 2026-11-29T22:%02d:%02dZ.\n%s", i/60, i%60, cacheTestRules)
	p := cacheSys(sys)
	p.Name = sys[:24]
	p.CacheBreakpoint = true
	models := []string{"claude-sonnet-4-5", "claude-haiku-4-5"}
	if format != wire.FormatAnthropic {
		models = []string{"gpt-5", "gpt-5-mini"}
	}
	r := cacheTestReq(nil, i+1, format, models[i%2], p, cacheMsg(0, "user", fmt.Sprintf("Question %d: what does main.go do?", i)))
	return &r, weak.Make(&r.Segments[0]), weak.Make(unsafe.StringData(sys))
}

// TestSequenceHoldsOnlyThePreviousRequest: a sequence keeps the request
// before the one it is given (of each model by default) and nothing older,
// even while every step it returned is kept: breaks hold copies of their
// excerpts and labels, and predictions name earlier requests without holding
// them. What a request alone held is collected once a later one has been
// added (a later one of its model by default).
func TestSequenceHoldsOnlyThePreviousRequest(t *testing.T) {
	const n = 40
	for _, tc := range []struct {
		format  wire.Format
		byModel bool
	}{{wire.FormatAnthropic, false}, {wire.FormatAnthropic, true}, {wire.FormatOpenAIChat, false}, {wire.FormatOpenAIChat, true}} {
		t.Run(fmt.Sprintf("%s/by-model=%v", tc.format, tc.byModel), func(t *testing.T) {
			q := Sequence{Consecutive: !tc.byModel}
			var steps []*Step
			segs := make([]weak.Pointer[wire.Segment], n)
			texts := make([]weak.Pointer[byte], n)
			for i := range n {
				var r *wire.Request
				r, segs[i], texts[i] = heldRequest(i, tc.format)
				if st := q.Add(r); st != nil {
					steps = append(steps, st)
				}
			}
			runtime.GC()
			kept := 1
			if tc.byModel {
				kept = 2
			}
			for i := range n - kept {
				if segs[i].Value() != nil || texts[i].Value() != nil {
					t.Errorf("request %d of %d is still held (segments %v, text %v)", i+1, n,
						segs[i].Value() != nil, texts[i].Value() != nil)
				}
			}
			// The check means something: the previous request is still there,
			// and the steps kept break in the system prompt with an excerpt and
			// a label.
			if segs[n-1].Value() == nil {
				t.Error("the previous request was collected while the sequence holds it")
			}
			for _, st := range steps {
				b := st.Break
				if b != nil && b.Cause == CauseModel {
					b = st.TextBreak
				}
				if b == nil || !strings.HasPrefix(b.Segment, "system[0]") || b.Before == "" || b.Label == "" {
					t.Fatalf("request %d: no break in the system prompt with an excerpt and a label: %+v", st.Index, b)
				}
			}
			runtime.KeepAlive(steps)
			runtime.KeepAlive(&q)
		})
	}
}
