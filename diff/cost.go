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
	// Expiry is what re-writing a prefix that had expired cost, nil when
	// none had.
	Expiry *BreakCost
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
		var total, cached, write int
		if st != nil {
			total, cached, write = st.TotalTokens, st.Prediction.Cached, st.Prediction.CacheWrite
			if st.SizeTokens > 0 {
				total = st.SizeTokens // in the provider's tokens, as the prediction
			}
		} else {
			// Summed only without a step: a session's requests repeat
			// their segments, so summing every request's is quadratic.
			total, write = requestTokens(r), firstWrite(r)
		}
		c.Spend = Spend{Basis: BasisPredicted, Tokens: price.Tokens{Input: max(0, total-cached-write),
			CachedRead: cached, CacheWrite5m: write}}
		if u != nil {
			c.Spend.Tokens.Output = u.OutputTokens
		}
	}
	if recorded && u.CacheWrite1hTokens > 0 {
		// 1-hour writes are priced as such.
		c.Spend.Tokens.CacheWrite1h = u.CacheWrite1hTokens
		c.Spend.Tokens.CacheWrite5m -= u.CacheWrite1hTokens
	}
	c.Spend.USD = row.Cost(c.Spend.Tokens)
	if st == nil || (st.Break == nil && st.Expired == nil) {
		return c
	}
	// missed is what the recording says was processed or written again
	// instead of read: the earlier request's input less this one's read.
	missed := -1
	if recorded && st.PrevRecordedInput != nil {
		missed = max(0, min(*st.PrevRecordedInput, u.InputTokens)-u.CachedTokens)
	}
	if e := st.Expired; e != nil {
		x := &BreakCost{Basis: BasisPredicted, Tokens: e.Tokens, Rewritten: st.Rule.Mode == CacheExplicit}
		if missed >= 0 {
			x.Basis, x.Rewritten = BasisRecorded, u.CacheWriteTokens > 0
			x.Tokens = missed
			if st.Break != nil {
				x.Tokens = min(missed, e.Tokens)
			}
			missed -= x.Tokens
		}
		x.USD = float64(x.Tokens) * row.MissRate(x.Rewritten) / 1e6
		c.Expiry = x
	}
	if st.Break == nil {
		return c
	}
	b := &BreakCost{Basis: BasisPredicted, Tokens: st.Reprocessed, Rewritten: st.Prediction.CacheWrite > 0}
	if st.Rule.Mode == CacheAutomatic && st.Rule.Step == 0 {
		b.Tokens = 0 // the model caches nothing: a break costs nothing more
	}
	if missed >= 0 {
		b = &BreakCost{Basis: BasisRecorded, Tokens: missed, Rewritten: u.CacheWriteTokens > 0}
	}
	b.USD = float64(b.Tokens) * row.MissRate(b.Rewritten) / 1e6
	c.Break = b
	return c
}

// firstWrite is what the first request of a sequence writes to the cache
// under explicit caching: the prefix up to its last breakpoint, when that
// reaches the rule's minimum; 0 under automatic caching, which charges
// nothing to write.
func firstWrite(r *wire.Request) int {
	v := newSeqView(r, nil)
	if v.rule.Mode != CacheExplicit || len(v.bps) == 0 {
		return 0
	}
	if w := v.cumTok[v.bps[len(v.bps)-1]]; w >= v.rule.MinTokens {
		return w
	}
	return 0
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
	// Expiries is the priced requests that wrote again a prefix that had
	// expired; ExpiryTokens and ExpiryUSD what that cost.
	Expiries     int
	ExpiryTokens int
	ExpiryUSD    float64
	// Lanes is what each lane's requests cost, by lane id.
	Lanes map[string]*LaneCost
	// Unconfirmed lists the price rows used that are marked unconfirmed.
	Unconfirmed []string
	// Currency is the table's.
	Currency string
}

// LaneCost is what one lane's requests cost.
type LaneCost struct {
	SpendUSD, BreakUSD, ExpiryUSD float64
}

// Add prices r (compared as st; nil for the first of a sequence), adds it
// to the totals and returns its cost.
func (l *Ledger) Add(r *wire.Request, st *Step) Cost { return l.AddIn("", r, st) }

// AddIn is Add for a request of the lane with id lane, whose costs are
// also added up apart.
func (l *Ledger) AddIn(lane string, r *wire.Request, st *Step) Cost {
	c := CostOf(r, st, l.Prices)
	t := &l.t
	t.Requests++
	if c.Priced && lane != "" {
		if t.Lanes == nil {
			t.Lanes = map[string]*LaneCost{}
		}
		lc := t.Lanes[lane]
		if lc == nil {
			lc = &LaneCost{}
			t.Lanes[lane] = lc
		}
		lc.SpendUSD += c.Spend.USD
		if c.Break != nil {
			lc.BreakUSD += c.Break.USD
		}
		if c.Expiry != nil {
			lc.ExpiryUSD += c.Expiry.USD
		}
	}
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
	if x := c.Expiry; x != nil {
		t.Expiries++
		t.ExpiryTokens += x.Tokens
		t.ExpiryUSD += x.USD
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
	if t.Lanes != nil {
		lanes := make(map[string]*LaneCost, len(t.Lanes))
		for k, v := range t.Lanes {
			c := *v
			lanes[k] = &c
		}
		t.Lanes = lanes
	}
	t.Unconfirmed = slices.Clone(t.Unconfirmed)
	if l.Prices != nil {
		t.Currency = l.Prices.Currency
	}
	return t
}
