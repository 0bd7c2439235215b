package ui

// The request list: one row per request with its model, tokens, cache bar
// and marks.

import (
	"fmt"
	"slices"
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/legend"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// listPane is the request list: one row per request. sel and top are its
// own state (the root owns the pane); the rest is handed to it to draw.
type listPane struct {
	sel int // index into visible
	top int // first row shown

	st      *themes.Styles
	reqs    []entry
	visible []int
	steps   []*diff.Step // the cache step of each request (nil: none)
	perReq  map[int]int  // findings per request
	marks   []int
	filter  string
	loading bool
	focused bool // the list has the focus
	cursor  bool // ... in the wire view: the selection shows as the cursor
	labels  map[string]string
}

// listPane is the request list as the model stands.
func (m *Model) listPane() listPane {
	p := m.list
	p.st, p.reqs, p.visible, p.steps, p.perReq, p.marks = m.st, m.reqs, m.visible, m.steps, m.perReq, m.marks
	p.filter, p.loading, p.labels = m.filter, m.loading, m.opts.Labels
	p.focused = m.focus == focusList
	p.cursor = p.focused && m.view == viewWire
	return p
}

// ensureVisible scrolls n rows, h of them shown, to the selection.
func (p *listPane) ensureVisible(n, h int) {
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+h {
		p.top = p.sel - h + 1
	}
	p.top = max(0, min(p.top, max(0, n-h)))
}

// Render draws the list in a width×height box.
func (p listPane) Render(w, h int) []string {
	st := p.st
	inner := w - 2
	var lines []string
	digits := len(strconv.Itoa(len(p.reqs)))
	for i := p.top; i < len(p.visible) && len(lines) < h-2; i++ {
		ri := p.visible[i]
		e := &p.reqs[ri]
		cursor := "  "
		if i == p.sel {
			cursor = "▸ "
		}
		if slices.Contains(p.marks, ri) {
			cursor = cursor[:len(cursor)-1] + "●"
			if i == p.sel {
				cursor = "▸●"
			}
		}
		bar := "····"
		marks := " "
		if row := stepAt(p.steps, ri); row != nil {
			frac := 0.0
			if row.TotalTokens > 0 {
				frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
			}
			bar = widget.FillBar(frac, 4)
			if row.Break != nil {
				marks = st.Break.Render("✂")
			}
		}
		if n := p.perReq[ri]; n > 0 {
			marks += st.High.Render("⚑")
		} else if e.hazards > 0 {
			marks += st.Hazard.Render("!")
		} else {
			marks += " "
		}
		idx := fmt.Sprintf("%*d", digits, ri+1)
		model := scan.VisibleLine(e.req.Model)
		if model == "" {
			model = string(e.req.Format)
		}
		// The model takes what the index, the label, the cache bar (when
		// there is room; the Cache view has it too), the tokens and the marks
		// leave.
		left := cursor + idx + " "
		if l := p.labels[e.req.Source]; l != "" {
			left += st.Header.Render(scan.VisibleLine(l)) + " "
		}
		right := fmt.Sprintf(" %5s ", shortNum(e.tokens)) + marks
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
		line := left + st.Base.Render(fit(model, max(0, room))) + right
		if i == p.sel {
			sty := st.Selected
			if p.cursor {
				sty = st.Cursor
			}
			line = sty.Render(ansi.Strip(fit(line, inner)))
		}
		lines = append(lines, line)
	}
	if len(p.visible) == 0 {
		if p.loading {
			lines = append(lines, st.Muted.Render("loading…"))
		} else if len(p.reqs) > 0 {
			lines = append(lines, st.Muted.Render("no match"))
		}
	}
	// The filter itself is in the status line; the title counts what it
	// leaves.
	title := "Requests"
	if p.filter != "" {
		title += " " + strconv.Itoa(len(p.visible)) + "/" + strconv.Itoa(len(p.reqs))
	}
	// The legend of the marks goes at the foot of the rows, else on the
	// lower edge, unless the edge says where the list is scrolled (the help
	// has the legend too).
	sc := widget.Scroll{Top: p.top, Shown: h - 2, Total: len(p.visible)}
	foot := legend.Foot(st, lines, inner, h-2)
	out := widget.ScrollBox(st, st.Header.Render(title), foot, w, h, p.focused, sc)
	if len(foot) == len(lines) && len(out) > 2 && !sc.More() {
		out[len(out)-1] = legend.Edge(st, w, p.focused)
	}
	return out
}

func (m *Model) moveSel(to int) tea.Cmd {
	if len(m.visible) == 0 {
		return nil
	}
	to = max(0, min(to, len(m.visible)-1))
	if to == m.list.sel {
		return nil
	}
	from, fromSeg := m.cur(), m.curSeg()
	m.list.sel = to
	m.ensureListVisible()
	if fromSeg >= 0 {
		m.seg = m.sameSegment(&m.reqs[from].req.Segments[fromSeg], &m.reqs[m.cur()], m.seg)
	}
	return m.selectionCmd()
}

// sameSegment is render.SameSegment in request e.
func (m *Model) sameSegment(s *wire.Segment, e *entry, pos int) int {
	return render.SameSegment(s, e.req.Segments, e.order, pos)
}

func (m *Model) onListKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	switch {
	case matches(k, km.Up):
		return m.moveSel(m.list.sel - 1)
	case matches(k, km.Down):
		return m.moveSel(m.list.sel + 1)
	case matches(k, km.PageUp):
		return m.moveSel(m.list.sel - widget.Page(m.listHeight(), matches(k, km.HalfPage)))
	case matches(k, km.PageDown):
		return m.moveSel(m.list.sel + widget.Page(m.listHeight(), matches(k, km.HalfPage)))
	case matches(k, km.Top):
		return m.moveSel(0)
	case matches(k, km.Bottom):
		return m.moveSel(len(m.visible) - 1)
	case matches(k, km.Right):
		m.focus = focusSegs
	}
	return nil
}
