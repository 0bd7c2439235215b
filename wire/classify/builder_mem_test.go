package classify

import (
	"strconv"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// A request of many segments is built without copying its segments over
// and over: append's growth of a quarter for large slices made arrays
// adding up to about five times the segments (about 1 GB for a million, at
// 184 bytes a segment); doubling makes them add up to at most twice the
// last array.
func TestBuilderGrowsSegmentsByDoubling(t *testing.T) {
	const n = 200_000
	b := &Builder{Req: &wire.Request{}, In: wire.NewInterner()}
	made, lastCap := 0, 0
	for i := range n {
		b.Add(wire.Part{ID: "messages[" + strconv.Itoa(i) + "]", Channel: wire.ChannelMessages, Role: "user", Text: "m"})
		if c := cap(b.Req.Segments); c != lastCap {
			made += c // a new array
			lastCap = c
		}
	}
	if len(b.Req.Segments) != n {
		t.Fatalf("%d segments", len(b.Req.Segments))
	}
	if made > 4*n { // doubling: at most twice the last array, itself under twice n
		t.Errorf("building %d segments made arrays of %d segments in all (%.1f times)", n, made, float64(made)/n)
	}
}
