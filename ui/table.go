package ui

// The tables of the Escapes, Findings and Cache views (package widget draws
// them): their keys, and the jump from a row to its place in the content.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/widget"
)

// tableRows is how many rows a table shows in the body.
func (m *Model) tableRows() int { return widget.RowsIn(m.bodyHeight(), m.detailLines()) }

// detailLines is the height of the detail area of the view's table.
func (m *Model) detailLines() int {
	if m.view == viewCache {
		return len(m.cacheView().detail(m.table.Sel, m.w))
	}
	return widget.DetailLines
}

func (m *Model) tableLen() int {
	switch m.view {
	case viewEscapes:
		return len(m.shownEscRows())
	case viewFindings:
		return len(m.shownFindings())
	case viewCache:
		return len(m.reqs)
	}
	return 0
}

func (m *Model) moveTable(to int) { m.table.Move(to, m.tableLen(), m.tableRows()) }

func (m *Model) onTableKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	h := m.tableRows()
	switch {
	case matches(k, km.Up):
		m.moveTable(m.table.Sel - 1)
	case matches(k, km.Down):
		m.moveTable(m.table.Sel + 1)
	case matches(k, km.PageUp):
		m.moveTable(m.table.Sel - widget.Page(h, matches(k, km.HalfPage)))
	case matches(k, km.PageDown):
		m.moveTable(m.table.Sel + widget.Page(h, matches(k, km.HalfPage)))
	case matches(k, km.Top):
		m.moveTable(0)
	case matches(k, km.Bottom):
		m.moveTable(m.tableLen() - 1)
	case matches(k, km.Enter):
		return m.tableEnter()
	case m.view == viewFindings && matches(k, km.Server):
		m.nextServer()
	}
	return nil
}

// jumpTo selects request r (clearing a filter that hides it), segment s, and
// shows byte offset off in the content pane.
func (m *Model) jumpTo(r, s, off int) tea.Cmd {
	if r < 0 || r >= len(m.reqs) {
		return nil
	}
	m.seg = m.cachePos(r, s)
	m.view = viewWire
	m.focus = focusContent
	cmds := m.selectRequest(r)
	m.body.Reveal(off, m.contentHeight())
	return tea.Batch(cmds...)
}

// segIndex finds a segment by ID in request r (-1 when absent).
func (m *Model) segIndex(r int, id string) int {
	if r < 0 || r >= len(m.reqs) {
		return -1
	}
	for i, s := range m.reqs[r].req.Segments {
		if s.ID == id {
			return i
		}
	}
	return -1
}

func (m *Model) tableEnter() tea.Cmd {
	switch m.view {
	case viewEscapes:
		rows := m.shownEscRows()
		if m.table.Sel < len(rows) {
			r := rows[m.table.Sel]
			return m.jumpTo(m.cur(), r.seg, r.off)
		}
	case viewFindings:
		fs := m.shownFindings()
		if m.table.Sel < len(fs) {
			f := fs[m.table.Sel]
			s := m.segIndex(f.req, f.Segment)
			if s < 0 {
				s = 0
			}
			return m.jumpTo(f.req, s, f.Offset)
		}
	case viewCache:
		// The diff of the request under the cursor with the one its cache
		// step compares it with: the request is selected, the Diff view
		// opens at it.
		// The marks stay: the step is shown for this request even when
		// it is marked, until the selection or a mark changes or 5 is
		// pressed.
		r := m.table.Sel
		if r >= 1 && r < len(m.reqs) {
			cmds := m.selectRequest(r)
			m.stepDiff = r + 1
			return tea.Batch(append(cmds, m.openView(viewDiff))...)
		}
	}
	return nil
}
