package ui

// The Diff view: two requests side by side, aligned by segment, as a text
// diff or as a trust map.

import (
	"fmt"
	"slices"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/scan"
)

// diffView is the Diff view: requests a and b (-1 none) side by side, as
// the text diff the root keeps in d or as a trust map.
type diffView struct {
	st   *themes.Styles
	reqs []entry
	a, b int
	d    diffState
}

// diffView is the Diff view as the model stands.
func (m *Model) diffView() diffView {
	a, b := m.diffPair()
	d := m.diff
	d.cut = m.cutLines
	return diffView{st: m.st, reqs: m.reqs, a: a, b: b, d: d}
}

// Render draws the view in a w×h box.
func (p diffView) Render(w, h int) []string {
	st := p.st
	a, b := p.a, p.b
	if a < 0 || b < 0 {
		return widget.Box(st, st.Header.Render("Diff"), []string{st.Muted.Render("a diff needs two requests: this input holds one")}, w, h, true)
	}
	title := fmt.Sprintf("Diff #%d → #%d", a+1, b+1)
	if p.d.trust {
		return p.trustMap(w, h, title+" · trust map (t: text diff)")
	}
	if !p.d.ready {
		return widget.Box(st, st.Header.Render(title), []string{st.Muted.Render("diffing…")}, w, h, true)
	}
	if f := p.d.first; f == nil {
		title += " · identical"
	} else {
		title += " · first divergence: " + scan.VisibleLine(f.Segment) + " @" + strconv.Itoa(f.Offset)
	}
	title += " (t: trust map)"
	inner := w - 2
	lw := (inner - 1) / 2
	rw := inner - 1 - lw
	lines := []string{render.DiffHead(st, a, b, p.reqs[a].req.Name(), p.reqs[b].req.Name(), lw)}
	lines = append(lines, render.DiffRows(st, p.d.lines, p.d.top, h-3, lw, rw, p.d.cut, p.d.xoff)...)
	return widget.Box(st, st.Header.Render(title), lines, w, h, true)
}

// trustMap shows the two requests side by side by channel: every segment's
// trust badge, kind or envelope and size, so the layouts compare at a
// glance.
func (p diffView) trustMap(w, h int, title string) []string {
	st := p.st
	a, b := p.a, p.b
	inner := w - 2
	lw := (inner - 1) / 2
	rw := inner - 1 - lw
	lines := []string{render.DiffHead(st, a, b, p.reqs[a].req.Name(), p.reqs[b].req.Name(), lw)}
	rows := trustRows(p.reqs, a, b)
	for i := p.d.top; i < len(rows) && len(lines) < h-2; i++ {
		lines = append(lines, render.TrustMapRow(st, rows[i], lw, rw))
	}
	return widget.Box(st, st.Header.Render(title), lines, w, h, true)
}

// diffLine is one row of the side-by-side diff.
type diffLine = render.DiffLine

type diffState struct {
	gen   int
	a, b  int
	ready bool
	lines []diffLine
	// first is the first divergence, nil when every segment is the same;
	// firstL is its row in lines.
	first  *diff.Divergence
	top    int
	firstL int
	// trust shows the two requests' segments side by side by channel with
	// their trust (the layout comparison) instead of the text diff.
	trust bool
	// cut draws each line on one row, cut at the width, from cell xoff
	// (W; ←/→), instead of wrapping it (the model's cutLines, as drawn).
	cut  bool
	xoff int
}

type diffMsg struct {
	gen   int
	lines []diffLine
	first *diff.Divergence
	fl    int
}

// diffPair is the pair the Diff view compares, for the selected request:
// its cache step when Enter in the Cache view asked for it (stepDiff), else
// the two marked requests when the selection is one of them (or nothing is
// selected), else the selected request and the one its cache step compares
// it with (see predecessor).
func (m *Model) diffPair() (int, int) {
	c := m.cur()
	if c >= 1 && m.stepDiff == c+1 {
		return m.predecessor(c), c
	}
	if len(m.marks) == 2 && (c < 0 || slices.Contains(m.marks, c)) {
		a, b := m.marks[0], m.marks[1]
		if a > b {
			a, b = b, a
		}
		return a, b
	}
	switch {
	case c < 0:
		return -1, -1
	case c == 0 && len(m.reqs) > 1:
		return 0, 1
	case c == 0:
		return -1, c
	}
	return m.predecessor(c), c
}

func (m *Model) startDiff() []tea.Cmd {
	a, b := m.diffPair()
	if a < 0 || b < 0 || a >= len(m.reqs) || b >= len(m.reqs) {
		m.diff = diffState{a: a, b: b, trust: m.diff.trust}
		return nil
	}
	if m.diff.ready && m.diff.a == a && m.diff.b == b {
		return nil
	}
	m.diff.gen++
	m.diff.a, m.diff.b, m.diff.ready, m.diff.lines, m.diff.top, m.diff.xoff = a, b, false, nil, 0, 0
	gen := m.diff.gen
	ra, rb := m.reqs[a].req, m.reqs[b].req
	f := m.opts.Analysis.Diff
	return []tea.Cmd{func() tea.Msg {
		d := f(&ra, &rb)
		lines, fl := render.LayoutDiff(d)
		return diffMsg{gen: gen, lines: lines, first: d.First, fl: fl}
	}}
}

func (m *Model) onDiff(msg diffMsg) {
	if msg.gen != m.diff.gen {
		return
	}
	m.diff.ready = true
	m.diff.lines, m.diff.first, m.diff.firstL = msg.lines, msg.first, msg.fl
	if !m.diff.trust {
		// The trust map keeps its own scroll; the text diff opens at the
		// first divergence.
		m.diff.top = max(0, msg.fl)
	}
}

// scroll scrolls the text diff by n rows, h shown.
func (d *diffState) scroll(n, h int) { d.scrollRows(n, h, len(d.lines)) }

// scrollRows scrolls by n of rows rows, h shown (the text diff's or the
// trust map's).
func (d *diffState) scrollRows(n, h, rows int) {
	d.top = max(0, min(d.top+n, rows-h))
}

// scrollTrust scrolls the trust map.
func (m *Model) scrollTrust(n, h int) {
	a, b := m.diffPair()
	if a < 0 || b < 0 {
		return
	}
	m.diff.scrollRows(n, h, len(trustRows(m.reqs, a, b)))
}

func (m *Model) onDiffKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	h := m.bodyHeight() - 3
	if m.diff.trust {
		switch {
		case matches(k, km.Up):
			m.scrollTrust(-1, h)
			return nil
		case matches(k, km.Down):
			m.scrollTrust(1, h)
			return nil
		case matches(k, km.PageUp):
			m.scrollTrust(-widget.Page(h, matches(k, km.HalfPage)), h)
			return nil
		case matches(k, km.PageDown):
			m.scrollTrust(widget.Page(h, matches(k, km.HalfPage)), h)
			return nil
		case matches(k, km.Top):
			m.diff.top = 0
			return nil
		}
	}
	switch {
	case matches(k, km.Up):
		m.diff.scroll(-1, h)
	case matches(k, km.Down):
		m.diff.scroll(1, h)
	case matches(k, km.PageUp):
		m.diff.scroll(-widget.Page(h, matches(k, km.HalfPage)), h)
	case matches(k, km.PageDown):
		m.diff.scroll(widget.Page(h, matches(k, km.HalfPage)), h)
	case matches(k, km.Top):
		m.diff.top = 0
	case matches(k, km.Bottom):
		m.diff.scroll(len(m.diff.lines), h)
	case matches(k, km.Enter):
		m.diff.top = m.diff.firstL
	case matches(k, km.Trust):
		m.diff.trust = !m.diff.trust
		m.diff.top = 0
		if !m.diff.trust {
			m.diff.top = m.diff.firstL
		}
	}
	return nil
}

// trustRows lays requests a and b's segments out by channel, side by side.
func trustRows(reqs []entry, a, b int) [][2]*render.TrustRow {
	side := func(e *entry) []render.TrustItem {
		out := make([]render.TrustItem, len(e.order))
		for k, i := range e.order {
			out[k] = render.TrustItem{Seg: &e.req.Segments[i], Tok: e.segTok[i]}
		}
		return out
	}
	return render.TrustRows(side(&reqs[a]), side(&reqs[b]))
}
