package render

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// Span is a highlighted byte range of a text.
type Span struct {
	Start, End int
	Type       chroma.TokenType
}

// Mark is a byte range to show specially (a search match).
type Mark struct{ Start, End int }

// Content is a scrollable, wrapped, highlighted view of one hostile text.
// Its heavy parts (hazard scan, wrap index, highlighting) arrive from
// commands; until then it shows a plain view computed for the visible rows
// only. The viewer reads its exported fields; it changes them only through
// its methods, except Bracket, set once with the theme.
type Content struct {
	Key     string // what is shown (request and segment), for the status line
	Sent    string // the text as sent
	Text    string // the text as shown (Sent, or Sent pretty-printed)
	Escapes []wire.Escape
	Lang    string

	gen     int // bumped whenever text or width changes
	textGen int // bumped whenever the text changes (highlighting)
	Width   int
	Hazards []scan.Hazard
	Scanned bool
	Rows    []int // start offsets of the wrapped rows, when indexed
	Spans   []Span
	Lit     bool // Spans cover [LitLo, LitHi)
	LitLo   int
	LitHi   int
	pendLo  int // the window asked for and not yet arrived (pendHi 0: none)
	pendHi  int

	Top    int // first row shown, when indexed
	TopOff int // byte offset of the first row shown

	// Marks, Target and Cut, and Escapes, are offsets into the text as
	// sent (the segment's); Text is the text as shown, pretty-printed when
	// it is one line of JSON (pretty maps the offsets, nil: the same).
	Marks  []Mark
	Target int // byte offset to keep in view, -1 none
	Cut    int // where the cache prefix ends inside this text, -1 none
	pretty *offsetMap
	// what is drawn, at offsets into Text
	shownEsc   []wire.Escape
	removed    []removal // markers of what escapes removed, by offset
	shownMarks []Mark
	shownCut   int
	// Findings are the audit's findings in the text (offsets as sent),
	// drawn in their severity's colour under the other marks.
	Findings   []FindingMark
	shownFinds []FindingMark
	// FrameOpen and FrameClose are the tags of the envelope the text is the
	// body of (render.Frame), drawn as its first and last rows; Set reads
	// them. frame is where they are in Text.
	FrameOpen, FrameClose string
	frame                 []Mark
	// NoWrap cuts each line at the width instead of wrapping it (SetWrap):
	// a row is a line, drawn from cell XOff, with a marker where it goes
	// on past either edge (Window).
	NoWrap bool
	XOff   int
	// Bracket is the cells the theme's brackets take around each marked
	// piece (mono), counted when wrapping. The theme is mono from the start
	// or never, so it does not change under a wrap index.
	Bracket int
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
	layerFinding
	layerFrame
)

type (
	findingRanges []FindingMark
	matchRanges   []Mark
	hazardRanges  []scan.Hazard
	escapeRanges  []wire.Escape
)

func (r findingRanges) Len() int               { return len(r) }
func (r findingRanges) Range(i int) (int, int) { return r[i].Start, r[i].End }
func (r matchRanges) Len() int                 { return len(r) }
func (r matchRanges) Range(i int) (int, int)   { return r[i].Start, r[i].End }
func (r hazardRanges) Len() int                { return len(r) }
func (r hazardRanges) Range(i int) (int, int)  { return r[i].Offset, r[i].Offset + r[i].Len }
func (r escapeRanges) Len() int                { return len(r) }
func (r escapeRanges) Range(i int) (int, int)  { return r[i].Offset, r[i].Offset + len(r[i].Text) }

// layers is how the rows of the text are drawn besides its characters:
// marks (bracketed in a no-colour theme) and the cache cut. The renderer
// draws from it and the wrap index counts it, so no row holds more than its
// width and no character is cut off. It shares the content's slices, which
// are replaced, never changed: the prep command wraps with it.
func (c *Content) layers() *cells.Layers {
	frame := matchRanges(c.frame)
	if c.Bracket > 0 {
		frame = nil // without colour the tags read as tags: no brackets
	}
	l := &cells.Layers{Text: c.Text, Layers: []cells.Ranges{matchRanges(c.shownMarks), hazardRanges(c.Hazards), escapeRanges(c.shownEsc), findingRanges(c.shownFinds), frame},
		Bracket: c.Bracket, Cut: c.shownCut, CutCells: cells.Width(cutMark)}
	for _, r := range c.removed {
		l.Inserts = append(l.Inserts, cells.Insert{Offset: r.off, Cells: cells.Width(c.markerAt(r))})
	}
	return l
}

// wrap wraps the text from byte offset from as it is drawn (cells.Wrap).
func (c *Content) wrap(from, limit int, stop ...int) []int {
	return cells.Wrap(c.Text, c.Hazards, c.layers().Pieces(from), c.rowWidth(), from, limit, stop...)
}

// unwrapped is the width a row has when lines are cut, not wrapped: a
// line is one row however long it is.
const unwrapped = 1 << 30

// rowWidth is the cells a row holds: the width, or any line's when lines
// are cut.
func (c *Content) rowWidth() int {
	if c.NoWrap {
		return unwrapped
	}
	return c.Width
}

// SetWrap wraps long lines (wrap) or cuts them at the width, the view
// scrolling sideways (XOff); it returns the prep job that indexes the rows
// again when that changed.
func (c *Content) SetWrap(pane int, wrap bool) func() PrepMsg {
	if c.NoWrap == !wrap {
		return nil
	}
	c.NoWrap, c.XOff = !wrap, 0
	c.gen++
	c.Rows, c.Top = nil, 0
	c.TopOff = c.LineStart(c.TopOff)
	return c.PrepJob(pane)
}

// ScrollX moves a view whose lines are cut n cells sideways (negative is
// left), no further than shows the end of the longest of the h rows in
// view.
func (c *Content) ScrollX(st *themes.Styles, n, h int) {
	if !c.NoWrap {
		return
	}
	widest := 0
	for _, r := range c.rowsFrom(h) {
		widest = max(widest, cells.Width(c.renderRow(st, r[0], r[1], unwrapped)))
	}
	c.XOff = max(0, min(c.XOff+n, widest-c.Width+1))
}

// PrepMsg carries the hazard scan and the wrap index of a text.
type PrepMsg struct {
	Pane    int // which content pane
	gen     int
	width   int
	hazards []scan.Hazard
	rows    []int
}

// LitMsg carries the highlighting of text[lo:hi].
type LitMsg struct {
	Pane   int
	gen    int
	lo, hi int
	spans  []Span
}

// Highlighting is done for what is on screen: a text up to litWhole bytes
// at once, a longer one the rows in view and litMargin bytes on either side
// (to whole lines), asked for again in a command when the view leaves them.
// Chroma's lexers take tens of milliseconds a kilobyte here (markdown most),
// so the window, not the text, sets what a view costs.
const (
	litWhole  = 8 << 10
	litMargin = 1 << 10
)

// Set shows a new text; it returns the commands that prepare it. When the
// text's hazards are known already (scanned), hz are they and the prep
// command does not scan it again.
func (c *Content) Set(pane int, key, text string, escapes []wire.Escape, hz []scan.Hazard, scanned bool, width int, lang string) []any {
	c.gen++
	c.textGen++
	c.Lang = lang
	if lang == "" {
		c.Lang = GuessLang(text)
	}
	c.pretty, c.Text, c.frame = nil, text, nil
	if c.Lang == "json" {
		c.Text, c.pretty = PrettyJSON(text)
	}
	c.frameText()
	c.Key, c.Sent, c.Escapes, c.shownEsc = key, text, escapes, c.pretty.escapes(escapes)
	c.removed = removals(c.Text, c.shownEsc)
	c.Hazards, c.Scanned, c.Rows, c.Spans, c.Lit = c.pretty.hazards(hz), scanned, nil, nil, false
	c.LitLo, c.LitHi, c.pendLo, c.pendHi = 0, 0, 0, 0
	c.Top, c.TopOff, c.Target, c.Marks, c.shownMarks = 0, 0, -1, nil, nil
	c.Findings, c.shownFinds = nil, nil
	c.Cut, c.shownCut = -1, -1
	c.Width, c.XOff = width, 0 // a new text shows from its left edge, cut or wrapped as the last
	return []any{c.PrepJob(pane), c.LitJob(pane, 20)}
}

// PrepJob is the work of a prep command, as a closure over immutable data.
func (c *Content) PrepJob(pane int) func() PrepMsg {
	snap := Content{Text: c.Text, Hazards: c.Hazards, shownEsc: c.shownEsc, removed: c.removed, shownMarks: c.shownMarks, shownFinds: c.shownFinds, frame: c.frame, shownCut: c.shownCut, Bracket: c.Bracket, Width: c.Width, NoWrap: c.NoWrap}
	gen, scanned := c.gen, c.Scanned
	return func() PrepMsg {
		if !scanned {
			snap.Hazards = scan.Hazards(snap.Text)
		}
		return PrepMsg{Pane: pane, gen: gen, width: snap.Width, hazards: snap.Hazards, rows: snap.wrap(0, -1)}
	}
}

// litNeed is the byte range the view needs highlighted for h rows.
func (c *Content) litNeed(h int) (int, int) {
	lo := c.TopOff
	if c.Rows != nil && c.Top < len(c.Rows) {
		lo = c.Rows[c.Top]
	}
	hi := min(len(c.Text), lo+(h+1)*max(1, c.Width)*4)
	if c.Rows != nil {
		if end := c.Top + h; end < len(c.Rows) {
			hi = c.Rows[end]
		} else {
			hi = len(c.Text)
		}
	}
	return lo, hi
}

// LitCovers reports whether the spans cover what h rows show.
func (c *Content) LitCovers(h int) bool {
	if len(c.Text) == 0 || c.Lang == "" {
		return true
	}
	lo, hi := c.litNeed(h)
	return c.Lit && c.LitLo <= lo && hi <= c.LitHi
}

// LitJob returns the highlighting job the view needs for h rows, or nil
// when it is lit or asked for already.
func (c *Content) LitJob(pane, h int) func() LitMsg {
	if c.LitCovers(h) {
		return nil
	}
	lo, hi := 0, len(c.Text)
	if len(c.Text) > litWhole {
		need, needHi := c.litNeed(h)
		if c.pendHi > 0 && c.pendLo <= need && needHi <= c.pendHi {
			return nil
		}
		from := max(0, need-litMargin)
		if lo = c.LineStart(from); from-lo > litMargin {
			// One long line: start inside it rather than lex all of it.
			lo = RuneBoundary(c.Text, from)
		}
		hi = min(len(c.Text), needHi+litMargin)
		if i := strings.IndexByte(c.Text[hi:min(len(c.Text), hi+512)], '\n'); i >= 0 {
			hi += i + 1
		}
		hi = RuneBoundary(c.Text, hi)
	} else if c.pendHi > 0 {
		return nil
	}
	c.pendLo, c.pendHi = lo, hi
	gen, text, lang := c.textGen, c.Text[lo:hi], c.Lang
	return func() LitMsg {
		spans := Highlight(text, lang)
		for i := range spans {
			spans[i].Start += lo
			spans[i].End += lo
		}
		return LitMsg{Pane: pane, gen: gen, lo: lo, hi: hi, spans: spans}
	}
}

// Decorate shows escapes, search matches and the cache cut in the text
// (cut -1: none). They change what a row holds (a no-colour theme brackets
// every marked piece, the cut is a cell of its own), so when they change
// the wrap index is made again: it returns the prep job then, nil when
// nothing a row holds changed.
func (c *Content) Decorate(pane int, escapes []wire.Escape, marks []Mark, cut int, findings ...FindingMark) func() PrepMsg {
	same := cut == c.Cut && (c.Bracket == 0 || slices.Equal(escapes, c.Escapes) && slices.Equal(marks, c.Marks) && slices.Equal(findings, c.Findings))
	c.Escapes, c.Marks, c.Cut, c.Findings = escapes, marks, cut, findings
	c.shownEsc, c.shownMarks, c.shownCut = c.pretty.escapes(escapes), c.pretty.marks(marks), c.pretty.at(cut)
	c.shownFinds = c.pretty.findings(findings)
	removed := removals(c.Text, c.shownEsc)
	same = same && slices.Equal(removed, c.removed)
	c.removed = removed
	if same {
		return nil
	}
	c.gen++
	c.Rows, c.Top = nil, 0
	// keep topOff: the plain view wraps from there until the index arrives
	return c.PrepJob(pane)
}

// Resize changes the wrap width; it returns the prep job when the width
// really changed.
func (c *Content) Resize(pane, width int) func() PrepMsg {
	if width == c.Width || width <= 0 {
		return nil
	}
	c.gen++
	c.Width = width
	c.Rows = nil
	c.Top = 0
	// keep topOff: the plain view wraps from there
	c.TopOff = c.LineStart(c.TopOff)
	return c.PrepJob(pane)
}

// ApplyPrep takes a prep result if it is still current.
func (c *Content) ApplyPrep(m PrepMsg) bool {
	if m.gen != c.gen || m.width != c.Width {
		return false
	}
	c.Hazards, c.Scanned, c.Rows = m.hazards, true, m.rows
	c.Top = c.RowOf(c.TopOff)
	c.TopOff = c.Rows[c.Top]
	return true
}

func (c *Content) ApplyLit(m LitMsg) bool {
	// Highlighting does not depend on the width: only a change of text
	// makes it stale.
	if m.gen != c.textGen {
		return false
	}
	c.Spans, c.Lit, c.LitLo, c.LitHi = m.spans, true, m.lo, m.hi
	if c.pendLo == m.lo && c.pendHi == m.hi {
		c.pendLo, c.pendHi = 0, 0
	}
	return true
}

// RowOf is the row holding byte offset off (indexed only).
func (c *Content) RowOf(off int) int {
	if len(c.Rows) == 0 {
		return 0
	}
	i := sort.SearchInts(c.Rows, off+1) - 1
	return max(0, i)
}

// LineStart is the start of the line holding off.
func (c *Content) LineStart(off int) int {
	off = min(off, len(c.Text))
	if i := strings.LastIndexByte(c.Text[:off], '\n'); i >= 0 {
		return i + 1
	}
	return 0
}

// Scroll moves the view by n rows (negative is up) for a pane h rows high.
func (c *Content) Scroll(n, h int) {
	if c.Rows != nil {
		c.Top = max(0, min(c.Top+n, len(c.Rows)-max(1, h)))
		if c.Top < 0 {
			c.Top = 0
		}
		c.TopOff = c.Rows[c.Top]
		return
	}
	// Not indexed yet: wrap on the fly around topOff.
	if n > 0 {
		rows := c.wrap(c.TopOff, n+1)
		c.TopOff = rows[len(rows)-1]
		return
	}
	for ; n < 0 && c.TopOff > 0; n++ {
		ls := c.LineStart(c.TopOff)
		if ls == c.TopOff {
			ls = c.LineStart(c.TopOff - 1)
		}
		prev := ls
		for _, r := range c.wrap(ls, -1, c.TopOff) {
			if r < c.TopOff {
				prev = r
			}
		}
		c.TopOff = prev
	}
}

// ToTop and toBottom jump to the ends.
func (c *Content) ToTop() { c.Top, c.TopOff = 0, 0 }

func (c *Content) ToBottom(h int) {
	if c.Rows != nil {
		c.Scroll(len(c.Rows), h)
		return
	}
	c.TopOff = c.LineStart(len(c.Text))
}

// Reveal scrolls so that byte offset off is in view (centred when it must
// move).
func (c *Content) Reveal(off, h int) {
	c.Target = off
	off = max(0, min(c.pretty.at(off), len(c.Text)))
	if c.Rows == nil {
		c.TopOff = c.LineStart(off)
		return
	}
	r := c.RowOf(off)
	if r >= c.Top && r < c.Top+h {
		return
	}
	c.Top = max(0, min(r-h/3, len(c.Rows)-1))
	c.TopOff = c.Rows[c.Top]
}

// rowsFrom gives up to n row ranges from the view's top, each without
// the spaces a wrapped row ends with (cells.RowEnd).
func (c *Content) rowsFrom(n int) [][2]int {
	var starts []int
	if c.Rows != nil {
		end := min(len(c.Rows), c.Top+n)
		starts = append(starts, c.Rows[c.Top:end]...)
		if end < len(c.Rows) {
			starts = append(starts, c.Rows[end])
		} else {
			starts = append(starts, len(c.Text)+1)
		}
	} else {
		starts = c.wrap(c.TopOff, n+1)
		if len(starts) <= n {
			starts = append(starts, len(c.Text)+1)
		}
	}
	out := make([][2]int, 0, n)
	for i := 0; i+1 < len(starts) && i < n; i++ {
		s, e := starts[i], starts[i+1]
		if s > len(c.Text) {
			break
		}
		e = min(e, len(c.Text))
		if e > s && c.Text[e-1] == '\n' {
			e--
		}
		te := cells.RowEnd(c.Text, s, e)
		// A space that carries a removal marker is drawn, with its marker.
		for k := sort.Search(len(c.removed), func(k int) bool { return c.removed[k].off >= te }); k < len(c.removed) && c.removed[k].off < e; k++ {
			te = c.removed[k].off + 1
		}
		out = append(out, [2]int{s, te})
	}
	return out
}

// Progress is the share of the text above the view's bottom, 0..100: 100
// for a text whose rows all fit (it said 0% for a segment shown whole).
func (c *Content) Progress(h int) int {
	if c.Rows != nil && len(c.Rows) <= h {
		return 100
	}
	if c.Rows == nil {
		if len(c.Text) == 0 {
			return 100
		}
		return c.TopOff * 100 / len(c.Text)
	}
	return min(100, (c.Top+h)*100/len(c.Rows))
}

// Render draws the visible rows, each exactly width cells wide.
func (c *Content) Render(st *themes.Styles, width, h int) []string {
	if h <= 0 {
		return nil
	}
	out := make([]string, 0, h)
	for _, r := range c.rowsFrom(h) {
		if c.NoWrap {
			out = append(out, Window(st, c.renderRow(st, r[0], r[1], unwrapped), c.XOff, width))
			continue
		}
		out = append(out, c.renderRow(st, r[0], r[1], width))
	}
	for len(out) < h {
		out = append(out, "")
	}
	for i := range out {
		out[i] = cells.Fit(out[i], width)
	}
	return out
}

// renderRow draws one row of the text in the pieces its layers give (the
// wrap index counted the same): every piece passes through scan.VisibleLine
// before it is styled. The notes of the escapes that start in it take what
// is left of the row's width: they never push its text out.
func (c *Content) renderRow(st *themes.Styles, start, end, width int) string {
	var b strings.Builder
	var notes []string
	l := c.layers()
	cur := l.Cursor(start)
	si := sort.Search(len(c.Spans), func(i int) bool { return c.Spans[i].End > start })
	ri := sort.Search(len(c.removed), func(i int) bool { return c.removed[i].off >= start })
	for pos := start; pos < end; {
		next, layer, i, _ := l.Piece(cur, pos, end)
		var style lipgloss.Style
		switch layer {
		case layerMatch:
			style = st.Match
		case layerHazard:
			style = st.Hazard
		case layerFrame:
			style = st.Accent
		case layerFinding:
			style = st.Low
			switch c.shownFinds[i].Severity {
			case "high":
				style = st.High
			case "medium":
				style = st.Medium
			}
		case layerEscape:
			style = st.Escape
			if e := c.shownEsc[i]; e.Offset >= start {
				notes = append(notes, EscapeNote(e))
			}
		default:
			for si < len(c.Spans) && c.Spans[si].End <= pos {
				si++
			}
			style = st.Base
			if si < len(c.Spans) && c.Spans[si].Start <= pos {
				style = st.Code(c.Spans[si].Type)
				next = min(next, c.Spans[si].End)
			} else if si < len(c.Spans) {
				next = min(next, c.Spans[si].Start)
			}
			next = RuneBoundary(c.Text, max(next, pos+1))
		}
		if pos == c.shownCut {
			b.WriteString(st.Break.Render(cutMark))
		}
		after := ""
		for ri < len(c.removed) && c.removed[ri].off == pos {
			if m := st.Muted.Render(c.markerAt(c.removed[ri])); c.removed[ri].after {
				after = m
			} else {
				b.WriteString(m)
			}
			ri++
		}
		piece := scan.VisibleLine(c.Text[pos:next])
		if layer >= 0 && st.Mono {
			piece = st.MarkOpen + piece + st.MarkClose
		}
		b.WriteString(style.Render(piece))
		b.WriteString(after)
		pos = next
	}
	// A note shows when its arrow and a character of it fit: an ellipsis
	// alone would read as text cut off.
	if room := width - cells.Width(b.String()); len(notes) > 0 && room > cells.Width(notePrefix)+1 {
		b.WriteString(cells.Clip(st.EscapeNote.Render(notePrefix+strings.Join(notes, "; ")), room, "…"))
	}
	return b.String()
}

// EscapeNote says what an escape replaced.
func EscapeNote(e wire.Escape) string {
	orig := e.Original
	if orig == "" {
		orig = "?"
	}
	return scan.VisibleLine(e.Rule + " " + orig + "→" + e.Text)
}

// RuneBoundary moves i forward to the next UTF-8 boundary of s.
func RuneBoundary(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// GuessLang picks a lexer for a text by its look: JSON, XML, markdown, or
// none ("") for prose without markup, which is not highlighted at all.
func GuessLang(text string) string {
	head := text[:min(len(text), 4096)]
	t := strings.TrimLeft(head[:min(len(head), 512)], " \t\r\n")
	switch {
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		return "json"
	case strings.HasPrefix(t, "<"):
		return "xml"
	case hasMarkdown(head):
		return "markdown"
	case strings.Contains(head, "</"):
		return "xml"
	}
	return ""
}

// hasMarkdown reports whether text holds markdown a reader would see
// highlighted: a heading, a list item, a quote, a fence or an inline code
// span, emphasis or a link.
func hasMarkdown(text string) bool {
	for line := range strings.Lines(text) {
		l := strings.TrimLeft(line, " ")
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") ||
			strings.HasPrefix(l, "> ") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "1. ") {
			return true
		}
	}
	return strings.Contains(text, "`") || strings.Contains(text, "**") || strings.Contains(text, "](")
}

// Highlight tokenises text with the lexer of lang (lex.go) into byte
// spans. It runs in a command.
func Highlight(text, lang string) []Span {
	if len(text) == 0 {
		return nil
	}
	return highlightWith(lexerFor(lang), text)
}

// highlightWith tokenises text with lx into byte spans (nil lx: none).
func highlightWith(lx chroma.Lexer, text string) []Span {
	if lx == nil {
		return nil
	}
	it, err := chroma.Coalesce(lx).Tokenise(nil, text)
	if err != nil {
		return nil
	}
	var out []Span
	pos := 0
	for t := it(); t != chroma.EOF; t = it() {
		n := len(t.Value)
		if pos+n > len(text) || text[pos:pos+n] != t.Value {
			// The lexer changed the text (some normalise newlines): stop
			// rather than misplace colours.
			break
		}
		if t.Type != chroma.Text && t.Type != chroma.TextWhitespace && n > 0 {
			out = append(out, Span{pos, pos + n, t.Type})
		}
		pos += n
	}
	return out
}

// removal is the marker drawn where escapes removed text.
type removal struct {
	off    int
	marker string
	after  bool // drawn after the character at off (the end of a line), not before it
}

// removals are the markers of the escapes that removed text (stripped
// hazards: no text left at their offset), one per offset, naming the code
// points removed. One at the end of a line is kept with its last
// character, so that it is on a row, and drawn after it, where the text
// was removed ("all green⌫␛[0m", not "all gree⌫␛[0mn").
func removals(text string, escapes []wire.Escape) []removal {
	var out []removal
	for _, e := range escapes {
		if e.Text != "" || e.Original == "" {
			continue
		}
		off := max(0, min(e.Offset, len(text)))
		after := false
		if off == len(text) || text[off] == '\n' {
			if off == 0 || text[off-1] == '\n' {
				if off == len(text) {
					continue // an empty line or text: no row to draw it on
				}
			} else {
				_, n := utf8.DecodeLastRuneInString(text[:off])
				off -= n
				after = true
			}
		}
		m := RemovalMarker(e.Original)
		if k := len(out) - 1; k >= 0 && out[k].off == off && out[k].after == after {
			out[k].marker += m
			continue
		}
		out = append(out, removal{off, m, after})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].off != out[j].off {
			return out[i].off < out[j].off
		}
		return !out[i].after && out[j].after
	})
	for i := 1; i < len(out); i++ {
		if out[i].off == out[i-1].off && out[i].after == out[i-1].after {
			out[i-1].marker += out[i].marker
			out = append(out[:i], out[i+1:]...)
			i--
		}
	}
	return out
}

// RemovalMarker is the dim mark drawn where an escape removed original:
// "⌫" and the code points removed as the sanitiser shows them, or the
// first of them and their count when that would take more than 24 cells.
func RemovalMarker(original string) string {
	if v := scan.VisibleLine(original); cells.Width(v) <= 24 {
		return "⌫" + v
	}
	n := utf8.RuneCountInString(original)
	_, k := utf8.DecodeRuneInString(original)
	return "⌫" + scan.VisibleLine(original[:k]) + "…" + strconv.Itoa(n) + " code points"
}

// FindingMark is a finding of the audit in a text: the bytes it is about
// and its severity ("high", "medium", "low").
type FindingMark struct {
	Start, End int
	Severity   string
}

// FindingSpan is the bytes a finding at off is about, for a finding that
// gives only its offset: a tag (from "<" to its ">", in one line), else the
// word there, at most 64 bytes and at least one code point.
func FindingSpan(text string, off int) (int, int) {
	if off < 0 || off >= len(text) {
		return off, off
	}
	end := off
	if text[off] == '<' {
		if i := strings.IndexAny(text[off:min(len(text), off+200)], ">\n"); i > 0 && text[off+i] == '>' {
			return off, off + i + 1
		}
	}
	for end < len(text) && end-off < 64 && text[end] != ' ' && text[end] != '\n' && text[end] != '\t' {
		end++
	}
	if end == off {
		_, n := utf8.DecodeRuneInString(text[off:])
		end = off + n
	}
	return off, RuneBoundary(text, end)
}

// frameText puts the envelope's tags around the text as shown, on rows of
// their own, and moves every offset into the text as sent past the opening
// tag.
func (c *Content) frameText() {
	if c.FrameOpen == "" && c.FrameClose == "" {
		return
	}
	shift := 0
	if c.FrameOpen != "" {
		c.frame = append(c.frame, Mark{0, len(c.FrameOpen)})
		c.Text = c.FrameOpen + "\n" + c.Text
		shift = len(c.FrameOpen) + 1
	}
	if c.FrameClose != "" {
		if !strings.HasSuffix(c.Text, "\n") {
			c.Text += "\n"
		}
		c.frame = append(c.frame, Mark{len(c.Text), len(c.Text) + len(c.FrameClose)})
		c.Text += c.FrameClose
	}
	if c.pretty == nil {
		c.pretty = &offsetMap{orig: []int{0}, delta: []int{0}}
	}
	for i := range c.pretty.delta {
		c.pretty.delta[i] += shift
	}
}

// markerAt is removal r's marker as drawn: cut (with "…") so that it, the
// character it stands before (as the sanitiser shows it), the brackets and
// the cache cut fit one row; nothing when not even "⌫…" does. The wrap
// index counts it the same.
func (c *Content) markerAt(r removal) string {
	room := c.rowWidth() - c.Bracket
	if r.off == c.shownCut {
		room -= cells.Width(cutMark)
	}
	if r.off < len(c.Text) {
		_, n := utf8.DecodeRuneInString(c.Text[r.off:])
		room -= cells.Width(scan.VisibleLine(c.Text[r.off : r.off+n]))
	}
	switch {
	case cells.Width(r.marker) <= room:
		return r.marker
	case room >= 2:
		return cells.Clip(r.marker, room, "…")
	}
	return ""
}
