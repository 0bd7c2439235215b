package widget

// The Cache view's lanes side by side: one column per lane of the session
// (main, subagent:N, title, ...), each request on its own row in time
// order, in its lane's column, so interleaved requests show as such.

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// LanesMinWidth is the narrowest window the lanes are laid side by side
// in; narrower, the Cache view keeps its table.
const LanesMinWidth = 120

// laneMinColumn is the narrowest lane column: more lanes than fit so keep
// the table.
const laneMinColumn = 28

// laneSep separates two lane columns.
const laneSep = " │ "

// firstLane is the lane of request i when it has no step (the first of a
// sequence): the lane the next request says it was compared with, main
// when none says.
func firstLane(l Lanes, i int) string {
	if i+1 < l.Count {
		r := l.Req(i)
		if next := l.Step(i + 1); next != nil && next.PrevIndex == r.Index && next.PrevSource == r.Source &&
			next.PrevLane.Name != "" {
			return next.PrevLane.Name
		}
	}
	return "main"
}

// Laned reports whether the steps go in more than one lane (the lanes of
// the requests they were compared with included: a sequence's first
// request has no step).
func Laned(steps []*diff.Step) bool {
	name := ""
	for _, st := range steps {
		if st == nil {
			continue
		}
		if st.PrevLane.Name != "" && st.PrevLane.Name != st.Lane.Name {
			return true
		}
		if name != "" && st.Lane.Name != name {
			return true
		}
		name = st.Lane.Name
	}
	return false
}

// Lanes lays Count requests out one column per lane. Step(i) is request
// i's cache step (nil for the first of a sequence, which starts the main
// lane), Req(i) the request, Name(i) its name ("#3"); Prices prices the
// lanes as `cache` does (nil: not priced).
type Lanes struct {
	St     *themes.Styles
	Count  int
	Step   func(i int) *diff.Step
	Req    func(i int) *wire.Request
	Name   func(i int) string
	Prices *price.Table
}

// laneColumn is one lane of the layout and what its requests came to.
type laneColumn struct {
	name                       string
	requests, breaks, expiries int
	prefix, total              int
}

// laneSums is what a layout adds up over the requests: the lanes in
// order, each request's lane, the lanes' costs and whether any idle gap is
// known.
type laneSums struct {
	cols  []*laneColumn
	col   []int
	costs diff.LedgerTotals
	timed bool
}

// laneMemo keeps the last sums: the view is drawn every frame, its steps
// change only with the analysis (new steps, new pointers) or the requests
// (their count, or a new slice).
var laneMemo struct {
	sync.Mutex
	count       int
	first, last *diff.Step
	req         *wire.Request
	prices      *price.Table
	sums        *laneSums
}

// sums adds up the requests' lanes, from laneMemo when they are the same.
func (l Lanes) sums() *laneSums {
	var first, last *diff.Step
	var req *wire.Request
	if l.Count > 0 {
		first, last, req = l.Step(0), l.Step(l.Count-1), l.Req(0)
	}
	m := &laneMemo
	m.Lock()
	defer m.Unlock()
	if m.sums != nil && m.count == l.Count && m.first == first && m.last == last && m.req == req && m.prices == l.Prices {
		return m.sums
	}
	s := &laneSums{col: make([]int, l.Count)}
	ledger := diff.Ledger{Prices: l.Prices}
	for i := 0; i < l.Count; i++ {
		st, name := l.Step(i), firstLane(l, i)
		if st != nil {
			name, s.timed = st.Lane.Name, s.timed || st.HasIdle
		}
		k := slices.IndexFunc(s.cols, func(c *laneColumn) bool { return c.name == name })
		if k < 0 {
			k, s.cols = len(s.cols), append(s.cols, &laneColumn{name: name})
		}
		c := s.cols[k]
		s.col[i] = k
		c.requests++
		if st != nil {
			c.prefix, c.total = c.prefix+st.PrefixTokens, c.total+st.TotalTokens
			if st.Break != nil {
				c.breaks++
			}
			if st.Expired != nil {
				c.expiries++
			}
		}
		if l.Prices != nil {
			ledger.AddIn(name, l.Req(i), st)
		}
	}
	s.costs = ledger.Totals()
	m.count, m.first, m.last, m.req, m.prices, m.sums = l.Count, first, last, req, l.Prices, s
	return s
}

// Layout is the header and the row drawer of the lanes in w cells, false
// when the steps are in one lane or more lanes than w holds.
func (l Lanes) Layout(w int) (string, func(i int) string, bool) {
	sums := l.sums()
	cols, col, costs, timed := sums.cols, sums.col, sums.costs, sums.timed
	cw := (w - (len(cols)-1)*cells.Width(laneSep)) / max(1, len(cols))
	if len(cols) < 2 || cw < laneMinColumn {
		return "", nil, false
	}
	heads := make([]string, len(cols))
	for k, c := range cols {
		heads[k] = l.title(c, costs, cw)
	}
	sep := l.St.Subtle.Render(laneSep)
	row := func(i int) string {
		cellsOf := make([]string, len(cols))
		for k := range cellsOf {
			cellsOf[k] = strings.Repeat(" ", cw)
		}
		cellsOf[col[i]] = cells.Fit(l.cell(i, timed), cw)
		return strings.Join(cellsOf, sep)
	}
	return strings.Join(heads, laneSep), row, true
}

// title is a lane's head: its name, requests, reuse ratio, breaks and
// expiries and its cost, as `cache` prints them, shortened to w cells
// when that is too long.
func (l Lanes) title(c *laneColumn, costs diff.LedgerTotals, w int) string {
	reuse := 0.0
	if c.total > 0 {
		reuse = float64(c.prefix) / float64(c.total)
	}
	name := scan.VisibleLine(c.name)
	long := fmt.Sprintf("%s: %s, reuse %.2f, %s, %d expired", name, render.Plural(c.requests, "request"), reuse,
		render.Plural(c.breaks, "break"), c.expiries)
	short := fmt.Sprintf("%s · %d req · reuse %.2f · %s", name, c.requests, reuse, render.Plural(c.breaks, "break"))
	if c.expiries > 0 {
		short += fmt.Sprintf(", %d expired", c.expiries)
	}
	cost := "; no price"
	if lc := costs.Lanes[c.name]; lc != nil {
		cur := costs.Currency
		long += fmt.Sprintf("; cost %s (breaks %s, expiries %s)", price.Money(lc.SpendUSD, cur),
			price.Money(lc.BreakUSD, cur), price.Money(lc.ExpiryUSD, cur))
		cost = fmt.Sprintf(" · %s (✂ %s, exp %s)", price.Money(lc.SpendUSD, cur), price.Money(lc.BreakUSD, cur),
			price.Money(lc.ExpiryUSD, cur))
	} else if l.Prices != nil {
		long += cost
	}
	if cells.Width(long) <= w {
		return cells.Fit(long, w)
	}
	return cells.Fit(short+cost, w)
}

// cell is request i in its lane's column: its name, the time since the
// request it was compared with, its bar, its prefix reused over its total
// and the cached tokens predicted (! where the record disagrees), and its
// break (or expiry) marked, or that it starts its lane.
func (l Lanes) cell(i int, timed bool) string {
	st := l.Step(i)
	s := render.Pad(l.Name(i), max(4, cells.Width(l.Name(i))+1))
	if st == nil {
		return s + l.St.Muted.Render("first request: nothing to reuse")
	}
	if timed {
		idle := "-"
		if st.HasIdle {
			idle = "+" + diff.Duration(st.Idle)
		}
		s += render.Pad(idle, 7)
	}
	frac := 0.0
	if st.TotalTokens > 0 {
		frac = float64(st.PrefixTokens) / float64(st.TotalTokens)
	}
	cached := Predicted(st)
	if st.Disagreement != "" {
		cached += l.St.High.Render("!") // the recorded read disagrees
	}
	s += CacheBar(l.St, st, 5) + " " + render.Pad(fmt.Sprintf("%3d%% %s/%s", int(frac*100+0.5),
		render.ShortNum(st.PrefixTokens), render.ShortNum(st.TotalTokens)), 17) + render.Pad("c "+cached, 9)
	switch {
	case st.Break != nil:
		s += l.St.Break.Render("✂ " + string(st.Break.Kind))
	case st.Expired != nil:
		s += l.St.Break.Render("✂ expired " + diff.Duration(st.Expired.Idle))
	case st.LaneFirst:
		s += l.St.Muted.Render("new lane")
	default:
		s += l.St.Added.Render("intact")
	}
	return s
}

// Predicted is a step's predicted cached tokens, n/a where no prediction
// could be made (as cache's table says).
func Predicted(st *diff.Step) string {
	if st.Prediction.Unavailable != "" {
		return "n/a"
	}
	return render.ShortNum(st.Prediction.Cached)
}
