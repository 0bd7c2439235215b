package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/wire"
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

// uiMinWidth and uiMinHeight are the smallest screen the viewer draws.
const uiMinWidth, uiMinHeight = 30, 8

// Render is the screen as a string of exactly h lines of w cells.
func (m *Model) Render() string {
	if m.w < uiMinWidth || m.h < uiMinHeight {
		lines := make([]string, max(1, m.h))
		lines[0] = uiFit(fmt.Sprintf("wirelens needs %dx%d at least", uiMinWidth, uiMinHeight), max(1, m.w))
		for i := 1; i < len(lines); i++ {
			lines[i] = uiFit("", max(1, m.w))
		}
		return strings.Join(lines, "\n")
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, m.renderHeader())
	bh := m.bodyHeight()
	var body []string
	switch m.view {
	case viewWire:
		body = m.renderWire(bh)
	case viewEscapes:
		body = m.renderEscapes(bh)
	case viewFindings:
		body = m.renderFindings(bh)
	case viewCache:
		body = m.renderCache(bh)
	case viewDiff:
		body = m.renderDiff(bh)
	case viewRaw:
		body = m.renderRaw(bh)
	case viewHelp:
		body = m.renderHelp(bh)
	}
	if m.hint != "" {
		body = m.overlay(body, m.hint)
	}
	lines = append(lines, body...)
	lines = append(lines, m.renderStatus())
	for i := range lines {
		lines[i] = uiFit(lines[i], m.w)
	}
	if len(lines) > m.h {
		lines = lines[:m.h]
	}
	return strings.Join(lines, "\n")
}

// ---- header and status ----

// headerParts are the header's pieces; the tabs' cell ranges follow from
// them (for mouse clicks).
func (m *Model) headerParts() (string, []string) {
	title := " " + Title
	if m.opts.Title != "" && m.w >= 110 {
		title += " · " + ansi.Truncate(wire.VisibleLine(m.opts.Title), max(10, m.w/4), "…")
	}
	title += " "
	var tabs []string
	for i, n := range viewNames {
		tabs = append(tabs, " "+itoa(i+1)+" "+n+" ")
	}
	return title, tabs
}

func (m *Model) tabRanges() [][2]int {
	title, tabs := m.headerParts()
	x := ansi.StringWidth(title) + 1
	var out [][2]int
	for _, t := range tabs {
		w := ansi.StringWidth(t)
		out = append(out, [2]int{x, x + w})
		x += w
	}
	return out
}

func (m *Model) renderHeader() string {
	st := m.st
	title, tabs := m.headerParts()
	var b strings.Builder
	b.WriteString(st.Title.Render(title))
	b.WriteString(st.Subtle.Render("│"))
	for i, t := range tabs {
		if viewKind(i) == m.view || (m.view == viewHelp && viewKind(i) == m.prev) {
			if st.Mono {
				t = "[" + strings.TrimSpace(t) + "]"
				t = uiFit(t, ansi.StringWidth(tabs[i]))
			}
			b.WriteString(st.TabActive.Render(t))
		} else {
			b.WriteString(st.Tab.Render(t))
		}
	}
	b.WriteString(st.Subtle.Render("│ "))
	info := itoa(len(m.reqs)) + " requests"
	if len(m.visible) != len(m.reqs) {
		info = itoa(len(m.visible)) + "/" + info
	}
	if m.loading && m.opts.Live {
		info += " · watching"
	} else if m.loading {
		if m.progress > 0 {
			info += fmt.Sprintf(" · loading %d%% %s", int(m.progress*100), uiBar(m.progress, 8))
		} else {
			info += " · loading…"
		}
	}
	if m.analysing {
		info += " · analysing…"
	}
	if len(m.errs) > 0 {
		info += " · " + itoa(len(m.errs)) + " input errors"
	}
	if m.layoutName != "" {
		info += " · layout " + wire.VisibleLine(m.layoutName)
	}
	b.WriteString(st.Muted.Render(info))
	return b.String()
}

func (m *Model) renderStatus() string {
	st := m.st
	if m.pr.active {
		label := "/"
		if m.pr.kind == "filter" {
			label = "filter (words; is:break is:finding is:hazard is:escape is:marked): "
		}
		return st.StatusKey.Render(label) + st.Base.Render(wire.VisibleLine(string(m.pr.text))) + st.Accent.Render("▏")
	}
	left := m.status
	if left == "" {
		left = m.describeSelection()
	}
	if m.searching {
		left = "searching… " + left
	}
	left = st.Status.Render(wire.VisibleLine(left))
	right := m.help.ShortHelpView(m.keys.ShortHelp())
	room := m.w - lipgloss.Width(left) - 2
	if room < 10 {
		return left
	}
	if lipgloss.Width(right) > room {
		right = ansi.Truncate(right, room, "…")
	}
	gap := m.w - lipgloss.Width(left) - lipgloss.Width(right)
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
	s := "#" + itoa(c+1) + " " + e.req.Name()
	if si := m.curSeg(); si >= 0 {
		seg := &e.req.Segments[si]
		s += " · " + seg.ID + " · " + strings.ToUpper(string(seg.Trust)) + " · " + uiBytes(len(seg.Text)) + " · " + uiNum(e.segTok[si]) + " tok"
	}
	return s
}

// ---- boxes ----

// box frames lines in a w×h box with a title in the top edge.
func (m *Model) box(title string, lines []string, w, h int, focused bool) []string {
	st := m.st
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
		t = " " + ansi.Truncate(title, max(0, inner-3), "…") + " "
	}
	fill := max(0, inner-1-lipgloss.Width(t))
	out := make([]string, 0, h)
	out = append(out, frame.Render(edge.TopLeft+edge.Top)+t+frame.Render(strings.Repeat(edge.Top, fill)+edge.TopRight))
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, frame.Render(edge.Left)+uiFit(l, inner)+frame.Render(edge.Right))
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

// overlay centres a hint box over the body.
func (m *Model) overlay(body []string, text string) []string {
	st := m.st
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		wrapped := ansi.Wordwrap(wire.VisibleLine(l), max(10, m.w-6), " ")
		lines = append(lines, strings.Split(wrapped, "\n")...)
	}
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw+4, m.w-2)
	bh := min(len(lines)+2, len(body))
	boxed := m.box(st.Accent.Render("guide"), func() []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = st.Hint.UnsetBorderStyle().UnsetPadding().Render(" " + l)
		}
		return out
	}(), bw, bh, true)
	x := max(0, (m.w-bw)/2)
	y := max(0, (len(body)-bh)/2)
	for i, l := range boxed {
		if y+i >= len(body) {
			break
		}
		row := uiFit(body[y+i], m.w)
		body[y+i] = ansi.Cut(row, 0, x) + l + ansi.Cut(row, x+bw, m.w)
	}
	return body
}

// ---- the wire view ----

func (m *Model) renderWire(h int) []string {
	lw := m.listWidth()
	rw := m.rightWidth()
	sh := m.segHeight()
	list := m.renderList(lw, h)
	lcol := rw / 2
	segs := hjoin(m.renderSegColumn(0, lcol, sh), m.renderSegColumn(1, rw-lcol, sh))
	body := m.renderBody(rw, h-sh)
	right := append(segs, body...)
	return hjoin(list, right)
}

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
	return m.box(st.Header.Render(title), lines, w, h, m.focus == focusList)
}

// badge is a segment's trust as a coloured label that also reads without
// colour.
func (m *Model) badge(t wire.Trust) string {
	st := m.st
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
			l1 := cur + m.badge(s.Trust) + " " + st.Header.Render(wire.VisibleLine(name))
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
	return m.box(st.Header.Render(title), lines, w, h, m.focus == focusSegs && m.segColOf() == col)
}

// segColOf is the column of the cursor.
func (m *Model) segColOf() int { c, _ := m.segCol(); return c }

func (m *Model) renderBody(w, h int) []string {
	st := m.st
	c, si := m.cur(), m.curSeg()
	title := "content"
	var lines []string
	if si >= 0 {
		e := &m.reqs[c]
		s := &e.req.Segments[si]
		title = wire.VisibleLine(s.ID) + " · " + string(s.Kind) + " · " + strings.ToUpper(string(s.Trust)) + " · " + string(s.Channel)
		if s.Envelope != "" {
			title += " <" + wire.VisibleLine(s.Envelope) + ">"
		}
		title += " · " + uiBytes(len(s.Text)) + " · " + uiNum(e.segTok[si]) + " tok"
		if !m.body.litCovers(h - 2) {
			title += " · highlighting…"
		}
		title += " · " + itoa(m.body.progress(h-2)) + "%"
		lines = m.body.render(st, w-2, h-2)
		if s.Text == "" && len(lines) > 0 {
			lines[0] = st.Muted.Render("(empty)")
		}
	} else if m.loading {
		lines = []string{st.Muted.Render("loading… the first request shows as soon as it is read")}
	}
	return m.box(st.Header.Render(title), lines, w, h, m.focus == focusContent)
}

// ---- other views ----

// uiDetailLines is the height of the detail area under a table.
const uiDetailLines = 3

// tableRows is how many rows a table shows in the body.
func (m *Model) tableRows() int { return max(1, m.bodyHeight()-4-uiDetailLines) }

// tableBox draws a table with a cursor and, under it, the selected row's
// details (already sanitised and styled).
func (m *Model) tableBox(title, head string, rows []string, h int, empty string, detail []string) []string {
	st := m.st
	lines := []string{st.Header.Render(head)}
	n := m.tableRows()
	for i := m.tableTop; i < len(rows) && i < m.tableTop+n; i++ {
		r := rows[i]
		if i == m.tableSel {
			r = st.Cursor.Render(ansi.Strip(uiFit("▸ "+r, m.w-2)))
		} else {
			r = "  " + r
		}
		lines = append(lines, r)
	}
	if len(rows) == 0 {
		lines = append(lines, st.Muted.Render("  "+empty))
	}
	for len(lines) < n+1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Subtle.Render(strings.Repeat("─", max(0, m.w-2))))
	for i := 0; i < uiDetailLines; i++ {
		l := ""
		if i < len(detail) {
			l = " " + detail[i]
		}
		lines = append(lines, l)
	}
	return m.box(st.Header.Render(title), lines, m.w, h, true)
}

// uiContext is up to n bytes of text on either side of [off, end), on one
// line, sanitised.
func uiContext(text string, off, end, n int) string {
	off = max(0, min(off, len(text)))
	end = max(off, min(end, len(text)))
	lo, hi := max(0, off-n), min(len(text), end+n)
	lo = uiRuneBoundary(text, lo)
	hi = uiRuneBoundary(text, hi)
	return wire.VisibleLine(text[lo:hi])
}

func (m *Model) renderEscapes(h int) []string {
	st := m.st
	c := m.cur()
	rows := m.escRows()
	sw := max(14, min(34, m.w/4))
	var out []string
	for _, r := range rows {
		if r.escape != nil {
			e := r.escape
			orig := e.Original
			if orig == "" {
				orig = "?"
			}
			out = append(out, st.Escape.Render(uiPad("escape", 8))+uiPad(wire.VisibleLine(e.Rule), 14)+
				uiPad(wire.VisibleLine(r.segID), sw)+uiPad("@"+itoa(e.Offset), 9)+
				wire.VisibleLine(orig)+" → "+st.Escape.Render(wire.VisibleLine(e.Text)))
			continue
		}
		hz := r.hazard
		shown := ""
		if hz.Offset+hz.Len <= len(r.segText) {
			shown = wire.VisibleLine(r.segText[hz.Offset : hz.Offset+hz.Len])
		}
		out = append(out, st.Hazard.Render(uiPad("hazard", 8))+uiPad(string(hz.Class), 14)+
			uiPad(wire.VisibleLine(r.segID), sw)+uiPad("@"+itoa(hz.Offset), 9)+
			st.Hazard.Render(ansi.Truncate(shown, 60, "…")))
	}
	title := "Escapes & hazards"
	if c >= 0 {
		title += " · request #" + itoa(c+1) + " · " + itoa(len(rows))
	}
	head := uiPad("what", 8) + uiPad("rule/class", 14) + uiPad("segment", sw) + uiPad("offset", 9) + "was → now / shown as"
	var detail []string
	if m.tableSel < len(rows) {
		r := rows[m.tableSel]
		if r.escape != nil {
			e := r.escape
			detail = append(detail, st.Muted.Render("escape ")+st.Escape.Render(wire.VisibleLine(e.Rule))+st.Muted.Render(" at byte "+itoa(e.Offset)+" of "+wire.VisibleLine(r.segID)+": ")+
				wire.VisibleLine(e.Original)+st.Muted.Render(" was replaced by ")+st.Escape.Render(wire.VisibleLine(e.Text)))
			detail = append(detail, st.Muted.Render("context: ")+uiContext(r.segText, e.Offset, e.Offset+len(e.Text), 40))
		} else {
			hz := r.hazard
			detail = append(detail, st.Muted.Render("hazard ")+st.Hazard.Render(string(hz.Class))+st.Muted.Render(" left in the text at byte "+itoa(hz.Offset)+" of "+wire.VisibleLine(r.segID)+" ("+itoa(hz.Len)+" bytes)"))
			detail = append(detail, st.Muted.Render("context: ")+uiContext(r.segText, hz.Offset, hz.Offset+hz.Len, 40))
		}
		detail = append(detail, st.Muted.Render("enter: show it in the content"))
	}
	return m.tableBox(title, "  "+head, out, h, "no escapes applied and no hazards in this request", detail)
}

func (m *Model) renderFindings(h int) []string {
	st := m.st
	var out []string
	sw := max(14, min(32, m.w/4))
	rw := max(12, min(22, m.w/6))
	for _, f := range m.sortedFindings() {
		sev := st.Low
		switch f.Severity {
		case "high":
			sev = st.High
		case "medium":
			sev = st.Medium
		}
		out = append(out, sev.Render(uiPad(strings.ToUpper(f.Severity), 8))+uiPad(wire.VisibleLine(f.Rule), rw)+
			uiPad("#"+itoa(f.Request+1), 6)+uiPad(wire.VisibleLine(f.Segment), sw)+uiPad("@"+itoa(f.Offset), 8)+
			wire.VisibleLine(f.Message))
	}
	empty := "no findings"
	switch {
	case m.opts.Analysis.Findings == nil:
		empty = "findings come from the audit of `wirelens check`, which this build does not provide"
	case m.analysing || !m.anaDone:
		empty = "analysing…"
	}
	head := uiPad("sev", 8) + uiPad("rule", rw) + uiPad("req", 6) + uiPad("segment", sw) + uiPad("offset", 8) + "message"
	var detail []string
	if fs := m.sortedFindings(); m.tableSel < len(fs) {
		f := fs[m.tableSel]
		for _, l := range strings.Split(ansi.Wordwrap(wire.VisibleLine(f.Message), max(20, m.w-4), " "), "\n") {
			if len(detail) < 2 {
				detail = append(detail, l)
			}
		}
		if f.Excerpt != "" {
			detail = append(detail, st.Muted.Render("excerpt: ")+wire.VisibleLine(f.Excerpt))
		}
	}
	return m.tableBox("Findings · "+itoa(len(m.findings)), "  "+head, out, h, empty, detail)
}

func (m *Model) renderCache(h int) []string {
	st := m.st
	var out []string
	sumP, sumT := 0, 0
	wide := m.w >= 120
	bw := 10
	if wide {
		bw = 20
	}
	for i := range m.reqs {
		e := &m.reqs[i]
		if i == 0 {
			out = append(out, uiPad("#1", 6)+st.Muted.Render("(first request: nothing to reuse) ")+uiNum(e.tokens)+" tok")
			continue
		}
		row, ok := m.cacheRows[i]
		if !ok {
			what := "analysing…"
			if m.anaDone {
				what = "(first request of " + wire.VisibleLine(e.req.Source) + ": nothing to reuse)"
			}
			out = append(out, uiPad("#"+itoa(i+1), 6)+st.Muted.Render(what+" ")+uiNum(e.tokens)+" tok")
			continue
		}
		sumP += row.PrefixTokens
		sumT += row.TotalTokens
		frac := 0.0
		if row.TotalTokens > 0 {
			frac = float64(row.PrefixTokens) / float64(row.TotalTokens)
		}
		fill := max(0, min(bw, int(frac*float64(bw)+0.5)))
		bar := st.TextTrusted.Render(strings.Repeat("█", fill)) + st.Removed.Render(strings.Repeat("░", bw-fill))
		line := uiPad("#"+itoa(i+1), 6) + bar + " " + uiPad(fmt.Sprintf("%3d%% %s/%s tok", int(frac*100+0.5), uiNum(row.PrefixTokens), uiNum(row.TotalTokens)), 21)
		if wide {
			if row.Recorded >= 0 {
				line += uiPad("rec "+uiNum(row.Recorded), 11)
			} else {
				line += uiPad("", 11)
			}
		}
		if b := row.Break; b != nil {
			cause := "✂ " + wire.VisibleLine(b.Segment) + " (" + string(b.Kind) + ") @" + itoa(b.Offset)
			if b.Volatile != "" {
				cause += " · " + wire.VisibleLine(b.Volatile)
			}
			line += st.Break.Render(cause)
		} else {
			line += st.Added.Render("prefix intact")
		}
		out = append(out, line)
	}
	title := "Prompt cache · prefix reused vs re-processed per request"
	if sumT > 0 {
		title += fmt.Sprintf(" · reuse %d%%", sumP*100/sumT)
	}
	if m.opts.Analysis.Cache == nil {
		title += " · segment-level estimate"
	}
	head := uiPad("req", 6) + uiPad("reused░new", bw+1) + uiPad("prefix/total", 21)
	if wide {
		head += uiPad("recorded", 11)
	}
	head += "break (enter: diff)"
	var detail []string
	if row, ok := m.cacheRows[m.tableSel]; ok {
		if b := row.Break; b != nil {
			detail = append(detail,
				st.Muted.Render("before: ")+wire.VisibleLine(b.Before),
				st.Muted.Render("after:  ")+wire.VisibleLine(b.After))
		} else {
			detail = append(detail, st.Added.Render("the request starts with the whole previous request"))
		}
		rec := "nothing recorded"
		if row.Recorded >= 0 {
			rec = "recorded " + uiNum(row.Recorded)
		}
		detail = append(detail, st.Muted.Render("cached tokens: predicted "+uiNum(row.Predicted)+", "+rec+" · enter: diff with the request before"))
	}
	return m.tableBox(title, "  "+head, out, h, "no requests", detail)
}

func (m *Model) renderDiff(h int) []string {
	st := m.st
	a, b := m.diffPair()
	if a < 0 || b < 0 {
		return m.box(st.Header.Render("Diff"), []string{st.Muted.Render("select a request after the first, or mark two requests with m")}, m.w, h, true)
	}
	title := fmt.Sprintf("Diff #%d → #%d", a+1, b+1)
	if m.diff.trust {
		return m.renderTrustMap(a, b, h, title+" · trust map (t: text diff)")
	}
	if !m.diff.ready {
		return m.box(st.Header.Render(title), []string{st.Muted.Render("diffing…")}, m.w, h, true)
	}
	if m.diff.first == "" {
		title += " · identical"
	} else {
		title += " · first divergence: " + wire.VisibleLine(m.diff.first) + " @" + itoa(m.diff.off)
	}
	if m.opts.Analysis.Diff == nil {
		title += " · segment-level"
	}
	title += " (t: trust map)"
	inner := m.w - 2
	lw := (inner - 1) / 2
	rw := inner - 1 - lw
	lines := []string{st.Header.Render(uiPad(" #"+itoa(a+1)+" "+wire.VisibleLine(m.reqs[a].req.Name()), lw)) + st.Subtle.Render("│") +
		st.Header.Render(" #"+itoa(b+1)+" "+wire.VisibleLine(m.reqs[b].req.Name()))}
	side := func(text string, k byte, w int) string {
		t := wire.VisibleLine(text)
		switch k {
		case '-':
			return st.Removed.Render(uiFit("- "+t, w))
		case '+':
			return st.Added.Render(uiFit("+ "+t, w))
		case 'h':
			return st.Accent.Render(uiFit("── "+t, w))
		case '~':
			return st.Muted.Render(uiFit("  "+t, w))
		case 0:
			return uiFit("", w)
		}
		return st.Base.Render(uiFit("  "+t, w))
	}
	for i := m.diff.top; i < len(m.diff.lines) && len(lines) < h-2; i++ {
		l := m.diff.lines[i]
		lines = append(lines, side(l.left, l.lk, lw)+st.Subtle.Render("│")+side(l.right, l.rk, rw))
	}
	return m.box(st.Header.Render(title), lines, m.w, h, true)
}

// renderTrustMap shows two requests side by side by channel: every
// segment's trust badge, kind or envelope and size, so the layouts compare
// at a glance.
func (m *Model) renderTrustMap(a, b, h int, title string) []string {
	st := m.st
	inner := m.w - 2
	lw := (inner - 1) / 2
	rw := inner - 1 - lw
	cell := func(r *trustRow, w int) string {
		switch {
		case r == nil:
			return uiFit("", w)
		case r.head != "":
			return st.Accent.Render(uiFit("── "+r.head+" ", w))
		}
		s := r.seg
		name := s.Envelope
		if name == "" {
			name = string(s.Kind)
		}
		l := " " + m.badge(s.Trust) + " " + wire.VisibleLine(name)
		if s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem {
			l += " " + st.High.Render("⚠ in system")
		}
		l += st.Muted.Render(" · " + uiBytes(len(s.Text)) + " · " + uiNum(r.tok) + " tok")
		if s.Label != "" {
			l += st.Muted.Render(" · " + wire.VisibleLine(s.Label))
		}
		return uiFit(l, w)
	}
	lines := []string{st.Header.Render(uiPad(" #"+itoa(a+1)+" "+wire.VisibleLine(m.reqs[a].req.Name()), lw)) + st.Subtle.Render("│") +
		st.Header.Render(" #"+itoa(b+1)+" "+wire.VisibleLine(m.reqs[b].req.Name()))}
	rows := m.trustMap(a, b)
	for i := m.diff.top; i < len(rows) && len(lines) < h-2; i++ {
		lines = append(lines, cell(rows[i][0], lw)+st.Subtle.Render("│")+cell(rows[i][1], rw))
	}
	return m.box(st.Header.Render(title), lines, m.w, h, true)
}

func (m *Model) renderRaw(h int) []string {
	st := m.st
	c := m.cur()
	if c < 0 {
		return m.box(st.Header.Render("Raw JSON"), nil, m.w, h, true)
	}
	title := "Raw JSON · #" + itoa(c+1)
	if m.rawKey != c || m.raw.text == "" && m.raw.key == "" {
		return m.box(st.Header.Render(title), []string{st.Muted.Render("reading…")}, m.w, h, true)
	}
	title += " · " + wire.VisibleLine(m.raw.key) + " · " + itoa(m.raw.progress(h-2)) + "%"
	return m.box(st.Header.Render(title), m.raw.render(st, m.w-2, h-2), m.w, h, true)
}

func (m *Model) renderHelp(h int) []string {
	st := m.st
	var lines []string
	for _, l := range strings.Split(m.help.FullHelpView(m.keys.FullHelp()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "",
		st.Muted.Render(" Badges: TRUSTED (host rules), UNTRUSTED (workspace, tool output), USER, MODEL."),
		st.Muted.Render(" Marks: ✂ cache prefix breaks · ⚑ findings · ! hazards · ⎋ escapes · ◆bp cache breakpoint · ● marked."),
		st.Muted.Render(" Hazards show as ␛[2J or [U+202E], never raw. Filter words: is:break is:finding is:hazard is:escape is:marked."),
		st.Muted.Render(" Mouse: click a tab, a request or a segment; the wheel scrolls what is under it."))
	return m.box(st.Header.Render("Help · ? or esc to close"), lines, m.w, h, true)
}

// ---- small helpers ----

// uiPad pads s to w cells; a longer s is cut to leave one space, so table
// columns never run into each other.
func uiPad(s string, w int) string {
	if w > 1 && lipgloss.Width(s) >= w {
		return uiFit(s, w-1) + " "
	}
	return uiFit(s, w)
}

// uiBar is a bar of n cells filled to frac.
func uiBar(frac float64, n int) string {
	f := int(frac*float64(n) + 0.5)
	f = max(0, min(n, f))
	return strings.Repeat("█", f) + strings.Repeat("░", n-f)
}

// uiNum shortens a count: 950, 12.3k, 4.1M.
func uiNum(n int) string {
	switch {
	case n < 1000:
		return itoa(n)
	case n < 100000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return itoa(n/1000) + "k"
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
}

// uiBytes is a size in B, KB or MB.
func uiBytes(n int) string {
	switch {
	case n < 1024:
		return itoa(n) + " B"
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
