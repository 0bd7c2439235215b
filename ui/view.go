package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire/scan"
)

// View draws the screen. Children return lines; only this returns a
// tea.View.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
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

// minWidth and minHeight are the smallest screen the viewer draws.
const minWidth, minHeight = 30, 8

// Render is the screen as a string of exactly h lines of w cells.
func (m *Model) Render() string {
	if m.w < minWidth || m.h < minHeight {
		lines := make([]string, max(1, m.h))
		lines[0] = fit(fmt.Sprintf("wirelens needs %dx%d at least", minWidth, minHeight), max(1, m.w))
		for i := 1; i < len(lines); i++ {
			lines[i] = fit("", max(1, m.w))
		}
		return strings.Join(lines, "\n")
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, m.header().Render(m.w, 1))
	bh := m.bodyHeight()
	var body []string
	switch m.view {
	case viewWire:
		body = m.renderWire(bh)
	case viewEscapes:
		body = m.escapesView().Render(m.w, bh)
	case viewFindings:
		body = m.findingsView().Render(m.w, bh)
	case viewCache:
		body = m.cacheView().Render(m.w, bh)
	case viewDiff:
		body = m.diffView().Render(m.w, bh)
	case viewRaw:
		body = m.rawView().Render(m.w, bh)
	case viewHelp:
		body = m.helpView().Render(m.w, bh)
	}
	if m.hint != "" {
		body = overlay(m.st, body, m.hint, m.w)
	}
	lines = append(lines, body...)
	lines = append(lines, m.statusBar().Render(m.w, 1))
	for i := range lines {
		lines[i] = fit(lines[i], m.w)
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// ---- header and status ----

// header is the top line: the title, the view tabs and what is loaded.
type header struct {
	st         *themes.Styles
	title      string // Options.Title (hostile)
	view, prev viewKind
	reqs       int // requests loaded
	dropped    int // requests of a live stream dropped
	visible    int // requests shown after the filter
	loading    bool
	live       bool
	progress   float64
	analysing  bool
	errs       int
	layout     string // hostile
}

// header is the header as the model stands.
func (m *Model) header() header {
	return header{st: m.st, title: m.opts.Title, view: m.view, prev: m.prev, reqs: len(m.reqs), dropped: m.dropped, visible: len(m.visible),
		loading: m.loading, live: m.opts.Live, progress: m.progress, analysing: m.analysing, errs: len(m.errs), layout: m.layoutName}
}

// parts are the header's pieces at a width; the tabs' cell ranges follow
// from them (for mouse clicks).
func (p header) parts(width int) (string, []string) {
	title := " " + Title
	if p.title != "" && width >= 110 {
		title += " · " + cells.Clip(scan.VisibleLine(p.title), max(10, width/4), "…")
	}
	title += " "
	var tabs []string
	for i, n := range viewNames {
		tabs = append(tabs, " "+strconv.Itoa(i+1)+" "+n+" ")
	}
	return title, tabs
}

// tabRanges are the cell ranges of the tabs at a width.
func (p header) tabRanges(width int) [][2]int {
	title, tabs := p.parts(width)
	x := cells.Width(title) + 1
	var out [][2]int
	for _, t := range tabs {
		w := cells.Width(t)
		out = append(out, [2]int{x, x + w})
		x += w
	}
	return out
}

func (m *Model) tabRanges() [][2]int { return m.header().tabRanges(m.w) }

// Render draws the header's one line (the caller fits it to the width).
func (p header) Render(width, _ int) string {
	st := p.st
	title, tabs := p.parts(width)
	var b strings.Builder
	b.WriteString(st.Title.Render(title))
	b.WriteString(st.Subtle.Render("│"))
	for i, t := range tabs {
		if viewKind(i) == p.view || (p.view == viewHelp && viewKind(i) == p.prev) {
			if st.Mono {
				t = "[" + strings.TrimSpace(t) + "]"
				t = fit(t, cells.Width(tabs[i]))
			}
			b.WriteString(st.TabActive.Render(t))
		} else {
			b.WriteString(st.Tab.Render(t))
		}
	}
	b.WriteString(st.Subtle.Render("│ "))
	info := plural(p.reqs, "request")
	if p.layout != "" {
		// First, so that a narrow header never cuts it.
		info = strings.ToUpper(scan.VisibleLine(p.layout)) + " · " + info
	}
	if p.visible != p.reqs {
		info = strconv.Itoa(p.visible) + "/" + info
	}
	if p.loading && p.live {
		info += " · watching"
	} else if p.loading {
		if p.progress > 0 {
			info += fmt.Sprintf(" · loading %d%% %s", int(p.progress*100), fillBar(p.progress, 8))
		} else {
			info += " · loading…"
		}
	}
	if p.dropped > 0 {
		info += " · " + plural(p.dropped, "older rebuild") + " dropped"
	}
	if p.analysing {
		info += " · analysing…"
	}
	if p.errs > 0 {
		info += " · " + plural(p.errs, "input error")
	}
	b.WriteString(st.Muted.Render(info))
	return b.String()
}

// statusBar is the bottom line: the prompt being typed, or a message (or
// what is selected) with the short help.
type statusBar struct {
	st        *themes.Styles
	prompt    prompt
	text      string // plain text: sanitised here
	searching bool
	help      string // the short help, rendered by the root's help model
}

// statusBar is the status line as the model stands.
func (m *Model) statusBar() statusBar {
	p := statusBar{st: m.st, prompt: m.pr, text: m.status, searching: m.searching}
	if p.prompt.active {
		return p
	}
	if p.text == "" {
		p.text = m.describeSelection()
	}
	p.help = m.help.ShortHelpView(m.keys.ShortHelp())
	return p
}

// Render draws the status line.
func (p statusBar) Render(width, _ int) string {
	st := p.st
	if p.prompt.active {
		label := "/"
		if p.prompt.kind == "filter" {
			label = "filter (words; is:break is:finding is:hazard is:escape is:marked): "
		}
		return st.StatusKey.Render(label) + st.Base.Render(scan.VisibleLine(string(p.prompt.text))) + st.Accent.Render("▏")
	}
	left := p.text
	if p.searching {
		left = "searching… " + left
	}
	left = st.Status.Render(scan.VisibleLine(left))
	right := p.help
	room := width - cells.Width(left) - 2
	if room < 10 {
		return left
	}
	if cells.Width(right) > room {
		right = cells.Clip(right, room, "…")
	}
	gap := width - cells.Width(left) - cells.Width(right)
	return left + strings.Repeat(" ", max(1, gap)) + right
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
	e := &m.reqs[c]
	s := "#" + strconv.Itoa(c+1) + " " + e.req.Name()
	if si := m.curSeg(); si >= 0 {
		seg := &e.req.Segments[si]
		s += " · " + seg.ID + " · " + strings.ToUpper(string(seg.Trust)) + " · " + shortSize(len(seg.Text)) + " · " + shortNum(e.segTok[si]) + " tok"
	}
	if n := len(e.req.Notes); n > 0 {
		s += " · note: " + e.req.Notes[0]
		if n > 1 {
			s += " (+" + strconv.Itoa(n-1) + ")"
		}
	}
	return s
}

// ---- boxes ----

// box frames lines in a w×h box with a title in the top edge.
func box(st *themes.Styles, title string, lines []string, w, h int, focused bool) []string {
	if w < 2 || h < 2 {
		return make([]string, max(0, h))
	}
	edge, frame := st.Edge, st.Frame
	if focused {
		edge, frame = st.EdgeFocus, st.FrameFocus
	}
	inner := w - 2
	t := ""
	if title != "" {
		t = " " + cells.Clip(title, max(0, inner-3), "…") + " "
	}
	fill := max(0, inner-1-cells.Width(t))
	out := make([]string, 0, h)
	out = append(out, frame.Render(edge.TopLeft+edge.Top)+t+frame.Render(strings.Repeat(edge.Top, fill)+edge.TopRight))
	left, right := frame.Render(edge.Left), frame.Render(edge.Right)
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, left+fit(l, inner)+right)
	}
	out = append(out, frame.Render(edge.BottomLeft+strings.Repeat(edge.Bottom, inner)+edge.BottomRight))
	return out
}

// hjoin puts blocks of equal height side by side.
func hjoin(blocks ...[]string) []string {
	if len(blocks) == 0 {
		return nil
	}
	out := make([]string, len(blocks[0]))
	for i := range out {
		var b strings.Builder
		for _, bl := range blocks {
			if i < len(bl) {
				b.WriteString(bl[i])
			}
		}
		out[i] = b.String()
	}
	return out
}

// overlay centres a hint box over a body w cells wide.
func overlay(st *themes.Styles, body []string, text string, w int) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		wrapped := ansi.Wordwrap(scan.VisibleLine(l), max(10, w-6), " ")
		lines = append(lines, strings.Split(wrapped, "\n")...)
	}
	bw := 0
	for _, l := range lines {
		bw = max(bw, cells.Width(l))
	}
	bw = min(bw+4, w-2)
	bh := min(len(lines)+2, len(body))
	boxed := box(st, st.Accent.Render("guide"), func() []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = st.Hint.UnsetBorderStyle().UnsetPadding().Render(" " + l)
		}
		return out
	}(), bw, bh, true)
	x := max(0, (w-bw)/2)
	y := max(0, (len(body)-bh)/2)
	for i, l := range boxed {
		if y+i >= len(body) {
			break
		}
		row := fit(body[y+i], w)
		body[y+i] = fit(cells.Clip(row, x, ""), x) + l + fit(ansi.TruncateLeft(row, x+bw, ""), w-x-bw)
	}
	return body
}

// ---- the wire view ----

func (m *Model) renderWire(h int) []string {
	lw := m.listWidth()
	rw := m.rightWidth()
	sh := m.segHeight()
	list := m.listPane().Render(lw, h)
	segs := m.segPane().Render(rw, sh)
	body := m.contentPane().Render(rw, h-sh)
	right := append(segs, body...)
	return hjoin(list, right)
}

// ---- small helpers ----

// fillBar is a bar of n cells filled to frac.
func fillBar(frac float64, n int) string {
	f := int(frac*float64(n) + 0.5)
	f = max(0, min(n, f))
	return strings.Repeat("█", f) + strings.Repeat("░", n-f)
}
