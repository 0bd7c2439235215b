package cachejson

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// marshal is r as the report wrote it before AppendRequest: encoding/json,
// scan.IndentJSON, scan.SafeJSON.
func marshal(t testing.TB, r *Request, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return scan.SafeJSON(scan.IndentJSON(nil, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), prefix, "  "))
}

// hostile are pieces of text that encoding/json or scan.SafeJSON escape:
// quotes, backslashes, every kind of control, HTML, invalid UTF-8, the line
// separators, bidi controls, tag characters, invisible characters, a ZWJ in
// an emoji, an 8-bit CSI, DEL.
var hostile = []string{"", "plain", `"`, `\`, "\n", "\t\r\b\f", "\x00\x01\x1b[31m\x1f", "<a href='x'>&amp;</a>",
	"\xff", "a\xc3", "\u2028\u2029", "\u202e", "\U000E0041\U000E0042", "\u200b", "👩\u200d💻", "\u009b31m",
	"\x7f", "é中文", "\ufeff", "x\u200dy", "\xed\xa0\x80", "}],:{[", "\U0001F3F4\U000E0067\U000E0062\U000E007F"}

func randText(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(4) {
		b.WriteString(hostile[rng.IntN(len(hostile))])
	}
	return b.String()
}

var floats = []float64{0, 0.000078, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 123456.789, -2.5, 300, 0.1 + 0.2, math.Copysign(0, -1)}

func randFloat(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return rng.Float64() * math.Pow(10, float64(rng.IntN(50)-25))
	}
	return floats[rng.IntN(len(floats))]
}

func randInt(rng *rand.Rand) int {
	switch rng.IntN(3) {
	case 0:
		return 0
	case 1:
		return rng.IntN(100000)
	}
	return -rng.IntN(10)
}

func maybe[T any](rng *rand.Rand, v T) *T {
	if rng.IntN(2) == 0 {
		return nil
	}
	return &v
}

func randBreak(rng *rand.Rand) *Break {
	if rng.IntN(2) == 0 {
		return nil
	}
	return &Break{Segment: randText(rng), Channel: randText(rng), Kind: randText(rng), Offset: randInt(rng),
		Before: randText(rng), After: randText(rng), Volatile: randText(rng), Cause: randText(rng),
		Label: randText(rng), Rule: randText(rng), Server: randText(rng)}
}

func randBreakCost(rng *rand.Rand) *diff.BreakCostJSON {
	if rng.IntN(2) == 0 {
		return nil
	}
	return &diff.BreakCostJSON{Tokens: randInt(rng), Rewritten: rng.IntN(2) == 0, Cost: randFloat(rng), Basis: randText(rng)}
}

func randRequest(rng *rand.Rand) *Request {
	r := &Request{Source: randText(rng), Index: randInt(rng), Line: randInt(rng), Format: randText(rng),
		Model: randText(rng), Provider: randText(rng), ComparedWith: Ref{randText(rng), randInt(rng)},
		TotalTokens: randInt(rng), PrefixTokens: randInt(rng), PrefixBytes: randInt(rng),
		Break: randBreak(rng), TextBreak: randBreak(rng), PredictedCachedTokens: maybe(rng, randInt(rng)),
		PredictionUnavailable: randText(rng), BreakpointPolicy: randText(rng),
		PredictedCacheWriteTokens: randInt(rng), PredictedFrom: randText(rng),
		RecordedCachedTokens: maybe(rng, randInt(rng)), ReprocessedTokens: randInt(rng),
		Disagreement: randText(rng), At: maybe(rng, randText(rng)), IdleSeconds: maybe(rng, randFloat(rng)),
		Lane: Lane{randText(rng), randText(rng)}, LaneFirst: rng.IntN(2) == 0, NeverWritten: maybe(rng, randText(rng))}
	if rng.IntN(2) == 0 {
		r.ProviderVerdict = &Verdict{By: randText(rng), Reason: randText(rng), MissedTokens: maybe(rng, randInt(rng)),
			Wirelens: randText(rng), Outcome: randText(rng)}
	}
	switch rng.IntN(3) {
	case 0:
		r.Notes = []string{}
	case 1:
		for range 1 + rng.IntN(3) {
			r.Notes = append(r.Notes, randText(rng))
		}
	}
	if rng.IntN(2) == 0 {
		r.ReusedFrom = &Ref{randText(rng), randInt(rng)}
	}
	if rng.IntN(2) == 0 {
		r.Expired = &Expired{LifetimeSeconds: randFloat(rng), IdleSeconds: randFloat(rng), Tokens: randInt(rng), From: randText(rng)}
	}
	if rng.IntN(3) != 0 {
		r.Cost = &diff.CostJSON{Price: randText(rng), Unconfirmed: rng.IntN(2) == 0, Currency: randText(rng),
			Spend: randFloat(rng), SpendBasis: randText(rng), Break: randBreakCost(rng), Expiry: randBreakCost(rng),
			Tokens: diff.TokensJSON{Input: randInt(rng), CachedRead: randInt(rng), CacheWrite5m: randInt(rng),
				CacheWrite1h: randInt(rng), Output: randInt(rng)}}
	}
	return r
}

// TestAppendMatchesMarshal: AppendRequest writes the bytes that encoding/json,
// scan.IndentJSON and scan.SafeJSON wrote, on records with every optional
// field present or not and hostile text in every string, after a prefix of
// earlier bytes that it keeps.
func TestAppendMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for i := range 20000 {
		r := randRequest(rng)
		prefix := []string{"", "    ", "\t"}[i%3]
		want := marshal(t, r, prefix)
		got, ok := AppendRequest([]byte("kept"), r, prefix)
		if !ok || !bytes.HasPrefix(got, []byte("kept")) || !bytes.Equal(got[4:], want) {
			t.Fatalf("record %d (ok %v):\n got %q\nwant %q", i, ok, got, want)
		}
	}
}

// TestAppendRefusesNonFinite: a NaN or an infinity (which encoding/json
// refuses) is not written: AppendRequest says so and leaves dst as it was.
func TestAppendRefusesNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := &Request{IdleSeconds: &f}
		got, ok := AppendRequest([]byte("kept"), r, "")
		if ok || string(got) != "kept" {
			t.Errorf("%v: ok %v, %q", f, ok, got)
		}
		if _, err := json.Marshal(r); err == nil {
			t.Errorf("%v: encoding/json took it", f)
		}
	}
}

// FuzzAppendString: any text in a record is written as the reference
// writes it.
func FuzzAppendString(f *testing.F) {
	for _, h := range hostile {
		f.Add(h, 0.5)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		r := &Request{Source: s, Notes: []string{s, s}, IdleSeconds: &x, Break: &Break{Before: s, After: s}}
		want := marshal(t, r, "  ")
		if got, ok := AppendRequest(nil, r, "  "); !ok || !bytes.Equal(got, want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}

// sample is a record as cache writes most: a priced request with a note,
// a lane and no break.
func sample() *Request {
	pred, rec := 1200, 1180
	at, idle, nw := "2026-11-30T10:00:00.123Z", 2.5, "below the 1024-token minimum"
	return &Request{Source: "/home/u/.claude/projects/-home-u-src-app/3f2a9c1e-0b7d-4c55-9d1e-2a6f0c8b7e11.jsonl",
		Index: 12, Line: 40, Format: "claude-code", Model: "claude-sonnet-4-5", Provider: "anthropic",
		ComparedWith: Ref{"/home/u/.claude/projects/-home-u-src-app/3f2a9c1e-0b7d-4c55-9d1e-2a6f0c8b7e11.jsonl", 11},
		TotalTokens:  15234, PrefixTokens: 14990, PrefixBytes: 61234, PredictedCachedTokens: &pred,
		BreakpointPolicy: "claude-code 2.x", PredictedFrom: "@11", RecordedCachedTokens: &rec,
		Notes: []string{"cache_control breakpoints are not recorded in claude-code files: placed where claude-code 2.x puts them (the last two user messages)"},
		Cost: &diff.CostJSON{Price: "Claude Sonnet 3.7 to 4.6", Currency: "USD", Spend: 0.012345, SpendBasis: "recorded",
			Tokens: diff.TokensJSON{Input: 244, CachedRead: 14990, Output: 120}},
		At: &at, IdleSeconds: &idle, Lane: Lane{"main", "cb016a76"}, NeverWritten: &nw}
}

func BenchmarkAppendRequest(b *testing.B) {
	r := sample()
	buf, _ := AppendRequest(nil, r, "    ")
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = AppendRequest(buf[:0], r, "    ")
	}
}

func BenchmarkMarshalRequest(b *testing.B) {
	r := sample()
	b.SetBytes(int64(len(marshal(b, r, "    "))))
	b.ReportAllocs()
	for b.Loop() {
		marshal(b, r, "    ")
	}
}

// TestScratchKeepsNothing: a Scratch used for one step gives the next the
// record RequestOf gives it, whichever comes first: a step with every
// optional part and one with none.
func TestScratchKeepsNothing(t *testing.T) {
	rec := 7
	full := &diff.Step{Source: "a.jsonl", Index: 3, Line: 9, Format: "claude-code", Model: "m\u202e",
		PrevSource: "a.jsonl", PrevIndex: 2, TotalTokens: 10, PrefixTokens: 4, PrefixBytes: 20,
		Break:     &diff.Break{Segment: "system[0]", Before: "x", After: "y", Label: "l", Rule: "tool-changed", Server: "s"},
		TextBreak: &diff.Break{Segment: "tools[1]"}, Recorded: &rec, Reprocessed: 6, Disagreement: "d",
		Prediction: diff.Prediction{Cached: 4, CacheWrite: 2, From: "a.jsonl@2", FromSource: "a.jsonl", FromIndex: 2,
			Policy: "p", Expired: &diff.Expiry{Lifetime: 300e9, Idle: 400e9, Tokens: 3, From: "a.jsonl@1"}},
		Verdict: &wire.CacheVerdict{By: "anthropic", Reason: "system_changed", MissedTokens: 5}, VerdictOutcome: "agrees",
		Notes: []string{"one", "two"}, At: time.Date(2026, 12, 2, 6, 0, 0, 5e6, time.UTC), Idle: 2e9, HasIdle: true,
		Lane: diff.Lane{Name: "main", ID: "ab"}, LaneFirst: true}
	full.Expired = full.Prediction.Expired
	bare := &diff.Step{Source: "b.jsonl", Index: 2, Prediction: diff.Prediction{Unavailable: "u", NeverWritten: "n"}}
	cost := &diff.Cost{Priced: true, Price: "row", Spend: diff.Spend{USD: 0.5, Basis: "recorded"},
		Break: &diff.BreakCost{Tokens: 3, USD: 0.1}, Expiry: &diff.BreakCost{Tokens: 2, USD: 0.2}}
	want := func(st *diff.Step, c *diff.Cost) []byte {
		r := RequestOf(st)
		r.Cost = c.JSON("USD")
		return marshal(t, &r, "")
	}
	var s Scratch
	for _, order := range [][]*diff.Step{{full, bare, full}, {bare, full, bare}} {
		for _, st := range order {
			for _, c := range []*diff.Cost{cost, nil, {Priced: true}} {
				r := s.Request(st)
				s.Cost(c, "USD")
				if got, _ := AppendRequest(nil, r, ""); !bytes.Equal(got, want(st, c)) {
					t.Fatalf("%s with cost %v:\n got %s\nwant %s", st.Source, c, got, want(st, c))
				}
			}
		}
	}
}
