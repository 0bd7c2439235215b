package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/scan"
)

// View draws the screen. Children return lines; only this returns a
// tea.View.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	if !m.mouseOff {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = Title
	if m.loading && !m.opts.Live {
		if m.progress > 0 {
			v.ProgressBar = tea.NewProgressBar(tea.ProgressBarDefault, int(m.progress*100))
		} else {
			v.ProgressBar = tea.NewProgressBar(tea.ProgressBarIndeterminate, 0)
		}
	}
	return v
}

// minWidth and minHeight are the smallest screen the viewer draws its
// panes in; a smaller one says so.
const minWidth, minHeight = 60, 16

// tooSmall reports whether the terminal is smaller than the viewer draws in.
func (m *Model) tooSmall() bool { return m.w < minWidth || m.h < minHeight }

// Render is the screen as a string of exactly h lines of w cells.
func (m *Model) Render() string {
	if m.tooSmall() {
		return widget.TooSmall(m.st, m.w, m.h, minWidth, minHeight)
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, m.header().Render(m.w, 1))
	bh := m.bodyHeight()
	var body []string
	switch m.view {
	case viewWire:
		if m.zoom {
			body = m.renderZoom(bh)
		} else {
			body = m.renderWire(bh)
		}
	case viewEscapes:
		body = m.escapesView().Render(m.w, bh)
	case viewFindings:
		body = m.findingsView().Render(m.w, bh)
	case viewCache:
		body = m.cacheView().Render(m.w, bh)
	case viewDiff:
		body = widget.WithScroll(m.st, m.diffView().Render(m.w, bh), 0, m.w, true, m.diffScroll(bh-3))
	case viewRaw, viewResponse:
		body = widget.WithScroll(m.st, m.rawView().Render(m.w, bh), 0, m.w, true, widget.ContentScroll(&m.raw, bh-2))
	case viewHelp:
		body = m.helpView().Render(m.w, bh)
	}
	lines = append(lines, body...)
	lines = append(lines, m.hintBox()...)
	lines = append(lines, m.statusBar().Render(m.w, 1))
	for i := range lines {
		lines[i] = fit(lines[i], m.w)
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// diffScroll is where the Diff view, h rows of it shown, is in its rows:
// the text diff's or the trust map's.
func (m *Model) diffScroll(h int) widget.Scroll {
	a, b := m.diffPair()
	if a < 0 || b < 0 {
		return widget.Scroll{}
	}
	n := len(m.diff.lines)
	if m.diff.trust {
		n = len(trustRows(m.reqs, a, b))
	} else if !m.diff.ready {
		return widget.Scroll{}
	}
	return widget.Scroll{Top: m.diff.top, Shown: h, Total: n}
}

// ---- header and status ----

// header is the top line as the model stands: the title, the view tabs
// and what is loaded.
func (m *Model) header() widget.Header {
	active := m.view
	if m.view == viewHelp {
		active = m.prev
	}
	h := widget.Header{St: m.st, Name: Title, Title: m.opts.Title, Tabs: viewNames, Short: shortViewNames, Active: int(active),
		Reqs: len(m.reqs), Dropped: m.dropped, Visible: len(m.visible), Loading: m.loading, Live: m.opts.Live,
		Progress: m.progress, Analysing: m.analysing, Errs: len(m.errs), Layout: m.layoutName}
	if c := m.cur(); c >= 0 && m.label(c) != "" {
		h.Sel = "#" + strconv.Itoa(c+1) + " " + scan.VisibleLine(m.label(c))
	}
	return h
}

// shortViewNames are the tabs' names when the full ones do not fit.
var shortViewNames = []string{"Wire", "Esc", "Find", "Cache", "Diff", "Raw", "Resp"}

func (m *Model) tabRanges() [][2]int { return m.header().TabRanges(m.w) }

// statusBar is the status line as the model stands.
func (m *Model) statusBar() widget.Status {
	p := widget.Status{St: m.st, Prompting: m.pr.Active, PromptKind: m.pr.Kind, PromptText: string(m.pr.Text), PromptBack: m.pr.Back,
		Text: m.status, Searching: m.searching,
		Filter: m.filter, Query: m.query, Hits: len(m.hits), HitAt: m.hitAt, Rows: m.filtersRows()}
	if p.Rows {
		p.Filter = m.rowFilter[m.view]
	}
	if m.findsInView() {
		p.Query, p.Hits, p.HitAt = "", 0, -1
		if m.vf.view == m.view && m.vf.Query != "" {
			p.Query, p.Hits, p.HitAt = m.vf.Query, len(m.vf.At), m.vf.Cur
		}
	}
	if p.Prompting {
		p.History = len(m.history[m.pr.Kind]) > 0
		p.PromptLabel = m.wr.Label(m.pr.Kind)
		return p
	}
	if p.Text == "" {
		p.Text = m.describeSelection()
		if m.mouseOff { // the terminal has the mouse until M again (nav.go)
			p.Text = "mouse: terminal (M) · " + p.Text
		}
	}
	p.Help, p.First, p.More = m.help, m.keys.ShortHelpFirst(), m.keys.ShortHelpMore()
	return p
}

// describeSelection is the status line's account of what is selected (plain
// text: the caller sanitises and styles it).
func (m *Model) describeSelection() string {
	c := m.cur()
	if c < 0 {
		if m.loading {
			return "loading…"
		}
		if len(m.reqs) == 0 {
			return "no requests"
		}
		return "no request matches the filter"
	}
	e, si, tok := &m.reqs[c], m.curSeg(), 0
	if si >= 0 {
		tok = e.segTok[si]
	}
	return render.Selection(c, &e.req, si, tok)
}

// hintBox is the first-screen hint (the tour) as a box under the panes
// (widget.HintBox); none while the hint is closed.
func (m *Model) hintBox() []string {
	if m.hint == "" || m.tooSmall() {
		return nil
	}
	short := ""
	if m.hint == TourHint {
		short = TourHintShort
	}
	return widget.HintBox(m.st, m.hint, short, m.w, m.h)
}

// ---- the wire view ----

func (m *Model) renderWire(h int) []string {
	lw := m.listWidth()
	rw := m.rightWidth()
	sh := m.segHeight()
	list := m.listPane().Render(lw, h)
	sp := m.segPane()
	segs := sp.Render(rw, sh)
	cols, focusCol := sp.columns(), -1
	if m.focus == focusSegs {
		focusCol, _ = sp.cursorAt()
	}
	for col, x := range []int{0, rw / 2} {
		w := rw / 2
		if col == 1 {
			w = rw - rw/2
		}
		segs = widget.WithScroll(m.st, segs, x, w, focusCol == col, widget.Scroll{Top: sp.top[col], Shown: segItemsIn(sh), Total: len(cols[col])})
	}
	body := widget.WithScroll(m.st, m.contentPane().Render(rw, h-sh), 0, rw, m.focus == focusContent, widget.ContentScroll(&m.body, h-sh-2))
	right := append(segs, body...)
	return widget.HJoin(list, right)
}
