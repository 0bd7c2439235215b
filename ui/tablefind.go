package ui

// Search and filter in the views other than Wire: / finds text in the rows
// of the Escapes, Findings and Cache tables (the cursor goes to the next
// matching row, n and N step) and in the lines of the Diff and Raw views
// (the view scrolls to it and stays); f filters the rows of the Escapes and
// Findings tables to those holding every word. Both read a row as the words
// of its columns (rowText), so a column a table gains is searched too.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/find"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/scan"
)

// viewFind is a search in a view other than Wire: the view, and the rows
// (or byte offsets, in Raw) that match.
type viewFind struct {
	view viewKind
	find.Cursor
}

// findsInView reports whether / and n/N act in the current view rather
// than over every segment of every request.
func (m *Model) findsInView() bool {
	switch m.view {
	case viewEscapes, viewFindings, viewCache, viewDiff, viewRaw, viewResponse:
		return true
	}
	return false
}

// filtersRows reports whether f filters the current view's rows (else it
// filters the request list).
func (m *Model) filtersRows() bool { return m.view == viewEscapes || m.view == viewFindings }

// rowText is the plain text of row i of table view v, its columns' words:
// what search and filter read.
func (m *Model) rowText(v viewKind, i int) string {
	switch v {
	case viewFindings:
		return find.FindingText(m.findings[i].Finding, m.findings[i].req) + " " + m.findings[i].server
	case viewEscapes:
		r := m.escRows()[i]
		if r.escape != nil {
			return find.EscapeText(r.escape, r.where, render.EscapeNote(*r.escape))
		}
		return find.HazardText(r.hazard, r.where, r.segText)
	case viewCache:
		e := &m.reqs[i]
		words := []string{"#" + strconv.Itoa(i+1), m.opts.Labels[e.req.Source], e.req.Model, e.req.Source}
		if st := m.step(i); st != nil && st.Break != nil {
			b := st.Break
			words = append(words, "break", b.Segment, string(b.Channel), string(b.Kind), b.Label, string(b.Volatile), string(b.Cause))
		}
		return strings.Join(words, " ")
	}
	return ""
}

// allRows is how many rows table view v has before its filter.
func (m *Model) allRows(v viewKind) int {
	switch v {
	case viewFindings:
		return len(m.findings)
	case viewEscapes:
		return len(m.escRows())
	case viewCache:
		return len(m.reqs)
	}
	return 0
}

// shownRows are the rows of table view v that its filter keeps, indices
// into its rows: all of them when it has none.
func (m *Model) shownRows(v viewKind) []int {
	n := m.allRows(v)
	out := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if v == viewFindings && m.findServer != "" && m.findings[i].server != m.findServer {
			continue // the Findings view shows one MCP server's (s)
		}
		if f := m.rowFilter[v]; f == "" || find.Words(m.rowText(v, i), f) {
			out = append(out, i)
		}
	}
	return out
}

// shownFindings are the Findings view's rows after its filter and its MCP
// server (s): all of them when it has neither.
func (m *Model) shownFindings() []findingRow {
	if m.rowFilter[viewFindings] == "" && m.findServer == "" {
		return m.findings
	}
	return find.Pick(m.findings, m.shownRows(viewFindings))
}

// shownEscRows are the Escapes view's rows after its filter.
func (m *Model) shownEscRows() []escRow {
	if rows := m.escRows(); m.rowFilter[viewEscapes] != "" {
		return find.Pick(rows, m.shownRows(viewEscapes))
	}
	return m.escRows()
}

// setRowFilter filters the current table view's rows, the cursor on the
// first.
func (m *Model) setRowFilter(f string) {
	if m.rowFilter == nil {
		m.rowFilter = map[viewKind]string{}
	}
	m.rowFilter[m.view] = f
	m.moveTable(0)
}

// findInView runs a search in the current view: the rows (Escapes,
// Findings, Cache, Diff) or byte offsets (Raw) holding q (smart case, as
// the search over the requests), then goes to the first at or after the
// cursor.
func (m *Model) findInView(q string) tea.Cmd {
	m.vf = viewFind{view: m.view, Cursor: find.Cursor{Query: q, Cur: -1}}
	if q == "" {
		return nil
	}
	fold := find.Fold(q)
	has := func(s string) bool { return len(find.All(s, q, fold)) > 0 }
	from := 0
	switch m.view {
	case viewFindings, viewEscapes, viewCache:
		for k, i := range m.shownRows(m.view) {
			if has(m.rowText(m.view, i)) {
				m.vf.At = append(m.vf.At, k)
			}
		}
		from = m.table.Sel
	case viewDiff:
		for i, l := range m.diff.lines {
			if has(l.Left) || has(l.Right) {
				m.vf.At = append(m.vf.At, i)
			}
		}
		from = m.diff.top
	case viewRaw, viewResponse:
		m.vf.At = find.All(m.raw.Text, q, fold)
		if len(m.raw.Rows) > m.raw.Top {
			from = m.raw.Rows[m.raw.Top]
		}
	}
	if len(m.vf.At) == 0 {
		m.status = "no match for " + scan.VisibleLine(q) + " in this view"
		return nil
	}
	m.vf.Start(from)
	return m.stepInView(1)
}

// stepInView goes to the next (dir 1) or previous (dir -1) match of the
// view's search, staying in the view.
func (m *Model) stepInView(dir int) tea.Cmd {
	at, ok := m.vf.Step(dir)
	if !ok {
		if m.vf.Query != "" {
			m.status = "no match for " + scan.VisibleLine(m.vf.Query) + " in this view"
		}
		return nil
	}
	var cmd tea.Cmd
	switch m.vf.view {
	case viewEscapes, viewFindings, viewCache:
		m.moveTable(at)
	case viewDiff:
		h := m.bodyHeight() - 3
		m.diff.top = max(0, min(at, len(m.diff.lines)-h))
	case viewRaw, viewResponse:
		m.raw.Reveal(at, m.bodyHeight()-2)
		if f := m.raw.Decorate(1, nil, []mark{{Start: at, End: at + len(m.vf.Query)}}, -1); f != nil {
			cmd = func() tea.Msg { return f() }
		}
	}
	// The count is in the search's chip in the status line.
	switch m.vf.view {
	case viewRaw, viewResponse:
		m.status = "at byte " + strconv.Itoa(at)
	case viewDiff:
		m.status = "on line " + strconv.Itoa(at+1)
	default:
		m.status = "on row " + strconv.Itoa(at+1)
	}
	return cmd
}
