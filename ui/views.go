package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/wire"
)

// ---- tables: escapes, findings, cache ----

// escRow is one row of the Escapes view: an applied escape or a hazard left.
type escRow struct {
	seg     int
	off     int
	escape  *wire.Escape
	hazard  *wire.Hazard
	segID   string
	segText string
}

// escRows lists the selected request's escapes and hazards in cache order.
func (m *Model) escRows() []escRow {
	c := m.cur()
	if c < 0 {
		return nil
	}
	e := &m.reqs[c]
	var rows []escRow
	for _, si := range e.order {
		s := &e.req.Segments[si]
		for k := range s.Escapes {
			rows = append(rows, escRow{seg: si, off: s.Escapes[k].Offset, escape: &s.Escapes[k], segID: s.ID, segText: s.Text})
		}
		for k := range e.hazards {
			if e.hazards[k].seg == si {
				rows = append(rows, escRow{seg: si, off: e.hazards[k].h.Offset, hazard: &e.hazards[k].h, segID: s.ID, segText: s.Text})
			}
		}
	}
	pos := map[int]int{}
	for k, si := range e.order {
		pos[si] = k
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].seg != rows[j].seg {
			return pos[rows[i].seg] < pos[rows[j].seg]
		}
		return rows[i].off < rows[j].off
	})
	return rows
}

// sortedFindings are the findings, most severe first, then by request.
func (m *Model) sortedFindings() []Finding {
	out := append([]Finding(nil), m.findings...)
	rank := func(s string) int {
		switch s {
		case "high":
			return 0
		case "medium":
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Request != out[j].Request {
			return out[i].Request < out[j].Request
		}
		return rank(out[i].Severity) < rank(out[j].Severity)
	})
	return out
}

func (m *Model) tableLen() int {
	switch m.view {
	case viewEscapes:
		return len(m.escRows())
	case viewFindings:
		return len(m.findings)
	case viewCache:
		return len(m.reqs)
	}
	return 0
}

func (m *Model) moveTable(to int) {
	n := m.tableLen()
	m.tableSel = max(0, min(to, n-1))
	h := m.tableRows()
	if m.tableSel < m.tableTop {
		m.tableTop = m.tableSel
	}
	if m.tableSel >= m.tableTop+h {
		m.tableTop = m.tableSel - h + 1
	}
}

func (m *Model) onTableKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	h := m.tableRows()
	switch {
	case matches(k, km.Up):
		m.moveTable(m.tableSel - 1)
	case matches(k, km.Down):
		m.moveTable(m.tableSel + 1)
	case matches(k, km.PageUp):
		m.moveTable(m.tableSel - h)
	case matches(k, km.PageDown):
		m.moveTable(m.tableSel + h)
	case matches(k, km.Top):
		m.moveTable(0)
	case matches(k, km.Bottom):
		m.moveTable(m.tableLen() - 1)
	case matches(k, km.Enter):
		return m.tableEnter()
	}
	return nil
}

// jumpTo selects request r (clearing a filter that hides it), segment s, and
// shows byte offset off in the content pane.
func (m *Model) jumpTo(r, s, off int) tea.Cmd {
	if r < 0 || r >= len(m.reqs) {
		return nil
	}
	vis := -1
	for k, i := range m.visible {
		if i == r {
			vis = k
		}
	}
	if vis < 0 {
		m.filter = ""
		m.refilter()
		for k, i := range m.visible {
			if i == r {
				vis = k
			}
		}
	}
	m.sel = max(0, vis)
	m.ensureListVisible()
	m.seg = m.cachePos(r, s)
	m.view = viewWire
	m.focus = focusContent
	cmds := m.selectionChanged()
	m.body.reveal(off, m.contentHeight())
	return tea.Batch(cmds...)
}

// segIndex finds a segment by ID in request r (-1 when absent).
func (m *Model) segIndex(r int, id string) int {
	if r < 0 || r >= len(m.reqs) {
		return -1
	}
	for i, s := range m.reqs[r].req.Segments {
		if s.ID == id {
			return i
		}
	}
	return -1
}

func (m *Model) tableEnter() tea.Cmd {
	switch m.view {
	case viewEscapes:
		rows := m.escRows()
		if m.tableSel < len(rows) {
			r := rows[m.tableSel]
			return m.jumpTo(m.cur(), r.seg, r.off)
		}
	case viewFindings:
		fs := m.sortedFindings()
		if m.tableSel < len(fs) {
			f := fs[m.tableSel]
			s := m.segIndex(f.Request, f.Segment)
			if s < 0 {
				s = 0
			}
			return m.jumpTo(f.Request, s, f.Offset)
		}
	case viewCache:
		r := m.tableSel
		if r >= 1 && r < len(m.reqs) {
			m.marks = []int{r - 1, r}
			return m.openView(viewDiff)
		}
	}
	return nil
}

// ---- diff ----

type diffLine struct {
	left, right string // hostile text
	lk, rk      byte   // ' ' same, '-' removed, '+' added, 'h' header, '~' elided
}

type diffState struct {
	gen    int
	a, b   int
	ready  bool
	lines  []diffLine
	first  string
	off    int
	top    int
	firstL int
	// trust shows the two requests' segments side by side by channel with
	// their trust (the layout comparison) instead of the text diff.
	trust bool
}

type diffMsg struct {
	gen   int
	lines []diffLine
	first string
	off   int
	fl    int
}

// diffPair is the pair the Diff view compares: two marked requests, or the
// selected request and the one before it.
func (m *Model) diffPair() (int, int) {
	if len(m.marks) == 2 {
		a, b := m.marks[0], m.marks[1]
		if a > b {
			a, b = b, a
		}
		return a, b
	}
	c := m.cur()
	switch {
	case c < 0:
		return -1, -1
	case c == 0 && len(m.reqs) > 1:
		return 0, 1
	case c == 0:
		return -1, c
	}
	return c - 1, c
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
	m.diff.a, m.diff.b, m.diff.ready, m.diff.lines, m.diff.top = a, b, false, nil, 0
	gen := m.diff.gen
	ra, rb := m.reqs[a].req, m.reqs[b].req
	f := m.opts.Analysis.Diff
	return []tea.Cmd{func() tea.Msg {
		var d Diff
		if f != nil {
			d = f(&ra, &rb)
		} else {
			d = uiDiffFallback(&ra, &rb)
		}
		lines, fl := uiDiffLines(d)
		return diffMsg{gen: gen, lines: lines, first: d.FirstSegment, off: d.FirstOffset, fl: fl}
	}}
}

func (m *Model) onDiff(msg diffMsg) {
	if msg.gen != m.diff.gen {
		return
	}
	m.diff.ready = true
	m.diff.lines, m.diff.first, m.diff.off, m.diff.firstL = msg.lines, msg.first, msg.off, msg.fl
	m.diff.top = max(0, msg.fl)
}

func (d *diffState) scroll(n, h int) {
	d.top = max(0, min(d.top+n, len(d.lines)-h))
}

// scrollTrust scrolls the trust map.
func (m *Model) scrollTrust(n, h int) {
	a, b := m.diffPair()
	if a < 0 || b < 0 {
		return
	}
	m.diff.top = max(0, min(m.diff.top+n, len(m.trustMap(a, b))-h))
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
			m.scrollTrust(-h, h)
			return nil
		case matches(k, km.PageDown):
			m.scrollTrust(h, h)
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
		m.diff.scroll(-h, h)
	case matches(k, km.PageDown):
		m.diff.scroll(h, h)
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

// trustRow is one row of the trust map: a segment of one side, or a
// channel heading.
type trustRow struct {
	head string
	seg  *wire.Segment
	tok  int
}

// trustMap lays the two requests' segments out by channel, side by side.
func (m *Model) trustMap(a, b int) [][2]*trustRow {
	side := func(r int) map[wire.Channel][]*trustRow {
		out := map[wire.Channel][]*trustRow{}
		e := &m.reqs[r]
		for _, i := range e.order {
			s := &e.req.Segments[i]
			out[s.Channel] = append(out[s.Channel], &trustRow{seg: s, tok: e.segTok[i]})
		}
		return out
	}
	sa, sb := side(a), side(b)
	var rows [][2]*trustRow
	for _, ch := range []wire.Channel{wire.ChannelTools, wire.ChannelSystem, wire.ChannelMessages} {
		la, lb := sa[ch], sb[ch]
		if len(la) == 0 && len(lb) == 0 {
			continue
		}
		ta, tb := 0, 0
		for _, r := range la {
			ta += r.tok
		}
		for _, r := range lb {
			tb += r.tok
		}
		rows = append(rows, [2]*trustRow{{head: string(ch) + " · " + uiCount(len(la), "segment") + " · " + uiNum(ta) + " tok"},
			{head: string(ch) + " · " + uiCount(len(lb), "segment") + " · " + uiNum(tb) + " tok"}})
		for i := 0; i < max(len(la), len(lb)); i++ {
			var row [2]*trustRow
			if i < len(la) {
				row[0] = la[i]
			}
			if i < len(lb) {
				row[1] = lb[i]
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// uiDiffLines lays a diff out as side-by-side rows, segment by segment;
// unchanged text is elided to a few lines of context. It also returns the
// row of the first divergence.
func uiDiffLines(d Diff) ([]diffLine, int) {
	var out []diffLine
	first := -1
	const ctx = 3
	for _, s := range d.Segments {
		hdr := s.ID + " · " + s.Status
		if s.Status != "same" && first < 0 {
			first = len(out)
		}
		switch s.Status {
		case "same":
			n := 0
			for _, h := range s.Hunks {
				n += strings.Count(h.Text, "\n") + 1
			}
			out = append(out, diffLine{left: hdr + " (" + itoa(n) + " lines)", right: hdr + " (" + itoa(n) + " lines)", lk: 'h', rk: 'h'})
			continue
		}
		out = append(out, diffLine{left: hdr, right: hdr, lk: 'h', rk: 'h'})
		var dels, ins []string
		flush := func() {
			for i := 0; i < max(len(dels), len(ins)); i++ {
				var l diffLine
				if i < len(dels) {
					l.left, l.lk = dels[i], '-'
				}
				if i < len(ins) {
					l.right, l.rk = ins[i], '+'
				}
				out = append(out, l)
			}
			dels, ins = nil, nil
		}
		for hi, h := range s.Hunks {
			lines := strings.Split(strings.TrimSuffix(h.Text, "\n"), "\n")
			switch h.Op {
			case "delete":
				dels = append(dels, lines...)
			case "insert":
				ins = append(ins, lines...)
			default:
				flush()
				keepHead := hi > 0
				keepTail := hi < len(s.Hunks)-1
				if len(lines) <= 2*ctx+1 {
					for _, l := range lines {
						out = append(out, diffLine{left: l, right: l, lk: ' ', rk: ' '})
					}
					continue
				}
				if keepHead {
					for _, l := range lines[:ctx] {
						out = append(out, diffLine{left: l, right: l, lk: ' ', rk: ' '})
					}
				}
				skipped := len(lines)
				if keepHead {
					skipped -= ctx
				}
				if keepTail {
					skipped -= ctx
				}
				note := "⋯ " + itoa(skipped) + " equal lines"
				out = append(out, diffLine{left: note, right: note, lk: '~', rk: '~'})
				if keepTail {
					for _, l := range lines[len(lines)-ctx:] {
						out = append(out, diffLine{left: l, right: l, lk: ' ', rk: ' '})
					}
				}
			}
		}
		flush()
	}
	return out, max(0, first)
}

// ---- raw JSON ----

type rawMsg struct {
	gen  int
	req  int
	text string
	note string
}

// uiMaxRaw is the largest raw body read back from a file.
const uiMaxRaw = 32 << 20

func (m *Model) startRaw() []tea.Cmd {
	c := m.cur()
	if c < 0 || c == m.rawKey {
		return nil
	}
	m.rawKey = c
	m.rawGen++
	gen := m.rawGen
	r := m.reqs[c].req
	return []tea.Cmd{func() tea.Msg {
		text, note := uiRawText(&r)
		return rawMsg{gen: gen, req: c, text: text, note: note}
	}}
}

// uiRawText reads the request's body back from its file (pretty-printed when
// it is JSON), or, when the file cannot be read again (standard input, a
// built request), renders wirelens's model of the request as JSON.
func uiRawText(r *wire.Request) (string, string) {
	if r.Source != "" && r.Source != "-" && r.Offset >= 0 && r.Length > 0 && r.Length <= uiMaxRaw {
		if f, err := os.Open(r.Source); err == nil {
			defer f.Close()
			buf := make([]byte, r.Length)
			if _, err := f.ReadAt(buf, r.Offset); err == nil || err == io.EOF {
				// A body embedded as a JSON string (HAR postData.text) is
				// unquoted first.
				if t := bytes.TrimSpace(buf); len(t) > 0 && t[0] == '"' {
					var inner string
					if json.Unmarshal(t, &inner) == nil {
						buf = []byte(inner)
					}
				}
				var pretty bytes.Buffer
				if json.Indent(&pretty, buf, "", "  ") == nil {
					return uiRedact(pretty.String()), fmt.Sprintf("body from %s, bytes %d-%d", r.Source, r.Offset, r.Offset+r.Length)
				}
				return uiRedact(string(buf)), fmt.Sprintf("body from %s, bytes %d-%d (not JSON)", r.Source, r.Offset, r.Offset+r.Length)
			}
		}
	}
	type segJSON struct {
		ID       string        `json:"id"`
		Channel  string        `json:"channel"`
		Role     string        `json:"role"`
		Kind     string        `json:"kind"`
		Trust    string        `json:"trust"`
		Envelope string        `json:"envelope"`
		Label    string        `json:"label,omitempty"`
		Text     string        `json:"text"`
		Escapes  []wire.Escape `json:"escapes,omitempty"`
	}
	out := struct {
		Source   string      `json:"source"`
		Index    int         `json:"index"`
		Format   string      `json:"format"`
		Model    string      `json:"model"`
		Segments []segJSON   `json:"segments"`
		Usage    *wire.Usage `json:"usage,omitempty"`
	}{Source: r.Source, Index: r.Index, Format: string(r.Format), Model: r.Model, Usage: r.Usage}
	for _, s := range r.Segments {
		out.Segments = append(out.Segments, segJSON{s.ID, string(s.Channel), s.Role, string(s.Kind), string(s.Trust), s.Envelope, s.Label, s.Text, s.Escapes})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
	return b.String(), "the body is not on disk: wirelens's model of the request"
}

// uiSecretHeader matches a recorded credential header (HAR headers are
// {"name": ..., "value": ...} objects) so the Raw view never puts an API key
// on a shared screen.
var uiSecretHeader = regexp.MustCompile(`("name":\s*"(?i:authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie|set-cookie)",\s*"value":\s*)"(?:[^"\\]|\\.)*"`)

// uiRedact replaces the values of credential headers.
func uiRedact(s string) string {
	return uiSecretHeader.ReplaceAllString(s, `$1"[redacted by wirelens]"`)
}

func (m *Model) onRaw(msg rawMsg) tea.Cmd {
	if msg.gen != m.rawGen {
		return nil
	}
	jobs := m.raw.set(1, msg.note, msg.text, nil, m.w-2, "json")
	return tea.Batch(uiJobs(jobs)...)
}

// uiCount is "1 segment", "2 segments".
func uiCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}
