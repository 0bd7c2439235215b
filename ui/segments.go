package ui

// The segment columns: the trusted prefix (tools and system) beside the
// messages, every segment with its trust badge, size and marks.

import (
	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
)

// segPane is the two segment columns of the selected request: the trusted
// prefix (tools and system) beside the messages. top is its own state (the
// root owns the pane); the rest is handed to it to draw.
type segPane struct {
	top [2]int // scroll of the two columns

	st      *themes.Styles
	req     int            // index of the request, -1 none
	e       *entry         // the request, nil none
	cursor  int            // the selected segment: position in the cache order
	step    *diff.Step     // the request's cache step, nil none
	perSeg  map[segKey]int // findings per request and segment
	focused bool
}

// segPane is the segment columns as the model stands.
func (m *Model) segPane() segPane {
	p := m.segs
	p.st, p.cursor, p.perSeg, p.focused = m.st, m.seg, m.perSeg, m.focus == focusSegs
	p.req = m.cur()
	if p.req >= 0 {
		p.e = &m.reqs[p.req]
		p.step = m.step(p.req)
	}
	return p
}

// Render draws the two columns side by side in width×height.
func (p segPane) Render(w, h int) []string {
	lcol := w / 2
	return widget.HJoin(p.column(0, lcol, h), p.column(1, w-lcol, h))
}

// column draws one column in a w×h box.
func (p segPane) column(col, w, h int) []string {
	st := p.st
	inner := w - 2
	cols := p.columns()
	room := max(0, w-5) // what the box gives its title
	title := render.FitTitle(room, "TRUSTED PREFIX · tools + system", "TRUSTED PREFIX")
	if col == 1 {
		title = render.FitTitle(room, "MESSAGES · fragments + conversation", "MESSAGES")
	}
	var lines []string
	if p.e != nil {
		e, c, step := p.e, p.req, p.step
		items := cols[col]
		cc, cr := p.cursorAt()
		if col == 0 {
			k := 0
			for _, pos := range items {
				if render.InSystem(&e.req.Segments[e.order[pos]]) {
					k++
				}
			}
			title = render.PrefixTitle(len(items), k, room)
		} else {
			title = render.MessagesTitle(len(items), room)
		}
		for k := p.top[col]; k < len(items) && len(lines)+2 <= h-2; k++ {
			pos := items[k]
			si := e.order[pos]
			s := &e.req.Segments[si]
			mk := render.SegmentMarks{Break: -1, Breakpoint: e.req.Breakpoint(si), Selected: col == cc && k == cr, Focused: p.focused,
				ServerTools: render.ServerRun(e.req.Segments, func(j int) int { return e.order[items[j]] }, len(items), k, p.top[col])}
			// The row counts the glue folded into it with its segment.
			for _, gi := range append(foldedInto(e.req.Segments, si), si) {
				g := &e.req.Segments[gi]
				mk.Findings += p.perSeg[segKey{c, g.ID}]
				mk.Hazards += len(e.segHz[gi])
				mk.Tokens += e.segTok[gi]
				if step != nil && step.Break != nil && step.Break.Segment == g.ID {
					mk.Break = step.Break.Offset
				}
			}
			l1, l2 := render.SegmentRows(st, s, mk, inner)
			lines = append(lines, l1, l2)
		}
		if len(items) == 0 {
			lines = append(lines, st.Muted.Render("  (none)"))
		}
	}
	cc, _ := p.cursorAt()
	return widget.Box(st, st.Header.Render(title), lines, w, h, p.focused && cc == col)
}

// columns splits the request's cache order into the prefix column (tools
// and system) and the messages column; the values are positions in the
// cache order.
func (p segPane) columns() [2][]int {
	var cols [2][]int
	if p.e == nil {
		return cols
	}
	for k, i := range p.e.order {
		if render.Glue(p.e.req.Segments, i) {
			continue // folded into its envelope's row
		}
		col := 0
		if p.e.req.Segments[i].Channel.CacheRank() == 2 {
			col = 1
		}
		cols[col] = append(cols[col], k)
	}
	return cols
}

// cursorAt is the column and row of the cursor.
func (p segPane) cursorAt() (int, int) {
	cols := p.columns()
	// The cursor on folded glue (a search match in it) is on the row of
	// the nearest segment of its column, the later of two: the envelope
	// whose opening tag it holds.
	bc, br, bd := 0, 0, -1
	for c := 0; c < 2; c++ {
		for r, k := range cols[c] {
			d := max(k-p.cursor, p.cursor-k)
			if d == 0 {
				return c, r
			}
			if p.e != nil && p.cursor >= 0 && p.cursor < len(p.e.order) && (c == 1) == (p.e.req.Segments[p.e.order[p.cursor]].Channel.CacheRank() == 2) &&
				(bd < 0 || d < bd || d == bd && k > p.cursor) {
				bc, br, bd = c, r, d
			}
		}
	}
	return bc, br
}

// ensureVisible scrolls the columns, h rows high, to the cursor, as
// little as it can; the segment where the cache prefix ends (✂) is kept in
// view with it when both fit, since it is where the column's story is.
func (p *segPane) ensureVisible(h int) {
	col, row := p.cursorAt()
	n := segItemsIn(h)
	if row < p.top[col] {
		p.top[col] = row
	}
	if row >= p.top[col]+n {
		p.top[col] = row - n + 1
	}
	if b := p.breakRow(col); b >= 0 && b < p.top[col] && row-b < n {
		p.top[col] = b
	}
	cols := p.columns()
	for c := 0; c < 2; c++ {
		p.top[c] = max(0, min(p.top[c], len(cols[c])-n))
	}
}

// breakRow is the row of column col whose segment (or glue folded into
// it) holds the request's cache break, -1 none.
func (p *segPane) breakRow(col int) int {
	if p.e == nil || p.step == nil || p.step.Break == nil {
		return -1
	}
	for r, pos := range p.columns()[col] {
		si := p.e.order[pos]
		for _, gi := range append(foldedInto(p.e.req.Segments, si), si) {
			if p.e.req.Segments[gi].ID == p.step.Break.Segment {
				return r
			}
		}
	}
	return -1
}

// segItemsIn is how many segments a column h rows high shows.
func segItemsIn(h int) int { return max(1, (h-2)/2) }

// segItems is how many segments a column shows.
func (m *Model) segItems() int { return segItemsIn(m.segHeight()) }

func (m *Model) columns() [2][]int { return m.segPane().columns() }

func (m *Model) segCol() (int, int) { return m.segPane().cursorAt() }

func (m *Model) ensureSegVisible() {
	p := m.segPane()
	p.ensureVisible(m.segHeight())
	m.segs.top = p.top
}

func (m *Model) moveSeg(to int) tea.Cmd {
	c := m.cur()
	if c < 0 || len(m.reqs[c].order) == 0 {
		return nil
	}
	to = max(0, min(to, len(m.reqs[c].order)-1))
	m.seg = to
	m.ensureSegVisible()
	return tea.Batch(m.loadBody()...)
}

func (m *Model) onSegKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	cols := m.columns()
	col, row := m.segCol()
	switch {
	case matches(k, km.Up):
		if row > 0 {
			return m.moveSeg(cols[col][row-1])
		}
	case matches(k, km.Down):
		if row+1 < len(cols[col]) {
			return m.moveSeg(cols[col][row+1])
		}
	case matches(k, km.PageUp):
		if len(cols[col]) > 0 {
			return m.moveSeg(cols[col][max(0, row-widget.Page(m.segItems(), matches(k, km.HalfPage)))])
		}
	case matches(k, km.PageDown):
		if len(cols[col]) > 0 {
			return m.moveSeg(cols[col][min(len(cols[col])-1, row+widget.Page(m.segItems(), matches(k, km.HalfPage)))])
		}
	case matches(k, km.Top):
		if len(cols[col]) > 0 {
			return m.moveSeg(cols[col][0])
		}
	case matches(k, km.Bottom):
		if len(cols[col]) > 0 {
			return m.moveSeg(cols[col][len(cols[col])-1])
		}
	case matches(k, km.Left):
		if col == 1 && len(cols[0]) > 0 {
			return m.moveSeg(cols[0][min(row, len(cols[0])-1)])
		}
		if col == 0 {
			m.focus = focusList
		}
	case matches(k, km.Right):
		if col == 0 && len(cols[1]) > 0 {
			return m.moveSeg(cols[1][min(row, len(cols[1])-1)])
		}
	}
	return nil
}

// foldedInto are the glue segments folded into segment i's row: the glue
// of its part just before it, and the glue just after it when no enveloped
// segment follows that (the last closing tag).
func foldedInto(segs []wire.Segment, i int) []int {
	if segs[i].Envelope == "" {
		return nil
	}
	var out []int
	if i > 0 && segs[i-1].Part == segs[i].Part && render.Glue(segs, i-1) {
		out = append(out, i-1)
	}
	if j := i + 1; j < len(segs) && segs[j].Part == segs[i].Part && render.Glue(segs, j) &&
		(j+1 >= len(segs) || segs[j+1].Part != segs[i].Part || segs[j+1].Envelope == "") {
		out = append(out, j)
	}
	return out
}
