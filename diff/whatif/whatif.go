// Package whatif replays a recorded sequence of requests as if each had been
// sent another way (a Scenario rewrites it: the isolated layout, sorted
// tools, a frozen clock) and says, request by request and in total, what
// the prompt cache would have read, what breaks would have made the
// provider process again, and what that would have cost, beside the same
// figures for the requests as recorded. Both sides are predicted by the
// same cache rules on the same estimated tokens, so they compare; the
// recorded cache reads are set beside them.
package whatif

import (
	"slices"
	"strconv"
	"time"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
)

// Scenario is one what-if: its name and how it rewrites each request of a
// sequence, in order (a rewrite may remember earlier requests). Rewrite
// returns notes on what it could not do.
type Scenario struct {
	Name    string
	Rewrite func(*wire.Request) (wire.Request, []string)
	// TTL, when above 0, is the lifetime of every cache write in the
	// scenario (whatif --ttl 1h), written and priced as such.
	TTL time.Duration
	// Same says the scenario sends every request as recorded (Rewrite is
	// nil): its recorded usage stays valid, and both sides keep it to size
	// what the file leaves out and to calibrate the estimates.
	Same bool
}

// Outcome is what one request comes to on one side.
type Outcome struct {
	Tokens      int // estimated tokens of the request
	Cached      int // predicted cache read
	Reprocessed int // tokens of earlier requests processed again because of a break
	// Break names the break ("system[0]/time changed (timestamp)"), or "".
	Break string
	// Expired is the tokens written again because the prefix had expired.
	Expired int
	Priced  bool
	// Spend is the predicted cost of the prompt.
	Spend float64
}

// Row is one request: as recorded, and under each scenario.
type Row struct {
	Source string
	Index  int
	Model  string
	// Recorded is the recorded cache read, nil when none was recorded.
	Recorded *int
	As       Outcome
	Alt      []Outcome
}

// Totals sums a side over the sequence.
type Totals struct {
	Requests    int
	Tokens      int
	Cached      int
	Reprocessed int
	Breaks      int
	Expiries    int
	Expired     int
	Spend       float64
	Priced      int
}

func (t *Totals) add(o Outcome) {
	t.Requests++
	t.Tokens += o.Tokens
	t.Cached += o.Cached
	t.Reprocessed += o.Reprocessed
	if o.Break != "" {
		t.Breaks++
	}
	if o.Expired > 0 {
		t.Expiries++
		t.Expired += o.Expired
	}
	if o.Priced {
		t.Priced++
		t.Spend += o.Spend
	}
}

// lane is one side of the replay: its cache sequence and totals.
type lane struct {
	seq   diff.Sequence
	tot   Totals
	notes []string
}

// Replay compares a sequence as recorded with its scenarios.
type Replay struct {
	Prices    *price.Table
	Scenarios []Scenario
	as        lane
	alts      []lane
	rows      []Row
}

// maxNotes is how many distinct notes a scenario keeps.
const maxNotes = 10

// Add replays r (the next request of the sequence) on every side.
func (p *Replay) Add(r *wire.Request) Row {
	if p.alts == nil {
		p.alts = make([]lane, len(p.Scenarios))
	}
	row := Row{Source: r.Source, Index: r.Index, Model: r.Model}
	if u := r.Usage; u != nil && !u.CachedUnknown {
		c := u.CachedTokens
		row.Recorded = &c
	}
	same := len(p.Scenarios) > 0
	for _, sc := range p.Scenarios {
		same = same && sc.Same
	}
	row.As = p.outcome(&p.as, r, same, 0)
	for k, sc := range p.Scenarios {
		alt, notes := *r, []string(nil)
		if sc.Rewrite != nil {
			alt, notes = sc.Rewrite(r)
		}
		if !same {
			alt.Usage = nil
		}
		l := &p.alts[k]
		for _, n := range notes {
			if len(l.notes) < maxNotes && !slices.Contains(l.notes, n) {
				l.notes = append(l.notes, n)
			}
		}
		row.Alt = append(row.Alt, p.outcome(l, &alt, same, sc.TTL))
	}
	p.rows = append(p.rows, row)
	return row
}

// outcome adds r to a lane, its writes living ttl when above 0. Both sides
// are priced on predictions: the usage recorded for r is set aside, or,
// with keep, only used to size what the file leaves out and to calibrate
// the estimates.
func (p *Replay) outcome(l *lane, r *wire.Request, keep bool, ttl time.Duration) Outcome {
	q := *r
	if !keep {
		q.Usage = nil
	}
	l.seq.TTL = ttl
	st := l.seq.Add(&q)
	q.Usage = nil
	o := Outcome{}
	if st != nil && st.Expired != nil {
		o.Expired = st.Expired.Tokens
	}
	if st == nil {
		for i := range q.Segments {
			o.Tokens += q.Segments[i].Tokens()
		}
	} else {
		o.Tokens, o.Cached, o.Reprocessed = st.TotalTokens, st.Prediction.Cached, st.Reprocessed
		if st.Break != nil {
			o.Break = st.Break.Brief()
		}
	}
	if p.Prices != nil {
		c := diff.CostOf(&q, st, p.Prices)
		o.Priced, o.Spend = c.Priced, c.Spend.USD
		if row, ok := p.Prices.Lookup(q.Model); ok && c.Priced && ttl >= time.Hour {
			// Written to live an hour, at the 1-hour write price.
			tk := c.Spend.Tokens
			tk.CacheWrite1h += tk.CacheWrite5m
			tk.CacheWrite5m = 0
			o.Spend = row.Cost(tk)
		}
	}
	l.tot.add(o)
	return o
}

// Rows are the requests replayed so far.
func (p *Replay) Rows() []Row { return p.rows }

// Totals is the sums as recorded and under each scenario.
func (p *Replay) Totals() (as Totals, alts []Totals) {
	alts = make([]Totals, len(p.Scenarios))
	for k := range p.alts {
		alts[k] = p.alts[k].tot
	}
	return p.as.tot, alts
}

// Notes are a scenario's notes (the first distinct ones).
func (p *Replay) Notes(k int) []string {
	if k >= len(p.alts) {
		return nil
	}
	return slices.Clone(p.alts[k].notes)
}

// Table is scenario k as the rows of a text table, its heading first: per
// request its tokens, cached, re-processed tokens and cost as recorded and
// under the scenario, and what the scenario saves; then the total.
func (p *Replay) Table(k int) [][]string {
	cur := ""
	if p.Prices != nil {
		cur = p.Prices.Currency
	}
	head := []string{"REQUEST", "TOKENS", "CACHED", "WHAT-IF", "REPROC", "WHAT-IF", "COST", "WHAT-IF", "SAVED", "BREAK AS RECORDED"}
	rows := [][]string{head}
	cell := func(as, alt Outcome, name string) []string {
		c := []string{name, wire.GroupDigits(alt.Tokens), wire.GroupDigits(as.Cached), wire.GroupDigits(alt.Cached),
			wire.GroupDigits(as.Reprocessed), wire.GroupDigits(alt.Reprocessed), "-", "-", "-", as.Break}
		if as.Priced && alt.Priced {
			c[6], c[7], c[8] = price.Money(as.Spend, cur), price.Money(alt.Spend, cur), price.Money(as.Spend-alt.Spend, cur)
		}
		if c[9] == "" {
			c[9] = "-"
		}
		return c
	}
	for _, r := range p.rows {
		rows = append(rows, cell(r.As, r.Alt[k], "@"+strconv.Itoa(r.Index)))
	}
	as, alts := p.Totals()
	t := alts[k]
	total := cell(Outcome{Cached: as.Cached, Reprocessed: as.Reprocessed, Priced: as.Priced == as.Requests, Spend: as.Spend},
		Outcome{Tokens: t.Tokens, Cached: t.Cached, Reprocessed: t.Reprocessed, Priced: t.Priced == t.Requests, Spend: t.Spend}, "total")
	total[9] = strconv.Itoa(as.Breaks) + " breaks, " + strconv.Itoa(t.Breaks) + " in the what-if"
	return append(rows, total)
}

// Summary is scenario k in a few sentences: the cached and re-processed
// tokens and the breaks on both sides, then the money.
func (p *Replay) Summary(k int) []string {
	as, alts := p.Totals()
	t := alts[k]
	lines := []string{"cached " + wire.GroupDigits(as.Cached) + " → " + wire.GroupDigits(t.Cached) +
		" tokens, re-processed because of breaks " + wire.GroupDigits(as.Reprocessed) + " → " + wire.GroupDigits(t.Reprocessed) +
		", breaks " + strconv.Itoa(as.Breaks) + " → " + strconv.Itoa(t.Breaks)}
	if as.Expiries > 0 || t.Expiries > 0 {
		lines = append(lines, "written again after the cache had expired: "+wire.GroupDigits(as.Expired)+" tokens ("+
			strconv.Itoa(as.Expiries)+" expiries) → "+wire.GroupDigits(t.Expired)+" tokens ("+strconv.Itoa(t.Expiries)+")")
	}
	if p.Prices == nil || as.Priced != as.Requests || t.Priced != t.Requests {
		return append(lines, "cost: not every model of the session has a price (--prices FILE)")
	}
	cur := p.Prices.Currency
	saved := as.Spend - t.Spend
	s := "cost " + price.Money(as.Spend, cur) + " → " + price.Money(t.Spend, cur) + ": saves " + price.Money(saved, cur)
	if as.Spend > 0 {
		s += " (" + strconv.FormatFloat(100*saved/as.Spend, 'f', 0, 64) + "%)"
	}
	return append(lines, s)
}

// Unconfirmed names the price rows used that are marked unconfirmed.
func (p *Replay) Unconfirmed() []string {
	var out []string
	if p.Prices == nil {
		return nil
	}
	for _, r := range p.rows {
		if row, ok := p.Prices.Lookup(r.Model); ok && row.Unconfirmed && !slices.Contains(out, row.Name) {
			out = append(out, row.Name)
		}
	}
	return out
}
