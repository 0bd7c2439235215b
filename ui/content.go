package ui

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// span is a highlighted byte range of a text.
type span struct {
	start, end int
	tt         chroma.TokenType
}

// mark is a byte range to show specially (a search match).
type mark struct{ start, end int }

// content is a scrollable, wrapped, highlighted view of one hostile text.
// Its heavy parts (hazard scan, wrap index, highlighting) arrive from
// commands; until then it shows a plain view computed for the visible rows
// only.
type content struct {
	key     string // what is shown (request and segment), for the status line
	text    string
	escapes []wire.Escape
	lang    string

	gen     int // bumped whenever text or width changes
	textGen int // bumped whenever the text changes (highlighting)
	width   int
	hazards []scan.Hazard
	scanned bool
	rows    []int // start offsets of the wrapped rows, when indexed
	spans   []span
	lit     bool // spans cover [litLo, litHi)
	litLo   int
	litHi   int
	pendLo  int // the window asked for and not yet arrived (pendHi 0: none)
	pendHi  int

	top    int // first row shown, when indexed
	topOff int // byte offset of the first row shown

	marks  []mark
	target int // byte offset to keep in view, -1 none
	cut    int // where the cache prefix ends inside this text, -1 none
	// bracket is the cells the theme's brackets take around each marked
	// piece (mono), counted when wrapping. The theme is mono from the start
	// or never, so it does not change under a wrap index.
	bracket int
}

// cutMark is drawn where the cache prefix ends inside a text; notePrefix
// starts the notes of the escapes a row holds, after its text.
const (
	cutMark    = "✂"
	notePrefix = "  ◂ "
)

// The layers of marks over a text, the first over the others: search
// matches, hazards, applied escapes.
const (
	layerMatch = iota
	layerHazard
	layerEscape
)

type (
	matchRanges  []mark
	hazardRanges []scan.Hazard
	escapeRanges []wire.Escape
)

func (r matchRanges) Len() int                { return len(r) }
func (r matchRanges) Range(i int) (int, int)  { return r[i].start, r[i].end }
func (r hazardRanges) Len() int               { return len(r) }
func (r hazardRanges) Range(i int) (int, int) { return r[i].Offset, r[i].Offset + r[i].Len }
func (r escapeRanges) Len() int               { return len(r) }
func (r escapeRanges) Range(i int) (int, int) { return r[i].Offset, r[i].Offset + len(r[i].Text) }

// layers is how the rows of the text are drawn besides its characters:
// marks (bracketed in a no-colour theme) and the cache cut. The renderer
// draws from it and the wrap index counts it, so no row holds more than its
// width and no character is cut off. It shares the content's slices, which
// are replaced, never changed: the prep command wraps with it.
func (c *content) layers() *cells.Layers {
	return &cells.Layers{Text: c.text, Layers: []cells.Ranges{matchRanges(c.marks), hazardRanges(c.hazards), escapeRanges(c.escapes)},
		Bracket: c.bracket, Cut: c.cut, CutCells: cells.Width(cutMark)}
}

// wrap wraps the text from byte offset from as it is drawn (cells.Wrap).
func (c *content) wrap(from, limit int, stop ...int) []int {
	return cells.Wrap(c.text, c.hazards, c.layers().Pieces(from), c.width, from, limit, stop...)
}

// contentPrepMsg carries the hazard scan and the wrap index of a text.
type contentPrepMsg struct {
	pane    int // which content pane
	gen     int
	width   int
	hazards []scan.Hazard
	rows    []int
}

// contentLitMsg carries the highlighting of text[lo:hi].
type contentLitMsg struct {
	pane   int
	gen    int
	lo, hi int
	spans  []span
}

// Highlighting is done for what is needed: a text up to litWhole bytes at
// once, a longer one a window of about litWindow bytes around the view,
// asked for again when the view leaves it.
const (
	litWhole  = 256 << 10
	litWindow = 192 << 10
	litMargin = 32 << 10
)

// set shows a new text; it returns the commands that prepare it. When the
// text's hazards are known already (scanned), hz are they and the prep
// command does not scan it again.
func (c *content) set(pane int, key, text string, escapes []wire.Escape, hz []scan.Hazard, scanned bool, width int, lang string) []any {
	c.gen++
	c.textGen++
	c.key, c.text, c.escapes = key, text, escapes
	c.lang = lang
	if lang == "" {
		c.lang = guessLang(text)
	}
	c.hazards, c.scanned, c.rows, c.spans, c.lit = hz, scanned, nil, nil, false
	c.litLo, c.litHi, c.pendLo, c.pendHi = 0, 0, 0, 0
	c.top, c.topOff, c.target, c.marks = 0, 0, -1, nil
	c.cut = -1
	c.width = width
	return []any{c.prepJob(pane), c.litJob(pane, 20)}
}

// prepJob is the work of a prep command, as a closure over immutable data.
func (c *content) prepJob(pane int) func() contentPrepMsg {
	snap := content{text: c.text, hazards: c.hazards, escapes: c.escapes, marks: c.marks, cut: c.cut, bracket: c.bracket, width: c.width}
	gen, scanned := c.gen, c.scanned
	return func() contentPrepMsg {
		if !scanned {
			snap.hazards = scan.Hazards(snap.text)
		}
		return contentPrepMsg{pane: pane, gen: gen, width: snap.width, hazards: snap.hazards, rows: snap.wrap(0, -1)}
	}
}

// litNeed is the byte range the view needs highlighted for h rows.
func (c *content) litNeed(h int) (int, int) {
	lo := c.topOff
	if c.rows != nil && c.top < len(c.rows) {
		lo = c.rows[c.top]
	}
	hi := min(len(c.text), lo+(h+1)*max(1, c.width)*4)
	if c.rows != nil {
		if end := c.top + h; end < len(c.rows) {
			hi = c.rows[end]
		} else {
			hi = len(c.text)
		}
	}
	return lo, hi
}

// litCovers reports whether the spans cover what h rows show.
func (c *content) litCovers(h int) bool {
	if len(c.text) == 0 {
		return true
	}
	lo, hi := c.litNeed(h)
	return c.lit && c.litLo <= lo && hi <= c.litHi
}

// litJob returns the highlighting job the view needs for h rows, or nil
// when it is lit or asked for already.
func (c *content) litJob(pane, h int) func() contentLitMsg {
	if len(c.text) == 0 || c.litCovers(h) {
		return nil
	}
	lo, hi := 0, len(c.text)
	if len(c.text) > litWhole {
		need, needHi := c.litNeed(h)
		if c.pendHi > 0 && c.pendLo <= need && needHi <= c.pendHi {
			return nil
		}
		lo = c.lineStart(max(0, need-litMargin))
		hi = min(len(c.text), max(needHi, lo+litWindow))
		if i := strings.IndexByte(c.text[hi:min(len(c.text), hi+4096)], '\n'); i >= 0 {
			hi += i + 1
		}
		hi = runeBoundary(c.text, hi)
	} else if c.pendHi > 0 {
		return nil
	}
	c.pendLo, c.pendHi = lo, hi
	gen, text, lang := c.textGen, c.text[lo:hi], c.lang
	return func() contentLitMsg {
		spans := highlight(text, lang)
		for i := range spans {
			spans[i].start += lo
			spans[i].end += lo
		}
		return contentLitMsg{pane: pane, gen: gen, lo: lo, hi: hi, spans: spans}
	}
}

// decorate shows escapes, search matches and the cache cut in the text
// (cut -1: none). They change what a row holds (a no-colour theme brackets
// every marked piece, the cut is a cell of its own), so when they change
// the wrap index is made again: it returns the prep job then, nil when
// nothing a row holds changed.
func (c *content) decorate(pane int, escapes []wire.Escape, marks []mark, cut int) func() contentPrepMsg {
	same := cut == c.cut && (c.bracket == 0 || slices.Equal(escapes, c.escapes) && slices.Equal(marks, c.marks))
	c.escapes, c.marks, c.cut = escapes, marks, cut
	if same {
		return nil
	}
	c.gen++
	c.rows, c.top = nil, 0
	// keep topOff: the plain view wraps from there until the index arrives
	return c.prepJob(pane)
}

// resize changes the wrap width; it returns the prep job when the width
// really changed.
func (c *content) resize(pane, width int) func() contentPrepMsg {
	if width == c.width || width <= 0 {
		return nil
	}
	c.gen++
	c.width = width
	c.rows = nil
	c.top = 0
	// keep topOff: the plain view wraps from there
	c.topOff = c.lineStart(c.topOff)
	return c.prepJob(pane)
}

// applyPrep takes a prep result if it is still current.
func (c *content) applyPrep(m contentPrepMsg) bool {
	if m.gen != c.gen || m.width != c.width {
		return false
	}
	c.hazards, c.scanned, c.rows = m.hazards, true, m.rows
	c.top = c.rowOf(c.topOff)
	c.topOff = c.rows[c.top]
	return true
}

func (c *content) applyLit(m contentLitMsg) bool {
	// Highlighting does not depend on the width: only a change of text
	// makes it stale.
	if m.gen != c.textGen {
		return false
	}
	c.spans, c.lit, c.litLo, c.litHi = m.spans, true, m.lo, m.hi
	if c.pendLo == m.lo && c.pendHi == m.hi {
		c.pendLo, c.pendHi = 0, 0
	}
	return true
}

// rowOf is the row holding byte offset off (indexed only).
func (c *content) rowOf(off int) int {
	if len(c.rows) == 0 {
		return 0
	}
	i := sort.SearchInts(c.rows, off+1) - 1
	return max(0, i)
}

// lineStart is the start of the line holding off.
func (c *content) lineStart(off int) int {
	off = min(off, len(c.text))
	if i := strings.LastIndexByte(c.text[:off], '\n'); i >= 0 {
		return i + 1
	}
	return 0
}

// scroll moves the view by n rows (negative is up) for a pane h rows high.
func (c *content) scroll(n, h int) {
	if c.rows != nil {
		c.top = max(0, min(c.top+n, len(c.rows)-max(1, h)))
		if c.top < 0 {
			c.top = 0
		}
		c.topOff = c.rows[c.top]
		return
	}
	// Not indexed yet: wrap on the fly around topOff.
	if n > 0 {
		rows := c.wrap(c.topOff, n+1)
		c.topOff = rows[len(rows)-1]
		return
	}
	for ; n < 0 && c.topOff > 0; n++ {
		ls := c.lineStart(c.topOff)
		if ls == c.topOff {
			ls = c.lineStart(c.topOff - 1)
		}
		prev := ls
		for _, r := range c.wrap(ls, -1, c.topOff) {
			if r < c.topOff {
				prev = r
			}
		}
		c.topOff = prev
	}
}

// toTop and toBottom jump to the ends.
func (c *content) toTop() { c.top, c.topOff = 0, 0 }

func (c *content) toBottom(h int) {
	if c.rows != nil {
		c.scroll(len(c.rows), h)
		return
	}
	c.topOff = c.lineStart(len(c.text))
}

// reveal scrolls so that byte offset off is in view (centred when it must
// move).
func (c *content) reveal(off, h int) {
	off = max(0, min(off, len(c.text)))
	c.target = off
	if c.rows == nil {
		c.topOff = c.lineStart(off)
		return
	}
	r := c.rowOf(off)
	if r >= c.top && r < c.top+h {
		return
	}
	c.top = max(0, min(r-h/3, len(c.rows)-1))
	c.topOff = c.rows[c.top]
}

// rowsFrom gives up to n row ranges from the view's top.
func (c *content) rowsFrom(n int) [][2]int {
	var starts []int
	if c.rows != nil {
		end := min(len(c.rows), c.top+n)
		starts = append(starts, c.rows[c.top:end]...)
		if end < len(c.rows) {
			starts = append(starts, c.rows[end])
		} else {
			starts = append(starts, len(c.text)+1)
		}
	} else {
		starts = c.wrap(c.topOff, n+1)
		if len(starts) <= n {
			starts = append(starts, len(c.text)+1)
		}
	}
	out := make([][2]int, 0, n)
	for i := 0; i+1 < len(starts) && i < n; i++ {
		s, e := starts[i], starts[i+1]
		if s > len(c.text) {
			break
		}
		e = min(e, len(c.text))
		if e > s && c.text[e-1] == '\n' {
			e--
		}
		out = append(out, [2]int{s, e})
	}
	return out
}

// progress is the share of the text above the view's bottom, 0..100.
func (c *content) progress(h int) int {
	if c.rows == nil || len(c.rows) <= h {
		if len(c.text) == 0 {
			return 100
		}
		return c.topOff * 100 / len(c.text)
	}
	return min(100, (c.top+h)*100/len(c.rows))
}

// render draws the visible rows, each exactly width cells wide.
func (c *content) render(st *themes.Styles, width, h int) []string {
	if h <= 0 {
		return nil
	}
	out := make([]string, 0, h)
	for _, r := range c.rowsFrom(h) {
		line := c.renderRow(st, r[0], r[1], width)
		out = append(out, line)
	}
	for len(out) < h {
		out = append(out, "")
	}
	for i := range out {
		out[i] = fit(out[i], width)
	}
	return out
}

// renderRow draws one row of the text in the pieces its layers give (the
// wrap index counted the same): every piece passes through wire.VisibleLine
// before it is styled. The notes of the escapes that start in it take what
// is left of the row's width: they never push its text out.
func (c *content) renderRow(st *themes.Styles, start, end, width int) string {
	var b strings.Builder
	var notes []string
	l := c.layers()
	cur := l.Cursor(start)
	si := sort.Search(len(c.spans), func(i int) bool { return c.spans[i].end > start })
	for pos := start; pos < end; {
		next, layer, i, _ := l.Piece(cur, pos, end)
		var style lipgloss.Style
		switch layer {
		case layerMatch:
			style = st.Match
		case layerHazard:
			style = st.Hazard
		case layerEscape:
			style = st.Escape
			if e := c.escapes[i]; e.Offset >= start {
				notes = append(notes, escapeNote(e))
			}
		default:
			for si < len(c.spans) && c.spans[si].end <= pos {
				si++
			}
			style = st.Base
			if si < len(c.spans) && c.spans[si].start <= pos {
				style = st.Code(c.spans[si].tt)
				next = min(next, c.spans[si].end)
			} else if si < len(c.spans) {
				next = min(next, c.spans[si].start)
			}
			next = runeBoundary(c.text, max(next, pos+1))
		}
		if pos == c.cut {
			b.WriteString(st.Break.Render(cutMark))
		}
		piece := scan.VisibleLine(c.text[pos:next])
		if layer >= 0 && st.Mono {
			piece = st.MarkOpen + piece + st.MarkClose
		}
		b.WriteString(style.Render(piece))
		pos = next
	}
	// A note shows when its arrow and a character of it fit: an ellipsis
	// alone would read as text cut off.
	if room := width - cells.Width(b.String()); len(notes) > 0 && room > cells.Width(notePrefix)+1 {
		b.WriteString(cells.Clip(st.EscapeNote.Render(notePrefix+strings.Join(notes, "; ")), room, "…"))
	}
	return b.String()
}

// escapeNote says what an escape replaced.
func escapeNote(e wire.Escape) string {
	orig := e.Original
	if orig == "" {
		orig = "?"
	}
	return scan.VisibleLine(e.Rule + " " + orig + "→" + e.Text)
}

// runeBoundary moves i forward to the next UTF-8 boundary of s.
func runeBoundary(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// fit cuts or pads a styled line to exactly w cells (cells.Fit).
func fit(s string, w int) string { return cells.Fit(s, w) }

// guessLang picks a lexer for a text by its look.
func guessLang(text string) string {
	t := strings.TrimLeft(text[:min(len(text), 512)], " \t\r\n")
	switch {
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		return "json"
	case strings.HasPrefix(t, "<"):
		return "xml"
	case strings.HasPrefix(t, "#") || strings.Contains(text[:min(len(text), 4096)], "\n#") ||
		strings.Contains(text[:min(len(text), 4096)], "\n- "):
		return "markdown"
	}
	if strings.Contains(text[:min(len(text), 4096)], "</") {
		return "xml"
	}
	return "markdown"
}

// highlight tokenises text with chroma into byte spans. It runs in a
// command.
func highlight(text, lang string) []span {
	if len(text) == 0 {
		return nil
	}
	lx := lexers.Get(lang)
	if lx == nil {
		return nil
	}
	it, err := chroma.Coalesce(lx).Tokenise(nil, text)
	if err != nil {
		return nil
	}
	var out []span
	pos := 0
	for t := it(); t != chroma.EOF; t = it() {
		n := len(t.Value)
		if pos+n > len(text) || text[pos:pos+n] != t.Value {
			// The lexer changed the text (some normalise newlines): stop
			// rather than misplace colours.
			break
		}
		if t.Type != chroma.Text && t.Type != chroma.TextWhitespace && n > 0 {
			out = append(out, span{pos, pos + n, t.Type})
		}
		pos += n
	}
	return out
}

// contentPane is the content of the selected segment: the shown text (its
// scroll and highlighting live in body, which the root owns) under a title
// that says what the segment is.
type contentPane struct {
	st      *themes.Styles
	body    *content
	seg     *wire.Segment // nil when nothing is selected
	tok     int
	loading bool
	focused bool
}

// contentPane is the content pane as the model stands.
func (m *Model) contentPane() contentPane {
	p := contentPane{st: m.st, body: &m.body, loading: m.loading, focused: m.focus == focusContent}
	if c, si := m.cur(), m.curSeg(); si >= 0 {
		p.seg, p.tok = &m.reqs[c].req.Segments[si], m.reqs[c].segTok[si]
	}
	return p
}

// Render draws the content in a w×h box.
func (p contentPane) Render(w, h int) []string {
	st := p.st
	title := "content"
	var lines []string
	if s := p.seg; s != nil {
		title = scan.VisibleLine(s.ID) + " · " + string(s.Kind) + " · " + strings.ToUpper(string(s.Trust)) + " · " + string(s.Channel)
		if s.Envelope != "" {
			title += " <" + scan.VisibleLine(s.Envelope) + ">"
		}
		title += " · " + shortSize(len(s.Text)) + " · " + shortNum(p.tok) + " tok"
		if !p.body.litCovers(h - 2) {
			title += " · highlighting…"
		}
		title += " · " + strconv.Itoa(p.body.progress(h-2)) + "%"
		lines = p.body.render(st, w-2, h-2)
		if s.Text == "" && len(lines) > 0 {
			lines[0] = st.Muted.Render("(empty)")
		}
	} else if p.loading {
		lines = []string{st.Muted.Render("loading… the first request shows as soon as it is read")}
	}
	return box(st, st.Header.Render(title), lines, w, h, p.focused)
}
