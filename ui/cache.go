package ui

// The Cache view: the session as a timeline of prefix reused against
// re-processed, each break with its cause.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire/scan"
)

// cacheView is the Cache view: every request's prefix reused from the one
// before it, and what broke it.
type cacheView struct {
	st          *themes.Styles
	reqs        []entry
	steps       []*diff.Step // the cache step of each request (nil: none)
	done        bool         // the analysis has answered
	reusePrefix int          // prefix and total tokens over the steps
	reuseTotal  int
	cur         tableCursor
}

// cacheView is the Cache view as the model stands.
func (m *Model) cacheView() cacheView {
	return cacheView{st: m.st, reqs: m.reqs, steps: m.steps, done: m.anaDone,
		reusePrefix: m.reusePrefix, reuseTotal: m.reuseTotal, cur: m.table}
}

// Render draws the view in a w×h box.
func (p cacheView) Render(w, h int) []string {
	st := p.st
	wide := w >= 120
	bw := 10
	if wide {
		bw = 20
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
		if i == 0 {
			return pad("#1", 6) + st.Muted.Render("(first request: nothing to reuse) ") + shortNum(e.tokens) + " tok"
		}
		row := stepAt(p.steps, i)
		if row == nil {
			what := "analysing…"
			if p.done {
				what = "(first request of " + scan.VisibleLine(e.req.Source) + ": nothing to reuse)"
			}
			return pad("#"+strconv.Itoa(i+1), 6) + st.Muted.Render(what+" ") + shortNum(e.tokens) + " tok"
		}
		frac := 0.0
		if row.TotalTokens > 0 {
			frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
		}
		fill := max(0, min(bw, int(frac*float64(bw)+0.5)))
		bar := st.TextTrusted.Render(strings.Repeat("█", fill)) + st.Removed.Render(strings.Repeat("░", bw-fill))
		line := pad("#"+strconv.Itoa(i+1), 6) + bar + " " + pad(fmt.Sprintf("%3d%% %s/%s tok", int(frac*100+0.5), shortNum(row.PrefixTokens), shortNum(row.TotalTokens)), 21)
		if wide {
			if row.Recorded != nil {
				line += pad("rec "+shortNum(*row.Recorded), 11)
			} else {
				line += pad("", 11)
			}
			line += contextBar(st, e, longest, cw) + " "
		}
		if b := row.Break; b != nil {
			cause := "✂ " + scan.VisibleLine(b.Segment) + " (" + string(b.Kind) + ") @" + strconv.Itoa(b.Offset)
			if c := breakCause(b); c != "" {
				cause += " · " + scan.VisibleLine(c)
			}
			line += st.Break.Render(cause)
		} else {
			line += st.Added.Render("prefix intact")
		}
		return line
	}
	title := "Prompt cache · prefix reused vs re-processed per request"
	if !wide {
		title = "Prompt cache"
	}
	if p.reuseTotal > 0 {
		title += fmt.Sprintf(" · reuse %d%%", p.reusePrefix*100/p.reuseTotal)
	}
	if m := sessionBreakMoney(p.reqs, p.steps); m != "" {
		title += " · " + m
	}
	head := pad("req", 6) + pad("reused░new", bw+1) + pad("prefix/total", 21)
	if wide {
		head += pad("recorded", 11) + pad("context", cw+1)
	}
	head += "break (enter: diff)"
	if wide {
		head += "   context: " + contextLegend
	}
	var detail []string
	if row := stepAt(p.steps, p.cur.sel); row != nil {
		if b := row.Break; b != nil {
			detail = append(detail,
				st.Muted.Render("before: ")+scan.VisibleLine(b.Before),
				st.Muted.Render("after:  ")+scan.VisibleLine(b.After))
		} else {
			detail = append(detail, st.Added.Render("the request starts with the whole previous request"))
		}
		rec := "nothing recorded"
		if row.Recorded != nil {
			rec = "recorded " + shortNum(*row.Recorded)
		}
		pred := "predicted " + shortNum(row.Prediction.Cached)
		if row.Prediction.Unavailable != "" {
			pred = "no prediction (breakpoints not recorded)"
		}
		verdict := ""
		if v := row.Verdict; v != nil {
			// The detail area has three lines: the verdict shares the last.
			verdict = " · provider verdict: " + v.By + " says " + scan.VisibleLine(v.Reason) +
				"; wirelens: " + diff.Attribution(row) + " (" + row.VerdictOutcome + ")"
		}
		money := breakMoney(&p.reqs[p.cur.sel].req, row)
		if money != "" {
			money += " · "
		}
		detail = append(detail, st.Muted.Render(money+"cached tokens: "+pred+", "+rec+verdict+" · enter: diff with the request before"))
	}
	return table{st: st, cur: p.cur, title: title, head: "  " + head, count: len(p.reqs), row: rowAt,
		empty: "no requests", detail: detail}.Render(w, h)
}
