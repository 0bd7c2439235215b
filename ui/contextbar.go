package ui

// The context of each request in the Cache view: the tokens of its
// categories (wire/breakdown's groups) that widget.ContextBar stacks in a
// bar; and the money the selected request's break cost.

import (
	"slices"
	"sync"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/breakdown"
	"github.com/wirelens/wirelens/wire/price"
)

// contextLegend says what the bar's letters stand for.
const contextLegend = breakdown.Legend

// groupTokens is the tokens of each group of e's request, in the order of
// breakdown.Groups, from the tokens the entry already holds.
func groupTokens(e *entry) []int {
	out := make([]int, len(breakdown.Groups))
	for i, tok := range e.segTok {
		if i < len(e.req.Segments) {
			out[slices.Index(breakdown.Groups, breakdown.GroupOf(&e.req.Segments[i]))] += tok
		}
	}
	return out
}

// viewPrices is the built-in price table, read once.
var viewPrices = sync.OnceValue(price.Default)

// breakMoney says what a step's break cost at the built-in prices, or "".
func breakMoney(r *wire.Request, st *diff.Step) string {
	if st == nil {
		return ""
	}
	c := diff.CostOf(r, st, viewPrices())
	if !c.Priced {
		return "no price for this model"
	}
	cur := viewPrices().Currency
	s := "request " + price.Money(c.Spend.USD, cur) + " (" + string(c.Spend.Basis) + ")"
	if b := c.Break; b != nil {
		s = "break cost " + price.Money(b.USD, cur) + " (" + string(b.Basis) + ", " + wire.GroupDigits(b.Tokens) + " tok) · " + s
	}
	return s
}

// sessionBreakMoney is what the breaks of the steps cost at the built-in
// prices, for the Cache view's title ("" when nothing is priced).
func sessionBreakMoney(reqs []entry, steps []*diff.Step) string {
	total, priced, recorded, predicted := 0.0, false, 0, 0
	for i := range reqs {
		st := stepAt(steps, i)
		if st == nil || st.Break == nil {
			continue
		}
		c := diff.CostOf(&reqs[i].req, st, viewPrices())
		if !c.Priced || c.Break == nil {
			continue
		}
		priced = true
		total += c.Break.USD
		if c.Break.Basis == diff.BasisRecorded {
			recorded++
		} else {
			predicted++
		}
	}
	if !priced {
		return ""
	}
	basis := "predicted"
	switch {
	case recorded > 0 && predicted > 0:
		basis = "recorded and predicted"
	case recorded > 0:
		basis = "recorded"
	}
	return "breaks cost " + price.Money(total, viewPrices().Currency) + " (" + basis + ")"
}
