package body

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// decodeSession decodes lines, a session of bodies, as the decoder does:
// each walked after the line before, built in one array kept from body to
// body, the known segments taken in place when inPlace is set; it returns
// each request's segments and breakpoints, copied.
func decodeSession(t *testing.T, lines []string, inPlace bool) (segs [][]wire.Segment, bps [][]int) {
	t.Helper()
	c := NewElementCache()
	in := wire.NewInterner()
	var w Walker
	var scratch []wire.Segment
	for i, l := range lines {
		v := jsontext.Value(l)
		s := w.WalkAfter(v, c)
		if s == nil {
			var err error
			if s, err = w.Walk(v); err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
		}
		b := &classify.Builder{Req: &wire.Request{Format: wire.FormatAnthropic}, In: in}
		if !inPlace {
			scratch = nil // a new array for each body: every segment copied
		}
		b.Req.Segments = scratch[:0]
		c.Placing()
		if err := Decode(wire.FormatAnthropic, s, b, c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		c.Remember(s)
		segs = append(segs, slices.Clone(b.Req.Segments))
		bps = append(bps, slices.Clone(b.Req.Breakpoints))
		scratch = b.Req.Segments[:0]
		c.Placed(scratch)
	}
	return segs, bps
}

// A session's repeated elements are taken where the body before left them
// in the array, not copied there again, and every request's segments and
// breakpoints are what copying them gives: growing bodies, a body that
// changes an early message (nothing known after it), one that drops the
// cache breakpoint, and one that starts again.
func TestKnownSegmentsTakenInPlace(t *testing.T) {
	var lines []string
	msgs := []string{`{"role":"user","content":"start"}`}
	for i := range 12 {
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":"answer %d"}`, i),
			fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"turn %d","cache_control":{"type":"ephemeral"}}]}`, i))
		lines = append(lines, `{"model":"m","system":[{"type":"text","text":"rules"}],"messages":[`+strings.Join(msgs, ",")+`]}`)
	}
	changed := slices.Clone(msgs)
	changed[1] = `{"role":"assistant","content":"answer changed"}`
	lines = append(lines, `{"model":"m","system":[{"type":"text","text":"rules"}],"messages":[`+strings.Join(changed, ",")+`]}`)
	lines = append(lines, strings.ReplaceAll(lines[len(lines)-1], `,"cache_control":{"type":"ephemeral"}`, ""))
	lines = append(lines, `{"model":"m","messages":[{"role":"user","content":"again"}]}`, lines[3])
	before := inPlaceSegments.Load()
	gotSegs, gotBPs := decodeSession(t, lines, true)
	taken := inPlaceSegments.Load() - before
	wantSegs, wantBPs := decodeSession(t, lines, false)
	if inPlaceSegments.Load()-before != taken {
		t.Error("segments taken in place with a new array for each body")
	}
	for i := range lines {
		if !reflect.DeepEqual(gotSegs[i], wantSegs[i]) || !reflect.DeepEqual(gotBPs[i], wantBPs[i]) {
			t.Errorf("body %d: segments or breakpoints differ in place:\n%+v %v\ncopied:\n%+v %v", i+1, gotSegs[i], gotBPs[i], wantSegs[i], wantBPs[i])
		}
	}
	if taken < 100 {
		t.Errorf("%d segments taken in place, want the repeated ones (100 or more)", taken)
	}
}
