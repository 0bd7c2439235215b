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

	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/scan"
)

// viewFind is a search in a view other than Wire: its query, the rows (or
// byte offsets, in Raw) that match, the one shown.
type viewFind struct {
	view  viewKind
	query string
	at    []int
	cur   int
}

// findsInView reports whether / and n/N act in the current view rather
// than over every segment of every request.
func (m *Model) findsInView() bool {
	switch m.view {
	case viewEscapes, viewFindings, viewCache, viewDiff, viewRaw:
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
		f := m.findings[i]
		return strings.Join([]string{string(f.Severity), f.Rule, "#" + strconv.Itoa(f.req+1), f.Segment,
			"@" + strconv.Itoa(f.Offset), f.Message, f.Excerpt}, " ")
	case viewEscapes:
		r := m.escRows()[i]
		if r.escape != nil {
			e := r.escape
			return strings.Join([]string{e.Rule, r.where, "@" + strconv.Itoa(e.Offset), scan.VisibleLine(e.Original), e.Text, render.EscapeNote(*e)}, " ")
		}
		return strings.Join([]string{string(r.hazard.Class), r.where, "@" + strconv.Itoa(r.hazard.Offset),
			excerptAround(r.segText, r.hazard.Offset, r.hazard.Offset+r.hazard.Len, 0)}, " ")
	case viewCache:
		e := &m.reqs[i]
		words := []string{"#" + strconv.Itoa(i+1), m.opts.Labels[e.req.Source], e.req.Model, e.req.Source}
		if st := m.step(i); st != nil && st.Break != nil {
			words = append(words, "break", st.Break.Segment, string(st.Break.Channel), string(st.Break.Kind), st.Break.Label, string(st.Break.Volatile), string(st.Break.Cause))
		}
		return strings.Join(words, " ")
	}
	return ""
}

// matchesWords reports whether text holds every word of filter, ASCII
// letters in either case.
func matchesWords(text, filter string) bool {
	hay := strings.ToLower(text)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// shownRows are the rows of table view v that its filter keeps (indices
// into its rows), nil when it has no filter.
func (m *Model) shownRows(v viewKind, n int) []int {
	f := m.rowFilter[v]
	if f == "" {
		return nil
	}
	out := []int{}
	for i := 0; i < n; i++ {
		if matchesWords(m.rowText(v, i), f) {
			out = append(out, i)
		}
	}
	return out
}

// shownFindings are the Findings view's rows after its filter.
func (m *Model) shownFindings() []findingRow {
	idx := m.shownRows(viewFindings, len(m.findings))
	if idx == nil {
		return m.findings
	}
	out := make([]findingRow, len(idx))
	for k, i := range idx {
		out[k] = m.findings[i]
	}
	return out
}

// shownEscRows are the Escapes view's rows after its filter.
func (m *Model) shownEscRows() []escRow {
	rows := m.escRows()
	idx := m.shownRows(viewEscapes, len(rows))
	if idx == nil {
		return rows
	}
	out := make([]escRow, len(idx))
	for k, i := range idx {
		out[k] = rows[i]
	}
	return out
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
	m.vf = viewFind{view: m.view, query: q, cur: -1}
	if q == "" {
		return nil
	}
	fold := strings.ToLower(q) == q
	has := func(s string) bool { return len(findAll(s, q, fold)) > 0 }
	from := 0
	switch m.view {
	case viewFindings:
		fs := m.shownFindings()
		idx := m.shownRows(viewFindings, len(m.findings))
		for k := range fs {
			i := k
			if idx != nil {
				i = idx[k]
			}
			if has(m.rowText(viewFindings, i)) {
				m.vf.at = append(m.vf.at, k)
			}
		}
		from = m.table.Sel
	case viewEscapes:
		rows := m.shownEscRows()
		idx := m.shownRows(viewEscapes, len(m.escRows()))
		for k := range rows {
			i := k
			if idx != nil {
				i = idx[k]
			}
			if has(m.rowText(viewEscapes, i)) {
				m.vf.at = append(m.vf.at, k)
			}
		}
		from = m.table.Sel
	case viewCache:
		for i := range m.reqs {
			if has(m.rowText(viewCache, i)) {
				m.vf.at = append(m.vf.at, i)
			}
		}
		from = m.table.Sel
	case viewDiff:
		for i, l := range m.diff.lines {
			if has(l.Left) || has(l.Right) {
				m.vf.at = append(m.vf.at, i)
			}
		}
		from = m.diff.top
	case viewRaw:
		m.vf.at = findAll(m.raw.Text, q, fold)
		if len(m.raw.Rows) > m.raw.Top {
			from = m.raw.Rows[m.raw.Top]
		}
	}
	if len(m.vf.at) == 0 {
		m.status = "no match for " + scan.VisibleLine(q) + " in this view"
		return nil
	}
	m.vf.cur = len(m.vf.at) - 1
	for k, at := range m.vf.at {
		if at >= from {
			m.vf.cur = k - 1
			break
		}
	}
	return m.stepInView(1)
}

// stepInView goes to the next (dir 1) or previous (dir -1) match of the
// view's search, staying in the view.
func (m *Model) stepInView(dir int) tea.Cmd {
	n := len(m.vf.at)
	if n == 0 {
		if m.vf.query != "" {
			m.status = "no match for " + scan.VisibleLine(m.vf.query) + " in this view"
		}
		return nil
	}
	m.vf.cur = (m.vf.cur + dir + 2*n) % n
	at := m.vf.at[m.vf.cur]
	var cmd tea.Cmd
	switch m.vf.view {
	case viewEscapes, viewFindings, viewCache:
		m.moveTable(at)
	case viewDiff:
		h := m.bodyHeight() - 3
		m.diff.top = max(0, min(at, len(m.diff.lines)-h))
	case viewRaw:
		m.raw.Reveal(at, m.bodyHeight()-2)
		if f := m.raw.Decorate(1, nil, []mark{{Start: at, End: at + len(m.vf.query)}}, -1); f != nil {
			cmd = func() tea.Msg { return f() }
		}
	}
	// The count is in the search's chip in the status line.
	switch m.vf.view {
	case viewRaw:
		m.status = "at byte " + strconv.Itoa(at)
	case viewDiff:
		m.status = "on line " + strconv.Itoa(at+1)
	default:
		m.status = "on row " + strconv.Itoa(at+1)
	}
	return cmd
}
