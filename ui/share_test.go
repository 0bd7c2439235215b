package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

// growingWithEscapes is a growing Anthropic session whose tool results
// carry escapes and hazards, and whose cache breakpoint moves to the newest
// message: request k is request k-1 and one more message.
func growingWithEscapes(t *testing.T, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	var msgs []map[string]any
	for k := 0; k < n; k++ {
		text := fmt.Sprintf("result %d: &lt;b&gt; and a bidi \u202e mark", k)
		role, typ := "user", "tool_result"
		if k%2 == 1 {
			role, typ, text = "assistant", "text", fmt.Sprintf("answer %d", k)
		}
		blk := map[string]any{"type": typ}
		if typ == "tool_result" {
			blk["tool_use_id"], blk["content"] = fmt.Sprintf("t%d", k), text
		} else {
			blk["text"] = text
		}
		for _, m := range msgs {
			delete(m["content"].([]map[string]any)[0], "cache_control")
		}
		blk["cache_control"] = map[string]any{"type": "ephemeral"}
		msgs = append(msgs, map[string]any{"role": role, "content": []map[string]any{blk}})
		b, err := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 10,
			"system": "You are a coding agent.", "messages": msgs})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(b, '\n'))
	}
	return out.Bytes()
}

// decodeAll decodes a JSONL session.
func decodeAll(t *testing.T, in []byte) []wire.Request {
	t.Helper()
	var reqs []wire.Request
	for r, err := range decode.Decode(bytes.NewReader(in), decode.Options{Source: "s.jsonl", Interner: wire.NewInterner()}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// sameTables reports how two entries of one request differ ("" for not).
func sameTables(got, want *entry) string {
	eq := func(a, b any) bool {
		return reflect.ValueOf(a).Len() == 0 && reflect.ValueOf(b).Len() == 0 || reflect.DeepEqual(a, b)
	}
	switch {
	case !eq(got.order, want.order):
		return fmt.Sprintf("order %v, want %v", got.order, want.order)
	case !eq(got.segTok, want.segTok) || got.tokens != want.tokens:
		return fmt.Sprintf("tokens %v (%d), want %v (%d)", got.segTok, got.tokens, want.segTok, want.tokens)
	case !eq(got.segHz, want.segHz) || got.hazards != want.hazards:
		return fmt.Sprintf("%d hazards, want %d", got.hazards, want.hazards)
	case !eq(got.segSecrets, want.segSecrets):
		return "secrets differ"
	case got.escapes != want.escapes || !eq(got.escRows, want.escRows):
		return fmt.Sprintf("%d escapes in %d rows, want %d in %d", got.escapes, len(got.escRows), want.escapes, len(want.escRows))
	}
	return ""
}

// The viewer measures a growing session once per distinct segment: each
// request's tables (tokens, hazards, secrets, cache order, escape rows) are
// what it would measure of the request alone, held in arrays the requests
// share, with no room after each request's (so nothing written for a later
// request shows in an earlier one). Neither the measuring nor the analyses
// nor a what-if rewrite change any request's segments or breakpoints.
func TestMeasureSharesTables(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 120, 3); err != nil {
		t.Fatal(err)
	}
	for k, in := range [][]byte{gen.Bytes(), growingWithEscapes(t, 60)} {
		reqs := decodeAll(t, in)
		before := make([]wire.Request, len(reqs))
		for i, r := range reqs {
			before[i] = r
			before[i].Segments = slices.Clone(r.Segments)
			for j := range before[i].Segments {
				before[i].Segments[j].Escapes = slices.Clone(r.Segments[j].Escapes)
			}
			before[i].Breakpoints = slices.Clone(r.Breakpoints)
		}
		m := New(Options{Requests: reqs})
		a := DefaultAnalysis()
		a.Findings(reqs)
		a.Cache(reqs)
		w := assemble.Rewrite{Isolate: true, SortTools: true, FreezeTime: true}
		for i := range reqs {
			w.Apply(&reqs[i])
		}
		arrays := map[*int]int{} // the first token count's address: the longest request on it
		longest, rows := 0, 0
		for i := range m.reqs {
			e := &m.reqs[i]
			if !reflect.DeepEqual(e.req, before[i]) || !reflect.DeepEqual(reqs[i], before[i]) {
				t.Fatalf("request %d changed", i+1)
			}
			alone := newHazardMemo().measure(before[i])
			if d := sameTables(e, &alone); d != "" {
				t.Fatalf("request %d: %s", i+1, d)
			}
			if cap(e.segTok) != len(e.segTok) || cap(e.segHz) != len(e.segHz) || cap(e.segSecrets) != len(e.segSecrets) ||
				cap(e.order) != len(e.order) || cap(e.escRows) != len(e.escRows) {
				t.Fatalf("request %d: room after its tables", i+1)
			}
			longest, rows = max(longest, len(e.segTok)), max(rows, len(e.escRows))
			arrays[&e.segTok[0]] = max(arrays[&e.segTok[0]], len(e.segTok))
		}
		held := 0
		for _, n := range arrays {
			held += n
		}
		if held > 3*longest || len(arrays) > 8 {
			t.Errorf("%d arrays holding %d token counts for %d requests of up to %d segments: not shared", len(arrays), held, len(reqs), longest)
		}
		if k == 1 && rows < 60 {
			t.Errorf("the session with escapes has %d escape rows at most", rows)
		}
	}
}

// A request that adds a segment of an earlier channel after the segments
// of the one before (a tool after the messages) shares its tables but not
// its cache order, which puts the new tool first.
func TestMeasureOrderNotExtended(t *testing.T) {
	segs := []wire.Segment{
		{ID: "system[0]", Channel: wire.ChannelSystem, Text: "rules"},
		{ID: "messages[0]", Channel: wire.ChannelMessages, Text: "hi"},
		{ID: "tools[0]", Channel: wire.ChannelTools, Text: "{}"},
	}
	hm := newHazardMemo()
	a := hm.measure(wire.Request{Segments: segs[:2:2]})
	b := hm.measure(wire.Request{Segments: segs[:3:3]})
	if &a.segTok[0] != &b.segTok[0] {
		t.Errorf("the second request does not share the first's token counts")
	}
	if !slices.Equal(a.order, []int{0, 1}) || !slices.Equal(b.order, []int{2, 0, 1}) {
		t.Errorf("cache orders %v and %v, want [0 1] and [2 0 1]", a.order, b.order)
	}
}
