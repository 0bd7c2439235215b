package main

// The money of `cache`: what each break cost and what the session cost, at
// the price table's prices (--prices), recorded where the usage was
// recorded and predicted otherwise. Kept apart from the cache report's own
// file: the report asks for it through cacheCosts.

import (
	"sort"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
)

// cacheCosts is what a cache report keeps of the money: the cost of the
// step being added, the costliest breaks, and the totals.
type cacheCosts struct {
	prices  *price.Table
	pending diff.Cost // the cost of the step add is about to take
	has     bool      // pending is set
	taken   diff.Cost // the cost takeCost gave last
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
func (c *cacheCosts) noteCost(cost diff.Cost) { c.pending, c.has = cost, true }

// noteTotals is what the whole sequence cost, known before finish.
func (c *cacheCosts) noteTotals(t diff.LedgerTotals) { c.totals, c.done = t, true }

// takeCost returns the pending cost and forgets it (nil when none was
// noted); the cost is c's until the next call, to read, not to keep.
func (c *cacheCosts) takeCost() *diff.Cost {
	if !c.has {
		return nil
	}
	c.taken, c.pending, c.has = c.pending, diff.Cost{}, false
	return &c.taken
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

// totalsToJSON is the summary's cost for JSON, nil when none was noted.
func (c *cacheCosts) totalsToJSON() *diff.TotalsJSON {
	if !c.done || c.prices == nil {
		return nil
	}
	return c.totals.JSON(c.prices)
}

// writeCosts writes the text report's Cost section: what the breaks cost
// and what the session cost, each said recorded or predicted, and the
// costliest breaks.
func (t *cacheText) writeCosts() {
	c := &t.costs
	if !c.done || c.prices == nil {
		return
	}
	t.b.WriteString("\nCost\n")
	for _, l := range c.totals.Lines() {
		t.line(2, "%s", l)
	}
	if len(c.worst) > 0 {
		t.line(2, "costliest breaks:")
		for _, w := range c.worst {
			how := "processed again"
			if w.cost.Rewritten {
				how = "written to the cache again"
			}
			t.line(4, "%s  %s: %s tokens %s (%s)", t.nameOf(w.at), money(w.cost.USD, c.totals.Currency),
				wire.GroupDigits(w.cost.Tokens), how, basisWord(w.cost.Basis))
		}
	}
	t.line(2, "%s", priceNote(c.prices, c.totals.Unconfirmed))
}
