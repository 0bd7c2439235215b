package ui

// The navigation keys: ] and [ from finding to finding, z to zoom the
// focused pane, W to wrap or cut long lines (←/→ then scroll sideways), M
// to leave the mouse to the terminal, 7 for the Response view.

import (
	"sort"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/find"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// onNavKey handles the navigation keys; ok is false for any other key.
func (m *Model) onNavKey(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	km := m.keys
	switch {
	case matches(k, km.Response):
		return m.openView(viewResponse), true
	case matches(k, km.NextFind):
		return m.hop(1), true
	case matches(k, km.PrevFind):
		return m.hop(-1), true
	case matches(k, km.Mouse):
		m.mouseOff = !m.mouseOff
		m.status = "mouse: the viewer's (clicks and the wheel; M leaves it to the terminal)"
		if m.mouseOff {
			m.status = "mouse: the terminal's (select text with it; M gives it back to the viewer)"
		}
		return nil, true
	case matches(k, km.Zoom):
		if m.view != viewWire {
			m.status = "z zooms a pane of the wire view (1); this view has the screen already"
			return nil, true
		}
		m.zoom = !m.zoom
		return m.relayout(), true
	case matches(k, km.Wrap) && m.cutsLines():
		m.cutLines = !m.cutLines
		m.diff.xoff = 0
		m.status = "long lines wrap (W cuts them)"
		if m.cutLines {
			m.status = "long lines cut at the edge: ←/→ scroll sideways (W wraps them)"
		}
		if f := m.raw.SetWrap(1, !m.cutLines); f != nil {
			return func() tea.Msg { return f() }, true
		}
		return nil, true
	case matches(k, km.Wrap):
		m.status = "W wraps or cuts the long lines of Diff, Raw and Response"
		return nil, true
	case m.cutLines && m.cutsLines() && matches(k, km.Left, km.Right):
		n := max(8, m.w/4)
		if matches(k, km.Left) {
			n = -n
		}
		if m.view == viewDiff {
			m.diff.xoff = max(0, min(m.diff.xoff+n, render.DiffMaxX(m.st, m.diff.lines, m.diff.top, m.bodyHeight()-3, (m.w-3)/2)))
		} else {
			m.raw.ScrollX(m.st, n, m.bodyHeight()-2)
		}
		return nil, true
	}
	return nil, false
}

// cutsLines reports whether the view's long lines wrap or are cut (W).
func (m *Model) cutsLines() bool {
	return m.view == viewDiff && !m.diff.trust || m.view == viewRaw || m.view == viewResponse
}

// zoomed reports whether pane p of the wire view has the screen (z).
func (m *Model) zoomed(p int) bool { return m.zoom && m.view == viewWire && m.pane() == p }

// renderZoom draws the focused pane of the wire view alone, h rows high.
func (m *Model) renderZoom(h int) []string {
	switch p := m.pane(); p {
	case paneList:
		return m.listPane().Render(m.w, h)
	case paneContent:
		return widget.WithScroll(m.st, m.contentPane().Render(m.w, h), 0, m.w, true, widget.ContentScroll(&m.body, h-2))
	default:
		sp, col := m.segPane(), p-panePrefix
		return widget.WithScroll(m.st, sp.column(col, m.w, h), 0, m.w, true,
			widget.Scroll{Top: sp.top[col], Shown: segItemsIn(h), Total: len(sp.columns()[col])})
	}
}

// stopsIn are request r's findings and hazards in cache order.
func (m *Model) stopsIn(r int) []find.Stop {
	e := &m.reqs[r]
	if e.hazards == 0 && m.perReq[r] == 0 {
		return nil
	}
	var fs []audit.Finding
	all := m.allFindings // by request
	for i := sort.Search(len(all), func(i int) bool { return all[i].req >= r }); i < len(all) && all[i].req == r; i++ {
		fs = append(fs, all[i].Finding)
	}
	return find.Stops(e.req.Segments, e.order, e.segHz, fs)
}

// hop goes to the next (dir 1) or previous (dir -1) finding or hazard
// after the one last shown in the content (else from the selected
// segment's start), through the segments and the requests the list shows.
// Past the last it starts again at the first, and says so.
func (m *Model) hop(dir int) tea.Cmd {
	at := find.Stop{Pos: m.seg, Off: -1}
	if c, s := m.cur(), m.curSeg(); s >= 0 && m.bodyKey == [2]int{c, s} && m.body.Target >= 0 {
		at.Off = m.body.Target
	}
	vi, x, wrapped, ok := find.Hop(len(m.visible), max(0, m.list.sel), dir, at, func(i int) []find.Stop { return m.stopsIn(m.visible[i]) })
	if !ok {
		m.status = "no finding or hazard in the requests listed"
		return nil
	}
	r := m.visible[vi]
	si := m.reqs[r].order[x.Pos]
	cmd := m.jumpTo(r, si, x.Off)
	// Where first: a narrow status line keeps it.
	m.status = "#" + strconv.Itoa(r+1) + " " + scan.VisibleLine(m.reqs[r].req.Segments[si].ID) + " @" + strconv.Itoa(x.Off) + " · " + scan.VisibleLine(x.What)
	if wrapped && dir > 0 {
		m.status = "past the last finding or hazard, back to the first: " + m.status
	} else if wrapped {
		m.status = "before the first finding or hazard, on to the last: " + m.status
	}
	return cmd
}
