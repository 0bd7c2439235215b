package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
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

// minWidth and minHeight are the smallest screen the viewer draws its
// panes in; a smaller one says so.
const minWidth, minHeight = 60, 16

// tooSmall reports whether the terminal is smaller than the viewer draws in.
func (m *Model) tooSmall() bool { return m.w < minWidth || m.h < minHeight }

// Render is the screen as a string of exactly h lines of w cells.
func (m *Model) Render() string {
	if m.tooSmall() {
		return m.renderTooSmall()
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
		body = withScroll(m.st, m.diffView().Render(m.w, bh), 0, m.w, true, m.diffScroll(bh-3))
	case viewRaw:
		body = withScroll(m.st, m.rawView().Render(m.w, bh), 0, m.w, true, contentScroll(&m.raw, bh-2))
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
func (m *Model) diffScroll(h int) scrollPos {
	a, b := m.diffPair()
	if a < 0 || b < 0 {
		return scrollPos{}
	}
	n := len(m.diff.lines)
	if m.diff.trust {
		n = len(trustRows(m.reqs, a, b))
	} else if !m.diff.ready {
		return scrollPos{}
	}
	return scrollPos{top: m.diff.top, shown: h, total: n}
}

// renderTooSmall is the screen of a terminal smaller than minWidth x
// minHeight: what is too small and what to do, centred, wrapped to the
// width (at least its first words when even that does not fit).
func (m *Model) renderTooSmall() string {
	w, h := max(1, m.w), max(1, m.h)
	msg := []string{
		"Terminal too small",
		fmt.Sprintf("%dx%d here; wirelens needs %dx%d at least.", m.w, m.h, minWidth, minHeight),
		"Make the window larger, or press q to quit.",
	}
	var rows []string
	for i, l := range msg {
		for _, wl := range strings.Split(ansi.Wordwrap(l, w, " "), "\n") {
			if i == 0 {
				wl = m.st.Accent.Render(wl)
			}
			rows = append(rows, wl)
		}
	}
	rows = rows[:min(len(rows), h)]
	lines := make([]string, h)
	y := (h - len(rows)) / 2
	for i := range lines {
		l := ""
		if i >= y && i-y < len(rows) {
			l = rows[i-y]
			l = strings.Repeat(" ", max(0, (w-cells.Width(l))/2)) + l
		}
		lines[i] = fit(l, w)
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
	// sel names the selected request by its label ("#1 LEGACY"), "" when
	// its source has none.
	sel string
}

// header is the header as the model stands.
func (m *Model) header() header {
	h := header{st: m.st, title: m.opts.Title, view: m.view, prev: m.prev, reqs: len(m.reqs), dropped: m.dropped, visible: len(m.visible),
		loading: m.loading, live: m.opts.Live, progress: m.progress, analysing: m.analysing, errs: len(m.errs), layout: m.layoutName}
	if c := m.cur(); c >= 0 && m.label(c) != "" {
		h.sel = "#" + strconv.Itoa(c+1) + " " + scan.VisibleLine(m.label(c))
	}
	return h
}

// shortViewNames are the tabs' names when the full ones do not fit.
var shortViewNames = []string{"Wire", "Esc", "Find", "Cache", "Diff", "Raw"}

// parts are the header's pieces at a width; the tabs' cell ranges follow
// from them (for mouse clicks). The selected request's label comes first
// (before the program's name when narrow); the tabs' names shorten, then
// go, to leave room for it and the count.
func (p header) parts(width int) (string, []string) {
	title := " " + Title
	switch {
	case p.sel != "" && width < 100:
		title = " " + p.sel
	case p.sel != "":
		title += " · " + p.sel
	}
	if p.title != "" && width >= 110 {
		title += " · " + cells.Clip(scan.VisibleLine(p.title), max(10, width/4), "…")
	}
	title += " "
	var tabs []string
	for _, names := range [][]string{viewNames, shortViewNames, nil} {
		tabs = tabs[:0]
		n := cells.Width(title) + 3
		for i := range viewNames {
			t := " " + strconv.Itoa(i+1) + " "
			if names != nil {
				t += names[i] + " "
			}
			tabs = append(tabs, t)
			n += cells.Width(t)
		}
		if n+len("2 requests") <= width {
			break
		}
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
	// filter and query are the active filter and search (hostile); hits
	// the search's matches and hitAt the one shown (-1 none).
	filter, query string
	hits, hitAt   int
	history       bool // the prompt has earlier entries
}

// statusBar is the status line as the model stands.
func (m *Model) statusBar() statusBar {
	p := statusBar{st: m.st, prompt: m.pr, text: m.status, searching: m.searching,
		filter: m.filter, query: m.query, hits: len(m.hits), hitAt: m.hitAt}
	if p.prompt.active {
		p.history = len(m.history[p.prompt.kind]) > 0
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
			if width < 100 {
				label = "filter: "
			}
		}
		line := st.StatusKey.Render(label) + st.Base.Render(scan.VisibleLine(string(p.prompt.text))) + st.Accent.Render("▏")
		keys := "enter ok · esc clears"
		if p.history {
			keys = "↑↓ history · " + keys
		}
		if gap := width - cells.Width(line) - cells.Width(keys); gap >= 2 {
			line += strings.Repeat(" ", gap) + st.Muted.Render(keys)
		}
		return line
	}
	// The active filter and search come first: they change what is shown.
	var chips string
	if p.filter != "" {
		chips += p.chip("filter", p.filter, "")
	}
	if p.query != "" {
		at := "no match"
		if p.hits > 0 {
			at = "match " + strconv.Itoa(max(0, p.hitAt)+1) + "/" + strconv.Itoa(p.hits)
		}
		chips += p.chip("/", p.query, at)
	}
	left := p.text
	if p.searching {
		left = "searching… " + left
	}
	left = chips + st.Status.Render(scan.VisibleLine(left))
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

// chip is an active filter or search in the status line: its label, its
// text (hostile, cut to 24 cells) and a count, bracketed in mono.
func (p statusBar) chip(label, text, count string) string {
	st := p.st
	text = cells.Clip(scan.VisibleLine(text), 24, "…")
	if label != "/" {
		label += " "
	}
	if count != "" {
		count = " · " + count
	}
	if st.Mono {
		return "[" + label + text + count + "] "
	}
	return st.StatusKey.Render(label) + st.Accent.Render(text) + st.Status.Render(count+" │ ")
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
	return scrollBox(st, title, lines, w, h, focused, scrollPos{})
}

// scrollPos is where the rows a box shows sit in all the rows it could
// show: rows top to top+shown of total (bytes of a text whose rows are not
// counted yet, with bytes set: the label is then a percentage).
type scrollPos struct {
	top, shown, total int
	bytes             bool
	// track is how many of the box's rows, from its top, the scroll bar
	// runs along (0: all; a table's rows, not its details).
	track int
}

// trackIn is the scroll bar's length in a box of n inner rows.
func (s scrollPos) trackIn(n int) int {
	if s.track > 0 {
		return min(n, s.track)
	}
	return n
}

// more reports whether there are rows the box does not show.
func (s scrollPos) more() bool { return s.shown > 0 && s.total > s.shown }

// thumb is the rows of the scroll bar's thumb in a track of n rows.
func (s scrollPos) thumb(n int) (int, int) {
	size := max(1, min(n, n*s.shown/max(1, s.total)))
	from := 0
	if over := s.total - s.shown; over > 0 {
		from = min(n-size, (s.top*(n-size)+over/2)/over)
	}
	return from, from + size
}

// label is the position in words for the bottom edge: "↑↓ 12-31/45".
func (s scrollPos) label() string {
	arrows := ""
	if s.top > 0 {
		arrows += "↑"
	}
	if s.top+s.shown < s.total {
		arrows += "↓"
	}
	if s.bytes {
		return fmt.Sprintf("%s %d%%", arrows, min(s.top+s.shown, s.total)*100/max(1, s.total))
	}
	return fmt.Sprintf("%s %d-%d/%d", arrows, s.top+1, min(s.top+s.shown, s.total), s.total)
}

// scrollBox is box with a scroll indicator when sc says rows are hidden: a
// thumb on the right edge (a shape, so it reads without colour) and the
// position in the bottom edge.
func scrollBox(st *themes.Styles, title string, lines []string, w, h int, focused bool, sc scrollPos) []string {
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
	t0, t1 := -1, -1
	if sc.more() {
		t0, t1 = sc.thumb(sc.trackIn(h - 2))
	}
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		r := right
		if i >= t0 && i < t1 {
			r = frame.Render("█")
		}
		out = append(out, left+fit(l, inner)+r)
	}
	bottom := strings.Repeat(edge.Bottom, inner)
	if sc.more() {
		if lb := " " + sc.label() + " "; cells.Width(lb)+2 <= inner {
			bottom = strings.Repeat(edge.Bottom, inner-cells.Width(lb)-1) + lb + edge.Bottom
		}
	}
	out = append(out, frame.Render(edge.BottomLeft+bottom+edge.BottomRight))
	return out
}

// withScroll puts the scroll indicator of sc on a box that another pane
// drew, w cells wide from cell x of each line (focused or not).
func withScroll(st *themes.Styles, lines []string, x, w int, focused bool, sc scrollPos) []string {
	h := len(lines)
	if !sc.more() || w < 4 || h < 3 {
		return lines
	}
	frame := st.Frame
	if focused {
		frame = st.FrameFocus
	}
	t0, t1 := sc.thumb(sc.trackIn(h - 2))
	for i := t0; i < t1; i++ {
		lines[1+i] = setCells(lines[1+i], x+w-1, frame.Render("█"))
	}
	inner := w - 2
	if lb := " " + sc.label() + " "; cells.Width(lb)+2 <= inner {
		lines[h-1] = setCells(lines[h-1], x+w-2-cells.Width(lb), frame.Render(lb))
	}
	return lines
}

// setCells draws s (one or more cells) over a styled line from cell x.
func setCells(line string, x int, s string) string {
	w := cells.Width(s)
	return fit(cells.Clip(line, x, ""), x) + s + ansi.TruncateLeft(line, x+w, "")
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

// hintBox is the first-screen hint (the tour) as a box under the panes,
// wrapped at words to the width: it hides nothing of them. It is never more
// than a third of the screen, and none while the hint is closed.
func (m *Model) hintBox() []string {
	if m.hint == "" || m.tooSmall() {
		return nil
	}
	st := m.st
	room := max(1, m.h/3-2)
	wrap := func(text string) []string {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			wrapped := ansi.Wordwrap(scan.VisibleLine(l), max(10, m.w-4), " ")
			for _, wl := range strings.Split(wrapped, "\n") {
				lines = append(lines, st.Hint.UnsetBorderStyle().UnsetPadding().Render(" "+wl))
			}
		}
		return lines
	}
	lines := wrap(m.hint)
	if len(lines) > room && m.hint == TourHint {
		lines = wrap(TourHintShort)
	}
	if len(lines) > room {
		lines = append(lines[:room-1:room-1], " …")
	}
	return box(st, st.Accent.Render("guide"), lines, m.w, len(lines)+2, true)
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
		segs = withScroll(m.st, segs, x, w, focusCol == col, scrollPos{top: sp.top[col], shown: segItemsIn(sh), total: len(cols[col])})
	}
	body := withScroll(m.st, m.contentPane().Render(rw, h-sh), 0, rw, m.focus == focusContent, contentScroll(&m.body, h-sh-2))
	right := append(segs, body...)
	return hjoin(list, right)
}

// contentScroll is where a content pane h rows high is in its text: by
// rows once they are counted, by bytes (shown as a percentage) before.
func contentScroll(c *render.Content, h int) scrollPos {
	if c.Rows != nil {
		return scrollPos{top: c.Top, shown: h, total: len(c.Rows)}
	}
	if len(c.Text) == 0 || c.Width <= 0 {
		return scrollPos{}
	}
	// Before the rows are counted: a screen is about h rows of Width bytes.
	return scrollPos{top: c.TopOff, shown: min(len(c.Text)-c.TopOff, max(1, h*c.Width)), total: len(c.Text), bytes: true}
}

// ---- small helpers ----

// fillBar is a bar of n cells filled to frac.
func fillBar(frac float64, n int) string {
	f := int(frac*float64(n) + 0.5)
	f = max(0, min(n, f))
	return strings.Repeat("█", f) + strings.Repeat("░", n-f)
}
