package diff

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

// TestSeqViewExtendsInPlace: the views of a generated session's requests,
// each made after the one before as Sequence makes them, hold the running
// totals, chain hashes and blocks a view made alone (of a copy of the
// request's segments, no array shared) holds; most of them extend the
// arrays of the view before instead of copying them; and a view that
// extends a view another one extended already gets arrays of its own (the
// other's elements unchanged).
func TestSeqViewExtendsInPlace(t *testing.T) {
	var buf bytes.Buffer
	if err := encode.GenerateSession(&buf, 30, 2); err != nil {
		t.Fatal(err)
	}
	var reqs []wire.Request
	for r, err := range decode.Decode(&buf, decode.Options{Source: "gen.jsonl"}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	check := func(name string, v *seqView) {
		t.Helper()
		alone := v.req
		own := *alone
		own.Segments = slices.Clone(alone.Segments)
		w := newSeqView(&own, nil)
		n := len(w.segs)
		if !slices.Equal(v.chain[:n:n], w.chain) || !slices.Equal(v.cumTok, w.cumTok) || !slices.Equal(v.cumLen, w.cumLen) || !slices.Equal(v.block, w.block) {
			t.Fatalf("%s: the view's arrays differ from those of a view made alone", name)
		}
	}
	var prev *seqView
	inPlace := 0
	views := make([]*seqView, len(reqs))
	for i := range reqs {
		v := newSeqView(&reqs[i], prev)
		if prev != nil && v.run == prev.run && &v.chain[0] == &prev.chain[0] {
			inPlace++
		}
		views[i] = v
		prev = v
	}
	for i, v := range views {
		check(fmt.Sprintf("request %d", i+1), v)
	}
	if inPlace < len(reqs)/2 {
		t.Errorf("%d of %d views extended the arrays of the one before, want at least half", inPlace, len(reqs))
	}

	// Two views extending the same one: the second copies.
	long := reqs[len(reqs)-1]
	run := long.Segments
	if len(run) < 6 {
		t.Fatalf("%d segments", len(run))
	}
	a := &wire.Request{Source: "x", Index: 1, Segments: run[:3:3]}
	b := &wire.Request{Source: "x", Index: 2, Segments: run[:6:6]}
	c := &wire.Request{Source: "x", Index: 3, Segments: run[:5:5]}
	va := newSeqView(a, nil)
	vb := newSeqView(b, va)
	vc := newSeqView(c, va)
	if vb.run != va.run || vc.run == va.run {
		t.Errorf("the first view extending another should share its arrays, the second not (shared: %v, %v)", vb.run == va.run, vc.run == va.run)
	}
	for _, v := range []*seqView{va, vb, vc} {
		check("run", v)
	}
}
