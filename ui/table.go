package ui

// The tables of the Escapes, Findings and Cache views: cursor, scrolling,
// details and the jump from a row to its place in the content.

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire/scan"
)

// detailLines is the height of the detail area under a table.
const detailLines = 3

// tableRows is how many rows a table shows in the body.
func (m *Model) tableRows() int { return tableRowsIn(m.bodyHeight()) }

// tableRowsIn is how many rows a table h rows high shows.
func tableRowsIn(h int) int { return max(1, h-4-detailLines) }

// tableCursor is the cursor and scroll of the Escapes, Findings and Cache
// tables (the root owns it).
type tableCursor struct{ sel, top int }

// move puts the cursor on row to of n, h rows shown.
func (t *tableCursor) move(to, n, h int) {
	t.sel = max(0, min(to, n-1))
	if t.sel < t.top {
		t.top = t.sel
	}
	if t.sel >= t.top+h {
		t.top = t.sel - h + 1
	}
}

// table is a table of count rows with a cursor and, under it, the selected
// row's details (already sanitised and styled). Only the visible rows are
// drawn: row(i) draws row i.
type table struct {
	st     *themes.Styles
	cur    tableCursor
	title  string
	head   string
	count  int
	row    func(i int) string
	empty  string
	detail []string
}

// Render draws the table in a w×h box.
func (t table) Render(w, h int) []string {
	st := t.st
	lines := []string{st.Header.Render(t.head)}
	n := tableRowsIn(h)
	for i := t.cur.top; i < t.count && i < t.cur.top+n; i++ {
		r := t.row(i)
		if i == t.cur.sel {
			r = st.Cursor.Render(ansi.Strip(fit("▸ "+r, w-2)))
		} else {
			r = "  " + r
		}
		lines = append(lines, r)
	}
	if t.count == 0 {
		lines = append(lines, st.Muted.Render("  "+t.empty))
	}
	for len(lines) < n+1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Subtle.Render(strings.Repeat("─", max(0, w-2))))
	for i := 0; i < detailLines; i++ {
		l := ""
		if i < len(t.detail) {
			l = " " + t.detail[i]
		}
		lines = append(lines, l)
	}
	return box(st, st.Header.Render(t.title), lines, w, h, true)
}

// excerptAround is up to n bytes of text on either side of [off, end), on one
// line, sanitised.
func excerptAround(text string, off, end, n int) string {
	off = max(0, min(off, len(text)))
	end = max(off, min(end, len(text)))
	lo, hi := max(0, off-n), min(len(text), end+n)
	lo = runeBoundary(text, lo)
	hi = runeBoundary(text, hi)
	return scan.VisibleLine(text[lo:hi])
}

func (m *Model) tableLen() int {
	switch m.view {
	case viewEscapes:
		return len(m.escRows())
	case viewFindings:
		return len(m.findings)
	case viewCache:
		return len(m.reqs)
	}
	return 0
}

func (m *Model) moveTable(to int) { m.table.move(to, m.tableLen(), m.tableRows()) }

func (m *Model) onTableKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	h := m.tableRows()
	switch {
	case matches(k, km.Up):
		m.moveTable(m.table.sel - 1)
	case matches(k, km.Down):
		m.moveTable(m.table.sel + 1)
	case matches(k, km.PageUp):
		m.moveTable(m.table.sel - h)
	case matches(k, km.PageDown):
		m.moveTable(m.table.sel + h)
	case matches(k, km.Top):
		m.moveTable(0)
	case matches(k, km.Bottom):
		m.moveTable(m.tableLen() - 1)
	case matches(k, km.Enter):
		return m.tableEnter()
	}
	return nil
}

// jumpTo selects request r (clearing a filter that hides it), segment s, and
// shows byte offset off in the content pane.
func (m *Model) jumpTo(r, s, off int) tea.Cmd {
	if r < 0 || r >= len(m.reqs) {
		return nil
	}
	vis := -1
	for k, i := range m.visible {
		if i == r {
			vis = k
		}
	}
	if vis < 0 {
		m.filter = ""
		m.refilter()
		for k, i := range m.visible {
			if i == r {
				vis = k
			}
		}
	}
	m.list.sel = max(0, vis)
	m.ensureListVisible()
	m.seg = m.cachePos(r, s)
	m.view = viewWire
	m.focus = focusContent
	cmds := m.selectionChanged()
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
		rows := m.escRows()
		if m.table.sel < len(rows) {
			r := rows[m.table.sel]
			return m.jumpTo(m.cur(), r.seg, r.off)
		}
	case viewFindings:
		fs := m.findings
		if m.table.sel < len(fs) {
			f := fs[m.table.sel]
			s := m.segIndex(f.req, f.Segment)
			if s < 0 {
				s = 0
			}
			return m.jumpTo(f.req, s, f.Offset)
		}
	case viewCache:
		r := m.table.sel
		if r >= 1 && r < len(m.reqs) {
			m.marks = []int{r - 1, r}
			return m.openView(viewDiff)
		}
	}
	return nil
}
