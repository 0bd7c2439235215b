package widget

// The request list: one row per request with its number, label, model,
// cache bar, tokens and marks.

import (
	"fmt"
	"strconv"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/legend"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/scan"
)

// ListRow is a request as the request list shows it.
type ListRow struct {
	N             int    // its number, from 1
	Model, Format string // hostile: sanitised here; the format when there is no model
	Label         string // its source's label (hostile), "" none
	Tokens        int
	// Hazards and Findings count what it holds; Marked: marked for the
	// diff; Step: its cache step (nil none).
	Hazards, Findings int
	Marked            bool
	Step              *diff.Step
}

// List is the request list: Count rows shown (after the filter; Filtered
// says there is one) of Total, Row(i) the i-th shown, the cursor on row Sel
// and row Top first.
type List struct {
	St                                 *themes.Styles
	Count, Total, Sel, Top             int
	Row                                func(i int) ListRow
	Filtered, Loading, Focused, Cursor bool // Cursor: the selection shows as the cursor
}

// Render draws the list in a width×height box.
func (p List) Render(w, h int) []string {
	st := p.St
	inner := w - 2
	var lines []string
	digits := len(strconv.Itoa(p.Total))
	for i := p.Top; i < p.Count && len(lines) < h-2; i++ {
		e := p.Row(i)
		cursor := "  "
		if i == p.Sel {
			cursor = "▸ "
		}
		if e.Marked {
			cursor = cursor[:len(cursor)-1] + "●"
			if i == p.Sel {
				cursor = "▸●"
			}
		}
		bar := "····"
		marks := " "
		if row := e.Step; row != nil {
			frac := 0.0
			if row.TotalTokens > 0 {
				frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
			}
			bar = FillBar(frac, 4)
			if row.Break != nil {
				marks = st.Break.Render("✂")
			}
		}
		if e.Findings > 0 {
			marks += st.High.Render("⚑")
		} else if e.Hazards > 0 {
			marks += st.Hazard.Render("!")
		} else {
			marks += " "
		}
		idx := fmt.Sprintf("%*d", digits, e.N)
		model := scan.VisibleLine(e.Model)
		if model == "" {
			model = scan.VisibleLine(e.Format)
		}
		// The model takes what the index, the label, the cache bar (when
		// there is room; the Cache view has it too), the tokens and the marks
		// leave.
		left := cursor + idx + " "
		if l := e.Label; l != "" {
			left += st.Header.Render(scan.VisibleLine(l)) + " "
		}
		right := fmt.Sprintf(" %5s ", render.ShortNum(e.Tokens)) + marks
		if inner < 22 {
			right = " " + marks
		}
		if inner >= 26 {
			right = " " + st.TextTrusted.Render(bar) + right
		}
		room := inner - cells.Width(left) - cells.Width(right)
		if room < 4 && left != cursor+idx+" " {
			model = "" // the label says enough: no stump of a model
		}
		line := left + st.Base.Render(cells.Fit(model, max(0, room))) + right
		if i == p.Sel {
			sty := st.Selected
			if p.Cursor {
				sty = st.Cursor
			}
			line = sty.Render(ansi.Strip(cells.Fit(line, inner)))
		}
		lines = append(lines, line)
	}
	if p.Count == 0 {
		if p.Loading {
			lines = append(lines, st.Muted.Render("loading…"))
		} else if p.Total > 0 {
			lines = append(lines, st.Muted.Render("no match"))
		}
	}
	// The filter itself is in the status line; the title counts what it
	// leaves.
	title := "Requests"
	if p.Filtered {
		title += " " + strconv.Itoa(p.Count) + "/" + strconv.Itoa(p.Total)
	}
	// The legend of the marks goes at the foot of the rows, else on the
	// lower edge, unless the edge says where the list is scrolled (the help
	// has the legend too).
	sc := Scroll{Top: p.Top, Shown: h - 2, Total: p.Count}
	foot := legend.Foot(st, lines, inner, h-2)
	out := ScrollBox(st, st.Header.Render(title), foot, w, h, p.Focused, sc)
	if len(foot) == len(lines) && len(out) > 2 && !sc.More() {
		out[len(out)-1] = legend.Edge(st, w, p.Focused)
	}
	return out
}
