package ui

// The Cache view: the session as a timeline of prefix reused against
// re-processed, each break with its cause.

import (
	"fmt"
	"strconv"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// cacheDetailLines is the height of the Cache view's detail area: what
// the request is compared with and what broke, before and after, the
// predicted and recorded cache reads, where they disagree (or a note), and
// the legend.
const cacheDetailLines = 6

// cacheView is the Cache view: every request's prefix reused from the one
// it is compared with, and what broke it, said as `cache` says it.
type cacheView struct {
	st          *themes.Styles
	reqs        []entry
	steps       []*diff.Step // the cache step of each request (nil: none)
	done        bool         // the analysis has answered
	reusePrefix int          // prefix and total tokens over the steps
	reuseTotal  int
	cur         widget.Cursor
	labels      map[string]string
	prev        func(i int) int // the request step i is compared with
	table       bool            // the table even where the lanes fit (v)
}

// cacheView is the Cache view as the model stands.
func (m *Model) cacheView() cacheView {
	return cacheView{st: m.st, reqs: m.reqs, steps: m.steps, done: m.anaDone,
		reusePrefix: m.reusePrefix, reuseTotal: m.reuseTotal, cur: m.table, labels: m.opts.Labels, prev: m.predecessor, table: m.cacheTable}
}

// name is a request as the view names it: "#3", or "#3 LEGACY" when its
// source has a label.
func (p cacheView) name(i int) string {
	n := "#" + strconv.Itoa(i+1)
	if l := p.labels[p.reqs[i].req.Source]; l != "" {
		n += " " + scan.VisibleLine(l)
	}
	return n
}

// Render draws the view in a w×h box.
func (p cacheView) Render(w, h int) []string {
	st := p.st
	wide := w >= 120
	bw := 10
	if wide {
		bw = 20
	}
	nw := 6
	for i := range p.reqs {
		if p.labels[p.reqs[i].req.Source] != "" {
			nw = max(nw, len(p.name(i))+2)
		}
	}
	// The recorded column shows when something was recorded (or there is
	// room): `!` marks a record that disagrees with the prediction.
	recorded := wide
	// The lane column shows when the session has more than one lane, the
	// idle column when the requests' times are recorded.
	laned, timed, lw := widget.Laned(p.steps), false, 5
	for _, row := range p.steps {
		recorded = recorded || (row != nil && row.Recorded != nil)
		if row != nil {
			timed, lw = timed || row.HasIdle, min(16, max(lw, len(scan.VisibleLine(row.Lane.Name))+2))
		}
	}
	// The context column: each request's categories, against the longest.
	cw, longest := 0, 0
	if wide {
		cw = min(24, max(8, w-150))
		for i := range p.reqs {
			longest = max(longest, p.reqs[i].tokens)
		}
	}
	rowAt := func(i int) string {
		e := &p.reqs[i]
		row := stepAt(p.steps, i)
		if row == nil {
			what := "analysing…"
			switch {
			case i == 0:
				what = "(first request: nothing to reuse)"
			case p.done:
				what = "(first request of " + scan.VisibleLine(e.req.Source) + ": nothing to reuse)"
			}
			return pad(p.name(i), nw) + st.Muted.Render(what+" ") + shortNum(e.tokens) + " tok"
		}
		frac := 0.0
		if row.TotalTokens > 0 {
			frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
		}
		line := pad(p.name(i), nw)
		if laned {
			line += pad(scan.VisibleLine(row.Lane.Name), lw)
		}
		if idle := "-"; timed {
			if row.HasIdle {
				idle = "+" + diff.Duration(row.Idle)
			}
			line += pad(idle, 8)
		}
		line += widget.CacheBar(st, row, bw) + " " +
			pad(fmt.Sprintf("%3d%% %s/%s", int(frac*100+0.5), shortNum(row.PrefixTokens), shortNum(row.TotalTokens)), 17) +
			pad(widget.Predicted(row), 7)
		if recorded {
			rec := "-"
			if row.Recorded != nil {
				rec = shortNum(*row.Recorded)
				if row.Disagreement != "" {
					rec += st.High.Render("!")
				}
			}
			line += pad(rec, 8)
		}
		if wide {
			line += widget.ContextBar(st, groupTokens(e), longest, cw) + " "
		}
		if b := row.Break; b != nil {
			cause := "✂ " + scan.VisibleLine(b.Segment) + " (" + string(b.Kind) + ") @" + strconv.Itoa(b.Offset)
			if c := breakCause(b); c != "" {
				cause += " · " + scan.VisibleLine(c)
			}
			line += st.Break.Render(cause)
		} else if e := row.Expired; e != nil {
			line += st.Break.Render("expired · " + e.Sentence())
		} else if row.LaneFirst {
			line += st.Muted.Render("starts its lane")
		} else {
			line += st.Added.Render("prefix intact")
		}
		return line
	}
	title := "Prompt cache · each request against the last earlier one of its model"
	if p.reuseTotal > 0 {
		title = fmt.Sprintf("Prompt cache · reuse %d%%: prefix tokens shared over all tokens compared", p.reusePrefix*100/p.reuseTotal)
	}
	if m := sessionBreakMoney(p.reqs, p.steps); m != "" && wide {
		title += " · " + m
	}
	if lanes := (widget.Lanes{St: st, Count: len(p.reqs), Step: func(i int) *diff.Step { return stepAt(p.steps, i) },
		Req: func(i int) *wire.Request { return &p.reqs[i].req }, Name: p.name, Prices: viewPrices()}); !p.table && w >= widget.LanesMinWidth {
		if head, row, ok := lanes.Layout(w - 4); ok {
			detail := p.detail(p.cur.Sel, w)
			return widget.Table{St: st, Cur: p.cur, Title: "Prompt cache · lanes (v: table) · idle, % prefix/total, c predicted cached (! recorded disagrees), ✂ break", Head: "  " + head, Count: len(p.reqs),
				Row: row, Empty: "no requests", Detail: detail, Details: len(detail)}.Render(w, h)
		}
	}
	bar := "█▒░ cached"
	if wide {
		bar = "█cached ▒shared ░new"
	}
	head := pad("req", nw)
	if laned {
		head += pad("lane", lw)
	}
	if timed {
		head += pad("idle", 8)
	}
	head += pad(bar, bw+1) + pad("% prefix/total", 17) + pad("pred", 7)
	if recorded {
		head += pad("rec", 8)
	}
	if wide {
		head += pad("context", cw+1)
	}
	head += "break (enter: diff)"
	if wide {
		head += "   context: " + contextLegend
	}
	detail := p.detail(p.cur.Sel, w)
	return widget.Table{St: st, Cur: p.cur, Title: title, Head: "  " + head, Count: len(p.reqs), Row: rowAt,
		Empty: "no requests", Detail: detail, Details: len(detail)}.Render(w, h)
}

// detail is what the Cache view says under the table of request i, as
// `cache` says it: what it is compared with and what broke, in words, the
// text before and after, the predicted and recorded cache reads and where
// they disagree and why, its notes (wrapped to w: the text before and after
// give way to them, then the table's rows), and the legend of the bar and the marks.
func (p cacheView) detail(i, w int) []string {
	st := p.st
	legend := st.Muted.Render("█ predicted cached ▒ shared, not cached ░ new · ! recorded disagrees")
	row := stepAt(p.steps, i)
	if row == nil {
		return []string{"", "", "", "", "", legend}
	}
	with := "vs #" + strconv.Itoa(p.prev(i)+1)
	if row.HasIdle {
		with += " (" + diff.Duration(row.Idle) + " before)"
	}
	if widget.Laned(p.steps) {
		with = "lane " + scan.VisibleLine(row.Lane.Name) + " · " + with
	}
	var out []string
	if b := row.Break; b != nil {
		out = append(out, st.Muted.Render(with+": ")+st.Break.Render("✂ "+b.Sentence()))
		if !b.Cause.Switch() {
			out = append(out,
				st.Muted.Render("before: ")+scan.VisibleLine(b.Before),
				st.Muted.Render("after:  ")+scan.VisibleLine(b.After))
		}
	} else if e := row.Expired; e != nil {
		out = append(out, st.Muted.Render(with+": ")+st.Break.Render("the prefix had expired: "+e.Sentence()+", "+
			shortNum(e.Tokens)+" tokens written again"))
	} else {
		out = append(out, st.Muted.Render(with+": ")+st.Added.Render("the request starts with the whole of it"))
	}
	rec := "nothing recorded"
	if row.Recorded != nil {
		rec = "recorded " + shortNum(*row.Recorded)
	}
	pred := "predicted " + shortNum(row.Prediction.Cached)
	if row.Prediction.Unavailable != "" {
		pred = "no prediction (breakpoints not recorded)"
	}
	line := "cached tokens: " + pred + ", " + rec + " · " + shortNum(row.Reprocessed) + " re-processed"
	if money := breakMoney(&p.reqs[i].req, row); money != "" {
		line = money + " · " + line
	}
	// Where the record disagrees with the prediction, and why; the
	// provider's own verdict on the break, beside wirelens's; the notes.
	said := render.WrapStyled(st.High, "! "+scan.VisibleLine(row.Disagreement), row.Disagreement != "", w-2)
	if v := row.Verdict; v != nil {
		said = append(said, render.WrapStyled(st.Muted, "provider verdict: "+scan.VisibleLine(v.By)+" says "+
			scan.VisibleLine(v.Reason)+"; wirelens: "+diff.Attribution(row)+" ("+row.VerdictOutcome+")", true, w-2)...)
	}
	for _, n := range row.Notes {
		said = append(said, render.WrapStyled(st.Muted, "note: "+scan.VisibleLine(n), true, w-2)...)
	}
	ctx := max(1, min(len(out), cacheDetailLines-2-len(said))) // the break's line and as much of before/after as fits
	out = append(append(out[:ctx], st.Muted.Render(line)), said...)
	out = out[:min(len(out), cacheDetailLines+2)] // at most two lines more than the area, the table a row shorter
	for len(out) < cacheDetailLines-1 {
		out = append(out, "")
	}
	return append(out, legend)
}
