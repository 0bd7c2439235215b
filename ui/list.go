package ui

// The request list: one row per request with its model, tokens, cache bar
// and marks.

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/wire"
)

func (m *Model) renderList(w, h int) []string {
	st := m.st
	inner := w - 2
	var lines []string
	digits := len(itoa(len(m.reqs)))
	for i := m.listTop; i < len(m.visible) && len(lines) < h-2; i++ {
		ri := m.visible[i]
		e := &m.reqs[ri]
		cursor := "  "
		if i == m.sel {
			cursor = "▸ "
		}
		if m.isMarked(ri) {
			cursor = cursor[:len(cursor)-1] + "●"
			if i == m.sel {
				cursor = "▸●"
			}
		}
		bar := "····"
		marks := " "
		if row, ok := m.cacheRows[ri]; ok {
			frac := 0.0
			if row.TotalTokens > 0 {
				frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
			}
			bar = uiBar(frac, 4)
			if row.Break != nil {
				marks = st.Break.Render("✂")
			}
		}
		if n := m.findingCount(ri); n > 0 {
			marks += st.High.Render("⚑")
		} else if len(e.hazards) > 0 {
			marks += st.Hazard.Render("!")
		} else {
			marks += " "
		}
		idx := fmt.Sprintf("%*d", digits, ri+1)
		model := wire.VisibleLine(e.req.Model)
		if model == "" {
			model = string(e.req.Format)
		}
		// The model takes what the index, the cache bar (when there is room;
		// the Cache view has it too), the tokens and the marks leave.
		left := cursor + idx + " "
		right := fmt.Sprintf(" %5s ", uiNum(e.tokens)) + marks
		if inner < 22 {
			right = " " + marks
		}
		if inner >= 26 {
			right = " " + st.TextTrusted.Render(bar) + right
		}
		room := inner - lipgloss.Width(left) - lipgloss.Width(right)
		line := left + st.Base.Render(uiFit(ansi.Truncate(model, max(1, room), "…"), max(1, room))) + right
		if i == m.sel {
			sty := st.Selected
			if m.focus == focusList && m.view == viewWire {
				sty = st.Cursor
			}
			line = sty.Render(ansi.Strip(uiFit(line, inner)))
		}
		lines = append(lines, line)
	}
	if len(m.visible) == 0 {
		if m.loading {
			lines = append(lines, st.Muted.Render("loading…"))
		} else if len(m.reqs) > 0 {
			lines = append(lines, st.Muted.Render("no match"))
		}
	}
	title := "Requests"
	if m.filter != "" {
		title += " · filter " + wire.VisibleLine(m.filter)
	}
	return uiBox(m.st, st.Header.Render(title), lines, w, h, m.focus == focusList)
}

func (m *Model) moveSel(to int) tea.Cmd {
	if len(m.visible) == 0 {
		return nil
	}
	to = max(0, min(to, len(m.visible)-1))
	if to == m.sel {
		return nil
	}
	m.sel = to
	m.ensureListVisible()
	return m.selectionCmd()
}

func (m *Model) onListKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	switch {
	case matches(k, km.Up):
		return m.moveSel(m.sel - 1)
	case matches(k, km.Down):
		return m.moveSel(m.sel + 1)
	case matches(k, km.PageUp):
		return m.moveSel(m.sel - m.listHeight())
	case matches(k, km.PageDown):
		return m.moveSel(m.sel + m.listHeight())
	case matches(k, km.Top):
		return m.moveSel(0)
	case matches(k, km.Bottom):
		return m.moveSel(len(m.visible) - 1)
	case matches(k, km.Right):
		m.focus = focusSegs
	}
	return nil
}
