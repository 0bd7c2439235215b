package ui

// The request list: one row per request with its model, tokens, cache bar
// and marks.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
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

// Render draws the list in a width×height box (widget.List).
func (p listPane) Render(w, h int) []string {
	return widget.List{St: p.st, Count: len(p.visible), Total: len(p.reqs), Sel: p.sel, Top: p.top, Filtered: p.filter != "",
		Loading: p.loading, Focused: p.focused, Cursor: p.cursor, Row: func(i int) widget.ListRow {
			ri := p.visible[i]
			e := &p.reqs[ri]
			return widget.ListRow{N: ri + 1, Model: e.req.Model, Format: string(e.req.Format), Label: p.labels[e.req.Source], Tokens: e.tokens,
				Hazards: e.hazards, Findings: p.perReq[ri], Marked: slices.Contains(p.marks, ri), Step: stepAt(p.steps, ri)}
		}}.Render(w, h)
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
