package diff

import (
	"maps"
	"slices"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
)

// Basis says where a count of tokens comes from.
type Basis string

// Bases.
const (
	// BasisRecorded is the usage the provider recorded for the response.
	BasisRecorded Basis = "recorded"
	// BasisPredicted is the cache rules' prediction on estimated tokens.
	BasisPredicted Basis = "predicted"
)

// BreakCost is what a break of the cached prefix cost: the tokens processed
// again (or written to the cache again) instead of read from it, at the
// difference between the two prices.
type BreakCost struct {
	// Tokens is the tokens processed again: from the recorded usage, the
	// previous request's recorded input less this one's recorded cache
	// read (both recorded); else the tokens the prediction re-processes
	// (Step.Reprocessed).
	Tokens int
	// Rewritten says they were written to the cache again (explicit
	// caching), at the cache-write price rather than the input price.
	Rewritten bool
	USD       float64
	Basis     Basis
}

// Spend is what one request's prompt and answer cost.
type Spend struct {
	Tokens price.Tokens
	USD    float64
	// Basis is recorded when the provider recorded the usage (cache reads
	// included), else predicted: estimated tokens, the cache rules'
	// predicted reads and writes, the recorded output when there is one.
	Basis Basis
}

// Cost is the money of one request.
type Cost struct {
	// Priced is false when the price table has no row for the model;
	// Price names the row, Unconfirmed repeats its mark.
	Priced      bool
	Price       string
	Unconfirmed bool
	Spend       Spend
	// Break is nil when the request did not break the prefix (or is the
	// first of its sequence).
	Break *BreakCost
}

// CostOf prices request r, whose comparison with the request before it is
// st (nil for the first request of a sequence, whose prompt is counted as
// processed in full), at table's prices.
func CostOf(r *wire.Request, st *Step, table *price.Table) Cost {
	var c Cost
	row, ok := table.Lookup(r.Model)
	if !ok {
		return c
	}
	c.Priced, c.Price, c.Unconfirmed = true, row.Name, row.Unconfirmed
	u := r.Usage
	recorded := u != nil && !u.CachedUnknown
	switch {
	case recorded:
		c.Spend = Spend{Basis: BasisRecorded, Tokens: price.Tokens{
			Input:      max(0, u.InputTokens-u.CachedTokens-u.CacheWriteTokens),
			CachedRead: u.CachedTokens, CacheWrite5m: u.CacheWriteTokens, Output: u.OutputTokens}}
	default:
		total, cached, write := requestTokens(r), 0, 0
		if st != nil {
			total, cached, write = st.TotalTokens, st.Prediction.Cached, st.Prediction.CacheWrite
		}
		c.Spend = Spend{Basis: BasisPredicted, Tokens: price.Tokens{Input: max(0, total-cached-write),
			CachedRead: cached, CacheWrite5m: write}}
		if u != nil {
			c.Spend.Tokens.Output = u.OutputTokens
		}
	}
	c.Spend.USD = row.Cost(c.Spend.Tokens)
	if st == nil || st.Break == nil {
		return c
	}
	b := &BreakCost{Basis: BasisPredicted, Tokens: st.Reprocessed, Rewritten: st.Prediction.CacheWrite > 0}
	if st.Rule.Mode == CacheAutomatic && st.Rule.Step == 0 {
		b.Tokens = 0 // the model caches nothing: a break costs nothing more
	}
	if recorded && st.PrevRecordedInput != nil {
		b = &BreakCost{Basis: BasisRecorded, Tokens: max(0, min(*st.PrevRecordedInput, u.InputTokens)-u.CachedTokens),
			Rewritten: u.CacheWriteTokens > 0}
	}
	b.USD = float64(b.Tokens) * row.MissRate(b.Rewritten) / 1e6
	c.Break = b
	return c
}

// requestTokens is the estimated tokens of r.
func requestTokens(r *wire.Request) int {
	n := 0
	for i := range r.Segments {
		n += r.Segments[i].Tokens()
	}
	return n
}

// Ledger adds up the money of a sequence of requests.
type Ledger struct {
	Prices *price.Table
	t      LedgerTotals
}

// LedgerTotals is what a sequence of requests cost.
type LedgerTotals struct {
	Requests int
	// Priced counts the requests the table has a price for; Unpriced
	// counts the others by model.
	Priced   int
	Unpriced map[string]int
	// Spend is what the priced requests cost, split by basis.
	SpendUSD, SpendRecordedUSD, SpendPredictedUSD float64
	// Breaks is the priced breaks; BreakTokens and BreakUSD what they
	// cost, split by basis.
	Breaks                                        int
	BreakTokens                                   int
	BreakUSD, BreakRecordedUSD, BreakPredictedUSD float64
	BreaksRecorded                                int
	// Unconfirmed lists the price rows used that are marked unconfirmed.
	Unconfirmed []string
	// Currency is the table's.
	Currency string
}

// Add prices r (compared as st; nil for the first of a sequence), adds it
// to the totals and returns its cost.
func (l *Ledger) Add(r *wire.Request, st *Step) Cost {
	c := CostOf(r, st, l.Prices)
	t := &l.t
	t.Requests++
	if !c.Priced {
		if t.Unpriced == nil {
			t.Unpriced = map[string]int{}
		}
		t.Unpriced[r.Model]++
		return c
	}
	t.Priced++
	t.SpendUSD += c.Spend.USD
	if c.Spend.Basis == BasisRecorded {
		t.SpendRecordedUSD += c.Spend.USD
	} else {
		t.SpendPredictedUSD += c.Spend.USD
	}
	if c.Unconfirmed && !slices.Contains(t.Unconfirmed, c.Price) {
		t.Unconfirmed = append(t.Unconfirmed, c.Price)
	}
	if b := c.Break; b != nil {
		t.Breaks++
		t.BreakTokens += b.Tokens
		t.BreakUSD += b.USD
		if b.Basis == BasisRecorded {
			t.BreaksRecorded++
			t.BreakRecordedUSD += b.USD
		} else {
			t.BreakPredictedUSD += b.USD
		}
	}
	return c
}

// Totals returns what the requests added so far cost.
func (l *Ledger) Totals() LedgerTotals {
	t := l.t
	t.Unpriced = maps.Clone(t.Unpriced)
	t.Unconfirmed = slices.Clone(t.Unconfirmed)
	if l.Prices != nil {
		t.Currency = l.Prices.Currency
	}
	return t
}
