package ui

// The Escapes view: every escape applied and every hazard left in the
// selected request.

import (
	"sort"
	"strconv"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// escapesView is the Escapes view: the escapes applied and the hazards
// left in request req (-1 none), in cache order.
type escapesView struct {
	st   *themes.Styles
	req  int
	rows []escRow
	cur  widget.Cursor
}

// escapesView is the Escapes view as the model stands.
func (m *Model) escapesView() escapesView {
	return escapesView{st: m.st, req: m.cur(), rows: m.shownEscRows(), cur: m.table}
}

// Render draws the view in a w×h box.
func (p escapesView) Render(w, h int) []string {
	st := p.st
	c := p.req
	rows := p.rows
	// The segment's column takes what it needs (at 200 columns, whole
	// paths), leaving the escape's text 24 cells at least; a hazard's
	// text takes the rest of the row.
	sw := render.ColumnWidth(len(rows), p.cur.Top, func(i int) string { return rows[i].where }, 14, max(14, w-4-10-8-24))
	rowAt := func(i int) string {
		r := rows[i]
		if r.escape != nil {
			return render.EscapeRow(st, r.escape, r.where, sw)
		}
		return render.HazardRow(st, r.hazard, r.where, r.segText, sw, w-4-10-sw-8)
	}
	title := "Escapes & hazards"
	if c >= 0 {
		title += " · request #" + strconv.Itoa(c+1) + " · " + strconv.Itoa(len(rows))
	}
	head := render.EscapesHead(sw)
	var detail []string
	if p.cur.Sel < len(rows) {
		r := rows[p.cur.Sel]
		if r.escape != nil {
			e := r.escape
			detail = append(detail, render.EscapeDetail(st, e, r.where))
			detail = append(detail, st.Muted.Render("context: ")+render.ExcerptAround(r.segText, e.Offset, e.Offset+len(e.Text), 40))
		} else {
			hz := r.hazard
			detail = append(detail, st.Muted.Render("hazard ")+st.Hazard.Render(string(hz.Class))+st.Muted.Render(" left in the text as sent at byte "+strconv.Itoa(hz.Offset)+", in "+scan.VisibleLine(r.where)+" ("+strconv.Itoa(hz.Len)+" bytes)"))
			detail = append(detail, st.Muted.Render("context: ")+render.ExcerptAround(r.segText, hz.Offset, hz.Offset+hz.Len, 40))
		}
		detail = append(detail, st.Muted.Render("enter: show it in the content"))
	}
	return widget.Table{St: st, Cur: p.cur, Title: title, Head: "  " + head, Count: len(rows), Row: rowAt,
		Empty: "no escapes applied and no hazards in this request", Detail: detail}.Render(w, h)
}

// escRow is one row of the Escapes view: an applied escape or a hazard left.
type escRow struct {
	seg     int
	off     int
	escape  *wire.Escape
	hazard  *scan.Hazard
	segID   string
	where   string // envelope or kind, source and id (render.EscapeWhere)
	segText string
}

// escRows are the selected request's escapes and hazards in cache order
// (measured with the request, in a command).
func (m *Model) escRows() []escRow {
	c := m.cur()
	if c < 0 {
		return nil
	}
	return m.reqs[c].escRows
}

// escRowsOf lists the escapes and hazards of a request's segments at the
// indices order (in cache order).
func escRowsOf(e *entry, order []int) []escRow {
	var rows []escRow
	for _, si := range order {
		s := &e.req.Segments[si]
		from := len(rows)
		where := render.EscapeWhere(s)
		for k := range s.Escapes {
			rows = append(rows, escRow{seg: si, off: s.Escapes[k].Offset, escape: &s.Escapes[k], segID: s.ID, where: where, segText: s.Text})
		}
		for k := range e.segHz[si] {
			h := &e.segHz[si][k]
			rows = append(rows, escRow{seg: si, off: h.Offset, hazard: h, segID: s.ID, where: where, segText: s.Text})
		}
		// The segments come in cache order already: only a segment's own
		// rows need ordering, by offset (an escape before a hazard there).
		seg := rows[from:]
		sort.SliceStable(seg, func(i, j int) bool { return seg[i].off < seg[j].off })
	}
	return rows
}
