package diff

import (
	"fmt"
	"math"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
)

// legacySession is n requests of a legacy session: the time mid-system,
// changing each request.
func legacySession(n int, model string) []wire.Request {
	in := wire.NewInterner()
	head := "You are a coding agent.\n" + cacheTestRules[:len(cacheTestRules)/2]
	tail := cacheTestRules[len(cacheTestRules)/2:]
	var reqs []wire.Request
	for k := 1; k <= n; k++ {
		sys := fmt.Sprintf("%sThe current time is 2026-11-29T22:15:%02dZ.\n%s", head, 10+k, tail)
		parts := append([]wire.Part{cacheSys(sys)}, cacheConversation(k)...)
		reqs = append(reqs, cacheTestReq(in, k, wire.FormatOpenAIChat, model, parts...))
	}
	return reqs
}

func TestCostPredictedBreaks(t *testing.T) {
	reqs := legacySession(4, "gpt-4.1")
	tab := price.Default()
	row, _ := tab.Lookup("gpt-4.1")
	var q Sequence
	l := Ledger{Prices: tab}
	for i := range reqs {
		st := q.Add(&reqs[i])
		c := l.Add(&reqs[i], st)
		if !c.Priced || c.Price != row.Name {
			t.Fatalf("request %d not priced: %+v", i+1, c)
		}
		if c.Spend.Basis != BasisPredicted || c.Spend.USD <= 0 {
			t.Errorf("request %d: spend %+v", i+1, c.Spend)
		}
		if st == nil {
			if c.Break != nil {
				t.Errorf("the first request has a break cost")
			}
			continue
		}
		b := c.Break
		if b == nil || b.Basis != BasisPredicted || b.Tokens != st.Reprocessed || b.Rewritten {
			t.Fatalf("request %d: break cost %+v, step reprocessed %d", i+1, b, st.Reprocessed)
		}
		want := float64(st.Reprocessed) * (row.Input - row.CachedRead) / 1e6
		if math.Abs(b.USD-want) > 1e-12 || b.USD <= 0 {
			t.Errorf("request %d: break %.8f USD, want %.8f", i+1, b.USD, want)
		}
	}
	tot := l.Totals()
	if tot.Requests != 4 || tot.Priced != 4 || tot.Breaks != 3 || tot.BreaksRecorded != 0 || tot.BreakUSD <= 0 ||
		tot.BreakPredictedUSD != tot.BreakUSD || tot.Currency != "USD" || len(tot.Unconfirmed) != 1 {
		t.Errorf("totals %+v", tot)
	}
}

func TestCostRecordedBreak(t *testing.T) {
	reqs := legacySession(2, "claude-sonnet-4-5")
	for i := range reqs {
		reqs[i].Format = wire.FormatAnthropic
	}
	reqs[0].Usage = &wire.Usage{InputTokens: 50_000, CacheWriteTokens: 49_000, OutputTokens: 300}
	// The second read only the tools' 1,000 tokens and wrote the rest again.
	reqs[1].Usage = &wire.Usage{InputTokens: 52_000, CachedTokens: 1_000, CacheWriteTokens: 50_500, OutputTokens: 200}
	tab := price.Default()
	row, _ := tab.Lookup("claude-sonnet-4-5")
	var q Sequence
	var costs []Cost
	for i := range reqs {
		costs = append(costs, CostOf(&reqs[i], q.Add(&reqs[i]), tab))
	}
	sp := costs[1].Spend
	if sp.Basis != BasisRecorded || sp.Tokens.Input != 500 || sp.Tokens.CachedRead != 1_000 || sp.Tokens.CacheWrite5m != 50_500 || sp.Tokens.Output != 200 {
		t.Errorf("recorded spend %+v", sp)
	}
	b := costs[1].Break
	if b == nil || b.Basis != BasisRecorded || b.Tokens != 49_000 || !b.Rewritten {
		t.Fatalf("recorded break %+v: want the 50,000 input of the request before less the 1,000 read, rewritten", b)
	}
	if want := 49_000 * (row.CacheWrite5m - row.CachedRead) / 1e6; math.Abs(b.USD-want) > 1e-12 {
		t.Errorf("break %.6f USD, want %.6f", b.USD, want)
	}
}

func TestCostUnpricedModel(t *testing.T) {
	reqs := legacySession(2, "my-local-llama")
	l := Ledger{Prices: price.Default()}
	var q Sequence
	for i := range reqs {
		if c := l.Add(&reqs[i], q.Add(&reqs[i])); c.Priced || c.Break != nil || c.Spend.USD != 0 {
			t.Errorf("unpriced model costs %+v", c)
		}
	}
	if tot := l.Totals(); tot.Unpriced["my-local-llama"] != 2 || tot.Priced != 0 || tot.SpendUSD != 0 {
		t.Errorf("totals %+v", tot)
	}
}

// TestCostFirstRequestWritesItsBreakpoints: under explicit caching the
// first request pays the cache write up to its last breakpoint.
func TestCostFirstRequestWritesItsBreakpoints(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	sys.CacheBreakpoint = true
	r := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", sys, cacheMsg(0, "user", "hi"))
	tab := price.Default()
	c := CostOf(&r, nil, tab)
	w := r.Segments[0].Tokens()
	if w < 1024 {
		t.Fatalf("system of %d tokens is under the minimum; the test needs more", w)
	}
	if c.Spend.Tokens.CacheWrite5m != w || c.Spend.Tokens.Input != requestTokens(&r)-w {
		t.Errorf("first request spend %+v, want %d written", c.Spend.Tokens, w)
	}
	// Without a breakpoint nothing is written.
	r.Breakpoints = nil
	if c := CostOf(&r, nil, tab); c.Spend.Tokens.CacheWrite5m != 0 {
		t.Errorf("no breakpoint, yet %d written", c.Spend.Tokens.CacheWrite5m)
	}
}
