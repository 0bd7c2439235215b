package ui

// The segment columns: the trusted prefix (tools and system) beside the
// messages, every segment with its trust badge, size and marks.

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
)

// uiBadge is a segment's trust as a coloured label that also reads without
// colour.
func uiBadge(st *themes.Styles, t wire.Trust) string {
	text := strings.ToUpper(string(t))
	if text == "" {
		text = "?"
	}
	if st.Mono {
		return "[" + text + "]"
	}
	sty := st.BadgeUser
	switch t {
	case wire.Trusted:
		sty = st.BadgeTrusted
	case wire.Untrusted:
		sty = st.BadgeUntrusted
	case wire.TrustModel:
		sty = st.BadgeModel
	}
	return sty.Render(" " + text + " ")
}

func (m *Model) renderSegColumn(col, w, h int) []string {
	st := m.st
	inner := w - 2
	cols := m.columns()
	c := m.cur()
	title := "TRUSTED PREFIX · tools + system"
	if col == 1 {
		title = "MESSAGES · fragments + conversation"
	}
	var lines []string
	if c >= 0 {
		e := &m.reqs[c]
		row, hasRow := m.cacheRows[c]
		items := cols[col]
		title += " (" + itoa(len(items)) + ")"
		for k := m.segTop[col]; k < len(items) && len(lines)+2 <= h-2; k++ {
			pos := items[k]
			si := e.order[pos]
			s := &e.req.Segments[si]
			sel := pos == m.seg
			cur := "  "
			if sel {
				cur = "▸ "
			}
			name := s.Envelope
			if name == "" {
				name = string(s.Kind)
			}
			l1 := cur + uiBadge(m.st, s.Trust) + " " + st.Header.Render(wire.VisibleLine(name))
			if s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem {
				l1 += " " + st.High.Render("⚠ in system")
			}
			where := s.Label
			if where == "" {
				where = s.ID
			} else {
				where = where + " (" + s.ID + ")"
			}
			// Marks first, so a narrow column never cuts them off.
			var marks []string
			if hasRow && row.Break != nil && row.Break.Segment == s.ID {
				marks = append(marks, st.Break.Render("✂ prefix ends @"+itoa(row.Break.Offset)))
			}
			if nf := m.perSeg[itoa(c)+"/"+s.ID]; nf > 0 {
				marks = append(marks, st.High.Render("⚑"+itoa(nf)))
			}
			if nh := e.segHaz[si]; nh > 0 {
				marks = append(marks, st.Hazard.Render("!"+itoa(nh)))
			}
			if n := len(s.Escapes); n > 0 {
				marks = append(marks, st.Escape.Render("⎋"+itoa(n)))
			}
			if s.CacheBreakpoint {
				marks = append(marks, st.Accent.Render("◆bp"))
			}
			l2 := "   "
			if len(marks) > 0 {
				l2 += strings.Join(marks, " ") + " "
			}
			l2 += st.Muted.Render(wire.VisibleLine(where) + " · " + uiBytes(len(s.Text)) + " · " + uiNum(e.segTok[si]) + " tok")
			if sel {
				sty := st.Selected
				if m.focus == focusSegs {
					sty = st.Cursor
				}
				l1 = sty.Render(ansi.Strip(uiFit(l1, inner)))
			}
			lines = append(lines, l1, l2)
		}
		if len(items) == 0 {
			lines = append(lines, st.Muted.Render("  (none)"))
		}
	}
	return uiBox(m.st, st.Header.Render(title), lines, w, h, m.focus == focusSegs && m.segColOf() == col)
}

// segColOf is the column of the cursor.
func (m *Model) segColOf() int { c, _ := m.segCol(); return c }

// segItems is how many segments a column shows.
func (m *Model) segItems() int { return max(1, (m.segHeight()-2)/2) }

// columns splits the selected request's cache order into the prefix column
// (tools and system) and the messages column; the values are positions in
// the cache order.
func (m *Model) columns() [2][]int {
	var cols [2][]int
	c := m.cur()
	if c < 0 {
		return cols
	}
	e := &m.reqs[c]
	for k, i := range e.order {
		col := 0
		if e.req.Segments[i].Channel.CacheRank() == 2 {
			col = 1
		}
		cols[col] = append(cols[col], k)
	}
	return cols
}

// segCol is the column and row of the cursor.
func (m *Model) segCol() (int, int) {
	cols := m.columns()
	for c := 0; c < 2; c++ {
		for r, k := range cols[c] {
			if k == m.seg {
				return c, r
			}
		}
	}
	return 0, 0
}

func (m *Model) ensureSegVisible() {
	col, row := m.segCol()
	n := m.segItems()
	if row < m.segTop[col] {
		m.segTop[col] = row
	}
	if row >= m.segTop[col]+n {
		m.segTop[col] = row - n + 1
	}
	cols := m.columns()
	for c := 0; c < 2; c++ {
		m.segTop[c] = max(0, min(m.segTop[c], len(cols[c])-n))
	}
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
			return m.moveSeg(cols[col][max(0, row-m.segItems())])
		}
	case matches(k, km.PageDown):
		if len(cols[col]) > 0 {
			return m.moveSeg(cols[col][min(len(cols[col])-1, row+m.segItems())])
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
