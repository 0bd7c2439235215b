package ui

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/find"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/scan"
)

// ---- the geometry of the screen, shared by View and the mouse handlers ----

// bodyHeight is the height between the header and the status line (and
// the hint under the panes, while it shows).
func (m *Model) bodyHeight() int { return max(3, m.h-2-len(m.hintBox())) }

// listWidth is the request list's width: a label (the demo's LEGACY)
// always fits beside the cursor, the index and the marks.
func (m *Model) listWidth() int {
	w := max(16, min(34, m.w/5))
	switch {
	case m.w < 70:
		w = max(12, m.w/4)
	case m.w < 110:
		w = 20
	}
	return max(w, m.labelWidth()+len(strconv.Itoa(len(m.reqs)))+9)
}

// labelWidth is the widest label of the requests' sources.
func (m *Model) labelWidth() int {
	n := 0
	for _, l := range m.opts.Labels {
		n = max(n, cells.Width(scan.VisibleLine(l)))
	}
	return n
}

// label is the label of request i's source, "" when it has none.
func (m *Model) label(i int) string {
	if i < 0 || i >= len(m.reqs) {
		return ""
	}
	return m.opts.Labels[m.reqs[i].req.Source]
}

// segHeight is the height of the segment columns: two fifths of the body,
// leaving the content pane three rows at least.
func (m *Model) segHeight() int {
	bh := m.bodyHeight()
	if m.zoom && m.focus == focusSegs {
		return bh
	}
	return max(2, min(max(6, bh*2/5), bh-3))
}

func (m *Model) rightWidth() int { return max(10, m.w-m.listWidth()) }

func (m *Model) contentWidth() int {
	if m.zoomed(paneContent) {
		return max(4, m.w-2)
	}
	return max(4, m.rightWidth()-2)
}

func (m *Model) contentHeight() int {
	if m.zoomed(paneContent) {
		return max(1, m.bodyHeight()-2)
	}
	return max(1, m.bodyHeight()-m.segHeight()-2)
}

func (m *Model) listHeight() int { return max(1, m.bodyHeight()-2) }

// onKey handles a key press.
func (m *Model) onKey(k tea.KeyPressMsg) (cmd tea.Cmd) {
	if m.hint != "" {
		// The hint hides nothing: the key that closes it does its work.
		m.hint = ""
		defer func() { cmd = tea.Batch(cmd, m.relayout()) }()
	}
	if k.String() == "ctrl+c" {
		m.cancel()
		return tea.Quit
	}
	if m.pr.Active {
		return m.onPromptKey(k)
	}
	// A message lasts until the next key; the status line then says what
	// is selected again.
	m.status = ""
	if cmd, ok := m.onNavKey(k); ok {
		return cmd
	}
	km := m.keys
	switch {
	case matches(k, km.Quit):
		m.cancel()
		return tea.Quit
	case matches(k, km.Help):
		if m.view == viewHelp {
			m.view = m.prev
		} else {
			m.prev, m.view, m.helpTop = m.view, viewHelp, 0
		}
		return nil
	case matches(k, km.Back):
		if m.view == viewHelp {
			m.view = m.prev
			return nil
		}
		if m.view != viewWire {
			m.view = viewWire
			return m.selectionCmd()
		}
		if m.query != "" {
			return m.clearSearch()
		}
		if m.filter != "" {
			m.filter = ""
			m.status = "filter cleared"
			m.refilter()
			return m.selectionCmd()
		}
		return nil
	case matches(k, km.Search):
		m.openPrompt("search")
		return nil
	case matches(k, km.Filter):
		m.openPrompt("filter")
		return nil
	case matches(k, km.Next) && m.findsInView() && m.vf.view == m.view && m.vf.Query != "":
		return m.stepInView(1)
	case matches(k, km.Prev) && m.findsInView() && m.vf.view == m.view && m.vf.Query != "":
		return m.stepInView(-1)
	case matches(k, km.Next):
		return m.stepHit(1)
	case matches(k, km.Prev):
		return m.stepHit(-1)
	case matches(k, km.Wire):
		return m.openView(viewWire)
	case matches(k, km.Escapes):
		return m.openView(viewEscapes)
	case matches(k, km.Findings):
		return m.openView(viewFindings)
	case matches(k, km.Cache):
		return m.openView(viewCache)
	case matches(k, km.Diff):
		m.stepDiff = 0
		return m.openView(viewDiff)
	case matches(k, km.Raw):
		return m.openView(viewRaw)
	case matches(k, km.Mark):
		m.toggleMark()
		return nil
	case matches(k, km.Lanes) && m.view == viewCache:
		m.cacheTable = !m.cacheTable
		return nil
	case matches(k, km.Secrets):
		m.showSecrets = !m.showSecrets
		m.status = "secrets masked"
		if m.showSecrets {
			m.status = "secrets shown in the clear (S masks them)"
		}
		m.bodyKey = [2]int{-1, -1}
		return tea.Batch(m.loadBody()...)
	case matches(k, km.Layout):
		if m.opts.Toggle != nil {
			t := m.opts.Toggle
			m.status = "layout: switching..."
			return func() tea.Msg {
				l, err := t()
				return toggleMsg{layout: l, err: err}
			}
		}
		return nil
	case matches(k, km.Copy, km.CopyRaw, km.Open, km.Edit, km.Export):
		return m.onActionKey(k)
	case k.String() == "L": // watch's key: elsewhere it says so, not nothing
		m.status = "L toggles the layout in watch; these requests are as recorded (the demo has both: j/k, 5)"
		return nil
	}
	switch m.view {
	case viewWire:
		return m.onWireKey(k)
	case viewEscapes, viewFindings, viewCache:
		return m.onTableKey(k)
	case viewDiff:
		return m.onDiffKey(k)
	case viewRaw, viewResponse:
		return m.onScrollKey(&m.raw, k, m.bodyHeight()-2)
	case viewHelp:
		h := m.bodyHeight() - 2
		switch {
		case matches(k, km.Up):
			m.scrollHelp(-1)
		case matches(k, km.Down):
			m.scrollHelp(1)
		case matches(k, km.PageUp):
			m.scrollHelp(-widget.Page(max(1, h-1), matches(k, km.HalfPage)))
		case matches(k, km.PageDown):
			m.scrollHelp(widget.Page(max(1, h-1), matches(k, km.HalfPage)))
		case matches(k, km.Top):
			m.helpTop = 0
		case matches(k, km.Bottom):
			m.scrollHelp(1 << 20)
		}
		return nil
	}
	return nil
}

// selectionCmd batches the commands of a selection change.
func (m *Model) selectionCmd() tea.Cmd { return tea.Batch(m.selectionChanged()...) }

func (m *Model) onWireKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	switch {
	case matches(k, km.NextPane):
		return m.cyclePane(1)
	case matches(k, km.PrevPane):
		return m.cyclePane(-1)
	case matches(k, km.Enter):
		if m.focus < focusContent {
			m.focus++
		}
		return nil
	}
	switch m.focus {
	case focusList:
		return m.onListKey(k)
	case focusSegs:
		return m.onSegKey(k)
	default:
		return m.onScrollKey(&m.body, k, m.contentHeight())
	}
}

// The panes of the wire view in the order tab goes through them: the
// request list, the trusted prefix's column, the messages' column, the
// content.
const (
	paneList = iota
	panePrefix
	paneMessages
	paneContent
	panes
)

// pane is the pane of the wire view that has the focus.
func (m *Model) pane() int {
	switch m.focus {
	case focusList:
		return paneList
	case focusContent:
		return paneContent
	}
	if col, _ := m.segCol(); col == 1 {
		return paneMessages
	}
	return panePrefix
}

// cyclePane moves the focus to the next pane (dir 1) or the previous one
// (dir -1), every pane in turn; a segment column with no segment is passed
// over.
func (m *Model) cyclePane(dir int) tea.Cmd {
	cols := m.columns()
	from := m.pane()
	if from == panePrefix || from == paneMessages {
		m.colSeg[from-panePrefix] = m.seg
	}
	for p, n := (from+dir+panes)%panes, 0; n < panes; p, n = (p+dir+panes)%panes, n+1 {
		switch p {
		case paneList:
			m.focus = focusList
			return nil
		case paneContent:
			m.focus = focusContent
			return nil
		}
		col := p - panePrefix
		if len(cols[col]) == 0 {
			continue
		}
		m.focus = focusSegs
		if from == p {
			return nil
		}
		// The segment last selected in that column, else its first shown.
		to := m.colSeg[col]
		if !slices.Contains(cols[col], to) {
			to = cols[col][min(m.segs.top[col], len(cols[col])-1)]
		}
		return m.moveSeg(to)
	}
	return nil
}

func (m *Model) onScrollKey(c *content, k tea.KeyPressMsg, h int) tea.Cmd {
	km := m.keys
	switch {
	case matches(k, km.Up):
		c.Scroll(-1, h)
	case matches(k, km.Down):
		c.Scroll(1, h)
	case matches(k, km.PageUp):
		c.Scroll(-widget.Page(max(1, h-1), matches(k, km.HalfPage)), h)
	case matches(k, km.PageDown):
		c.Scroll(widget.Page(max(1, h-1), matches(k, km.HalfPage)), h)
	case matches(k, km.Top):
		c.ToTop()
	case matches(k, km.Bottom):
		c.ToBottom(h)
	case matches(k, km.Left):
		if m.view == viewWire {
			m.focus = focusSegs
		}
	}
	return nil
}

// openPrompt opens the search or filter line, empty: what was searched or
// filtered before is on ↑.
func (m *Model) openPrompt(kind string) { m.pr.Open(kind, "", m.history) }

// onPromptKey edits the search or filter line.
func (m *Model) onPromptKey(k tea.KeyPressMsg) tea.Cmd {
	if (m.pr.Kind == "write" || m.pr.Kind == "overwrite") && (k.String() == "enter" || k.String() == "esc") {
		return m.onWritePrompt(k.String() == "enter")
	}
	switch k.String() {
	case "esc":
		// esc clears: the filter (it applies as it is typed) or the search.
		m.pr.Active = false
		if m.pr.Kind == "filter" && m.filtersRows() {
			m.status = "filter cleared"
			m.setRowFilter("")
			return nil
		}
		if m.pr.Kind == "filter" {
			m.status = "filter cleared"
			m.filter = ""
			m.refilter()
			return m.selectionCmd()
		}
		if m.findsInView() {
			m.vf = viewFind{}
			m.status = "search cleared"
			return nil
		}
		return m.clearSearch()
	case "enter":
		m.pr.Active = false
		text := string(m.pr.Text)
		m.history.Add(m.pr.Kind, text)
		if m.pr.Kind == "filter" && m.filtersRows() {
			m.setRowFilter(text)
			return nil
		}
		if m.pr.Kind == "filter" {
			m.filter = text
			m.refilter()
			return m.selectionCmd()
		}
		if m.findsInView() {
			return m.findInView(text)
		}
		return m.startSearch(text)
	}
	if m.pr.Edit(k, m.history) {
		return m.promptChanged()
	}
	return nil
}

// clearSearch drops the search and its marks.
func (m *Model) clearSearch() tea.Cmd {
	if m.query != "" {
		m.status = "search cleared"
	}
	m.searchGen++ // a search still running is stale
	m.searching = false
	m.query, m.hits, m.hitAt = "", nil, -1
	return m.decorateBody(nil, m.body.Cut)
}

// promptChanged applies the filter as it is typed (it is cheap).
func (m *Model) promptChanged() tea.Cmd {
	if m.pr.Kind == "filter" && m.filtersRows() {
		m.setRowFilter(string(m.pr.Text))
		return nil
	}
	if m.pr.Kind == "filter" {
		m.filter = string(m.pr.Text)
		m.refilter()
		return m.selectionCmd()
	}
	return nil
}

// matchesFilter reports whether request i passes the filter (find.Request):
// is:break, is:finding, is:hazard, is:escape, is:marked select by marker,
// any other word is a substring of the request's index, model, source and
// format.
func (m *Model) matchesFilter(i int, filter string) bool {
	e, st := &m.reqs[i], m.step(i)
	return find.Request(filter, strings.Join([]string{"#" + strconv.Itoa(i+1), e.req.Model, e.req.Source, string(e.req.Format)}, " "),
		map[string]bool{"break": st != nil && st.Break != nil, "finding": m.perReq[i] > 0, "hazard": e.hazards > 0,
			"escape": e.escapes > 0, "marked": slices.Contains(m.marks, i)})
}

func (m *Model) toggleMark() {
	c := m.cur()
	if c < 0 {
		return
	}
	m.stepDiff = 0
	for k, i := range m.marks {
		if i == c {
			m.marks = append(m.marks[:k], m.marks[k+1:]...)
			m.status = "unmarked #" + strconv.Itoa(c+1)
			return
		}
	}
	m.marks = append(m.marks, c)
	if len(m.marks) > 2 {
		m.marks = m.marks[len(m.marks)-2:]
	}
	m.status = "marked #" + strconv.Itoa(c+1) + " for diff"
}

// openView switches to a view and starts what it needs. A table opens at
// the selected request: the Cache view on its row, the Findings view on its
// first finding (or the next request's).
func (m *Model) openView(v viewKind) tea.Cmd {
	if m.view != v {
		m.table = widget.Cursor{}
		m.view = v
		if c := m.cur(); c >= 0 {
			switch v {
			case viewCache:
				m.moveTable(c)
			case viewFindings:
				fs := m.shownFindings()
				m.moveTable(sort.Search(len(fs), func(i int) bool { return fs[i].req >= c }))
			}
		}
	}
	return tea.Batch(m.viewOpened()...)
}

// predecessor is the request that request c is compared with for the
// prompt cache (the last earlier request of its model, as its cache step
// names it), or the one just before it when it has no step.
func (m *Model) predecessor(c int) int {
	if st := m.step(c); st != nil {
		for i := c - 1; i >= 0; i-- {
			if r := &m.reqs[i].req; r.Source == st.PrevSource && r.Index == st.PrevIndex {
				return i
			}
		}
	}
	return c - 1
}

// selectRequest selects request r in the list, clearing a filter that hides
// it, and keeps the view.
func (m *Model) selectRequest(r int) []tea.Cmd {
	if r < 0 || r >= len(m.reqs) {
		return nil
	}
	if !slices.Contains(m.visible, r) {
		m.filter = ""
		m.refilter()
	}
	m.list.sel = max(0, slices.Index(m.visible, r))
	m.ensureListVisible()
	return m.selectionChanged()
}

// viewOpened starts the commands the current view needs.
func (m *Model) viewOpened() []tea.Cmd {
	switch m.view {
	case viewDiff:
		return m.startDiff()
	case viewRaw, viewResponse:
		return m.startRaw()
	}
	return nil
}

// onWheel scrolls the pane under the pointer.
func (m *Model) onWheel(ms tea.Mouse) tea.Cmd {
	if m.tooSmall() {
		return nil
	}
	n := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		n = -3
	case tea.MouseWheelDown:
		n = 3
	default:
		return nil
	}
	switch m.view {
	case viewWire:
		switch {
		// Zoomed (z), the wheel scrolls the one pane shown.
		case m.zoom && m.focus == focusList || !m.zoom && ms.X < m.listWidth():
			return m.moveSel(m.list.sel + n/3)
		case m.zoom && m.focus == focusSegs || !m.zoom && ms.Y < 1+m.segHeight():
			step := m.keys.Down
			if n < 0 {
				step = m.keys.Up
			}
			return m.onSegKey(tea.KeyPressMsg{Code: arrowCode(step)})
		default:
			m.body.Scroll(n, m.contentHeight())
		}
	case viewRaw, viewResponse:
		m.raw.Scroll(n, m.bodyHeight()-2)
	case viewDiff:
		m.diff.scroll(n, m.bodyHeight()-3)
	case viewEscapes, viewFindings, viewCache:
		m.moveTable(m.table.Sel + n/3)
	case viewHelp:
		m.scrollHelp(n)
	}
	return nil
}

// arrowCode is the key code of a binding's first arrow key (for the wheel).
func arrowCode(b interface{ Keys() []string }) rune {
	if len(b.Keys()) > 0 && b.Keys()[0] == "up" {
		return tea.KeyUp
	}
	return tea.KeyDown
}

// onClick selects what is under the pointer.
func (m *Model) onClick(ms tea.Mouse) (cmd tea.Cmd) {
	if ms.Button != tea.MouseLeft || m.tooSmall() {
		return nil
	}
	if m.hint != "" {
		m.hint = ""
		defer func() { cmd = tea.Batch(cmd, m.relayout()) }()
	}
	if ms.Y == 0 {
		for i, r := range m.tabRanges() {
			if ms.X >= r[0] && ms.X < r[1] {
				return m.openView(viewKind(i))
			}
		}
		return nil
	}
	y := ms.Y - 1 // in the body
	if m.zoom && m.view == viewWire {
		return nil // one pane, the focused one: nothing to choose
	}
	switch m.view {
	case viewWire:
		switch {
		case ms.X < m.listWidth():
			m.focus = focusList
			if y >= 1 && y <= m.listHeight() {
				return m.moveSel(m.list.top + y - 1)
			}
		case y < m.segHeight():
			m.focus = focusSegs
			col := 0
			if ms.X >= m.listWidth()+m.rightWidth()/2 {
				col = 1
			}
			row := (y - 1) / 2
			cols := m.columns()
			if y >= 1 && m.segs.top[col]+row < len(cols[col]) {
				return m.moveSeg(cols[col][m.segs.top[col]+row])
			}
		default:
			m.focus = focusContent
		}
	case viewEscapes, viewFindings, viewCache:
		if y >= 2 {
			m.moveTable(m.table.Top + y - 2)
		}
	}
	return nil
}
