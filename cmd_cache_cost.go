package main

// The money of `cache`: what each break cost and what the session cost, at
// the price table's prices (--prices), recorded where the usage was
// recorded and predicted otherwise. Kept apart from the cache report's own
// file: the report asks for it through cacheCosts.

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// cacheCosts is what a cache report keeps of the money: the cost of the
// step being added, the costliest breaks, and the totals.
type cacheCosts struct {
	prices  *price.Table
	pending *diff.Cost // the cost of the step add is about to take
	worst   []costlyBreak
	totals  diff.LedgerTotals
	done    bool // totals were noted
}

// costlyBreak is a break the text report names with its cost.
type costlyBreak struct {
	at   stepRef
	cost diff.BreakCost
}

// costsShown is how many of the costliest breaks the text report lists.
const costsShown = 10

// noteCost is the cost of the step add takes next.
func (c *cacheCosts) noteCost(cost diff.Cost) { c.pending = &cost }

// noteTotals is what the whole sequence cost, known before finish.
func (c *cacheCosts) noteTotals(t diff.LedgerTotals) { c.totals, c.done = t, true }

// takeCost returns the pending cost and forgets it.
func (c *cacheCosts) takeCost() *diff.Cost {
	p := c.pending
	c.pending = nil
	return p
}

// keepBreak remembers a priced break if it is among the costliest.
func (c *cacheCosts) keepBreak(at stepRef, cost *diff.Cost) {
	if cost == nil || cost.Break == nil || cost.Break.Tokens == 0 {
		return
	}
	c.worst = append(c.worst, costlyBreak{at, *cost.Break})
	sort.SliceStable(c.worst, func(i, j int) bool { return c.worst[i].cost.USD > c.worst[j].cost.USD })
	if len(c.worst) > costsShown {
		c.worst = c.worst[:costsShown]
	}
}

// cacheCostJSON is the cost of one request in `cache --json` (an addition
// to the shape of CONTRACT.md).
type cacheCostJSON struct {
	Price       string          `json:"price"`
	Unconfirmed bool            `json:"unconfirmed,omitempty"`
	Currency    string          `json:"currency"`
	Spend       float64         `json:"spend"`
	SpendBasis  string          `json:"spend_basis"`
	Break       *breakCostJSON  `json:"break"`
	Tokens      cacheTokensJSON `json:"tokens"`
}

// cacheTokensJSON is what a request's spend counts.
type cacheTokensJSON struct {
	Input        int `json:"input"`
	CachedRead   int `json:"cached_read"`
	CacheWrite5m int `json:"cache_write_5m"`
	Output       int `json:"output"`
}

// breakCostJSON is what one break cost.
type breakCostJSON struct {
	Tokens    int     `json:"tokens"`
	Rewritten bool    `json:"rewritten"`
	Cost      float64 `json:"cost"`
	Basis     string  `json:"basis"`
}

// cacheCostTotalsJSON is the summary's cost in `cache --json`.
type cacheCostTotalsJSON struct {
	Currency          string         `json:"currency"`
	PricesDate        string         `json:"prices_date"`
	PricesOrigin      string         `json:"prices_origin"`
	Priced            int            `json:"priced_requests"`
	Unpriced          map[string]int `json:"unpriced_models"`
	Spend             float64        `json:"spend"`
	SpendRecorded     float64        `json:"spend_recorded"`
	SpendPredicted    float64        `json:"spend_predicted"`
	Breaks            int            `json:"breaks"`
	BreaksRecorded    int            `json:"breaks_recorded"`
	BreakTokens       int            `json:"break_tokens"`
	BreakCost         float64        `json:"break_cost"`
	BreakCostRecorded float64        `json:"break_cost_recorded"`
	BreakCostPred     float64        `json:"break_cost_predicted"`
	Unconfirmed       []string       `json:"unconfirmed_prices"`
}

// costToJSON is a request's cost for JSON, nil when it is not priced.
func costToJSON(c *diff.Cost, currency string) *cacheCostJSON {
	if c == nil || !c.Priced {
		return nil
	}
	j := &cacheCostJSON{Price: c.Price, Unconfirmed: c.Unconfirmed, Currency: currency,
		Spend: roundMoney(c.Spend.USD), SpendBasis: string(c.Spend.Basis),
		Tokens: cacheTokensJSON{Input: c.Spend.Tokens.Input, CachedRead: c.Spend.Tokens.CachedRead,
			CacheWrite5m: c.Spend.Tokens.CacheWrite5m, Output: c.Spend.Tokens.Output}}
	if b := c.Break; b != nil {
		j.Break = &breakCostJSON{Tokens: b.Tokens, Rewritten: b.Rewritten, Cost: roundMoney(b.USD), Basis: string(b.Basis)}
	}
	return j
}

// totalsToJSON is the summary's cost for JSON, nil when none was noted.
func (c *cacheCosts) totalsToJSON() *cacheCostTotalsJSON {
	if !c.done || c.prices == nil {
		return nil
	}
	t := c.totals
	j := &cacheCostTotalsJSON{Currency: t.Currency, PricesDate: c.prices.Date, PricesOrigin: c.prices.Origin,
		Priced: t.Priced, Unpriced: map[string]int{}, Spend: roundMoney(t.SpendUSD),
		SpendRecorded: roundMoney(t.SpendRecordedUSD), SpendPredicted: roundMoney(t.SpendPredictedUSD),
		Breaks: t.Breaks, BreaksRecorded: t.BreaksRecorded, BreakTokens: t.BreakTokens,
		BreakCost: roundMoney(t.BreakUSD), BreakCostRecorded: roundMoney(t.BreakRecordedUSD),
		BreakCostPred: roundMoney(t.BreakPredictedUSD), Unconfirmed: []string{}}
	for m, n := range t.Unpriced {
		j.Unpriced[scan.VisibleLine(m)] += n
	}
	j.Unconfirmed = append(j.Unconfirmed, t.Unconfirmed...)
	return j
}

// writeCosts writes the text report's Cost section: what the breaks cost
// and what the session cost, each said recorded or predicted, and the
// costliest breaks.
func (t *cacheText) writeCosts() {
	c := &t.costs
	if !c.done || c.prices == nil {
		return
	}
	tot := c.totals
	cur := tot.Currency
	t.b.WriteString("\nCost\n")
	if tot.Priced == 0 {
		t.line(2, "no price for the models of these requests (%s): give a table of your own with --prices", unpricedList(tot.Unpriced))
		t.line(2, "%s", priceNote(c.prices, nil))
		return
	}
	t.line(2, "breaks cost %s: %s tokens processed again instead of read from the cache (%s; %s of it recorded, %s predicted)",
		money(tot.BreakUSD, cur), wire.GroupDigits(tot.BreakTokens), plural(tot.Breaks, "break"),
		money(tot.BreakRecordedUSD, cur), money(tot.BreakPredictedUSD, cur))
	t.line(2, "the session cost %s over %s (%s from recorded usage, %s predicted from estimated tokens)",
		money(tot.SpendUSD, cur), plural(tot.Priced, "priced request"), money(tot.SpendRecordedUSD, cur), money(tot.SpendPredictedUSD, cur))
	if len(tot.Unpriced) > 0 {
		t.line(2, "not priced: %s", unpricedList(tot.Unpriced))
	}
	if len(c.worst) > 0 {
		t.line(2, "costliest breaks:")
		for _, w := range c.worst {
			how := "processed again"
			if w.cost.Rewritten {
				how = "written to the cache again"
			}
			t.line(4, "%s  %s: %s tokens %s (%s)", t.nameOf(w.at), money(w.cost.USD, cur), wire.GroupDigits(w.cost.Tokens), how, basisWord(w.cost.Basis))
		}
	}
	t.line(2, "%s", priceNote(c.prices, tot.Unconfirmed))
}

// unpricedList writes "model-a (3 requests), model-b (1 request)".
func unpricedList(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].v > kvs[j].v || kvs[i].v == kvs[j].v && kvs[i].k < kvs[j].k })
	s := ""
	for i, e := range kvs {
		if i > 0 {
			s += ", "
		}
		name := e.k
		if name == "" {
			name = "(no model named)"
		}
		s += strconv.Quote(scan.VisibleLine(name)) + fmt.Sprintf(" (%s)", plural(e.v, "request"))
	}
	return s
}
