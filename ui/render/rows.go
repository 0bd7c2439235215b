package render

// The rows that name a segment: its trust badge, its line in the segment
// columns and the trust map, the content pane's title, and the rows of the
// Escapes view. Every text from a payload passes through scan.VisibleLine.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/scan"
)

// TrustBadge is a segment's trust as a coloured label that also reads
// without colour.
func TrustBadge(st *themes.Styles, t wire.Trust) string {
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

// InSystem reports whether s is workspace text in the system channel.
func InSystem(s *wire.Segment) bool {
	return s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem
}

// SegmentBadge is a segment's trust badge: TrustBadge, or for workspace
// text in the system channel a badge of its own, in the colour of a high
// finding ("[!IN SYSTEM]" without colour).
func SegmentBadge(st *themes.Styles, s *wire.Segment) string {
	if !InSystem(s) {
		return TrustBadge(st, s.Trust)
	}
	if st.Mono {
		return "[!IN SYSTEM]"
	}
	return st.BadgeInSystem.Render(" ⚠ IN SYSTEM ")
}

// SegmentName is what a segment is called in a list: its envelope, or its
// kind when it has none.
func SegmentName(s *wire.Segment) string {
	if s.Envelope != "" {
		return s.Envelope
	}
	return string(s.Kind)
}

// SegmentMarks are the marks of a segment's row in the segment columns.
type SegmentMarks struct {
	Break    int // where the cache prefix ends in it, -1 not here
	Findings int // findings of the audit in it
	Hazards  int // hazards left in it
	Tokens   int // its estimated tokens
	// Breakpoint is set when it carries a cache breakpoint (its request's
	// Breakpoints).
	Breakpoint bool
	Selected   bool // it is the cursor's
	Focused    bool // the cursor's pane has the focus
	// ServerTools is, on the first of a run of tool definitions of one MCP
	// server, how many the run holds: that row heads the server's group.
	ServerTools int
}

// ServerRun is, for row k of a column of n rows (row j showing segment
// segs[at(j)]) whose first row shown is top, the number of tools of the
// MCP server's run that row k heads: the run's length when row k is the
// first of its server's run or the first row shown, else 0.
func ServerRun(segs []wire.Segment, at func(j int) int, n, k, top int) int {
	server := segs[at(k)].Server
	same := func(j int) bool { return j >= 0 && j < n && segs[at(j)].Server == server }
	if server == "" || k != top && same(k-1) {
		return 0
	}
	lo, hi := k, k
	for same(lo - 1) {
		lo--
	}
	for same(hi + 1) {
		hi++
	}
	return hi - lo + 1
}

// SegmentRows are the two rows of segment s in a column inner cells wide:
// its badge and name, then its marks, where it is and its size. Marks come
// first on the second row, so a narrow column never cuts them off.
func SegmentRows(st *themes.Styles, s *wire.Segment, mk SegmentMarks, inner int) (string, string) {
	cur := "  "
	if mk.Selected {
		cur = "▸ "
	}
	l1 := cur + SegmentBadge(st, s) + " " + st.Header.Render(scan.VisibleLine(SegmentName(s)))
	if s.Server != "" {
		// An MCP server's tool, grouped under its server: the first of
		// the server's run names the server, the others hang under it.
		tool := classify.ToolName(s)
		if mk.ServerTools > 0 {
			l1 = cur + SegmentBadge(st, s) + " " + st.Header.Render("MCP "+scan.VisibleLine(s.Server)) +
				st.Muted.Render(" · "+strconv.Itoa(mk.ServerTools)+" tools ›") + " " + scan.VisibleLine(tool)
		} else {
			l1 = cur + SegmentBadge(st, s) + " " + st.Muted.Render("└") + " " + scan.VisibleLine(tool)
		}
	}
	where := s.Label
	if where == "" {
		where = s.ID
	} else {
		where = where + " (" + s.ID + ")"
	}
	var marks []string
	if mk.Break >= 0 {
		marks = append(marks, st.Break.Render("✂ prefix ends @"+strconv.Itoa(mk.Break)))
	}
	if mk.Findings > 0 {
		marks = append(marks, st.High.Render("⚑"+strconv.Itoa(mk.Findings)))
	}
	if mk.Hazards > 0 {
		marks = append(marks, st.Hazard.Render("!"+strconv.Itoa(mk.Hazards)))
	}
	if n := len(s.Escapes); n > 0 {
		marks = append(marks, st.Escape.Render("⎋"+strconv.Itoa(n)))
	}
	if mk.Breakpoint {
		marks = append(marks, st.Accent.Render("◆bp"))
	}
	l2 := "   "
	if len(marks) > 0 {
		l2 += strings.Join(marks, " ") + " "
	}
	l2 += st.Muted.Render(scan.VisibleLine(where) + " · " + ShortSize(len(s.Text)) + " · " + ShortNum(mk.Tokens) + " tok")
	if mk.Selected {
		// The row in the selection's colours, its badge in its own (a
		// red ⚠ IN SYSTEM stays red on the cursor).
		sty := st.Selected
		if mk.Focused {
			sty = st.Cursor
		}
		badge := SegmentBadge(st, s)
		rest := max(0, inner-cells.Width(cur)-cells.Width(badge))
		l1 = sty.Render(cur) + badge + sty.Render(ansi.Strip(cells.Fit(" "+st.Header.Render(scan.VisibleLine(SegmentName(s))), rest)))
		if cells.Width(cur)+cells.Width(badge) > inner {
			l1 = sty.Render(ansi.Strip(cells.Fit(l1, inner)))
		}
	}
	return l1, l2
}

// TrustCell is segment s in the trust map, w cells wide: its badge, name,
// size and label.
func TrustCell(st *themes.Styles, s *wire.Segment, tok, w int) string {
	l := " " + SegmentBadge(st, s) + " " + scan.VisibleLine(SegmentName(s))
	l += st.Muted.Render(" · " + ShortSize(len(s.Text)) + " · " + ShortNum(tok) + " tok")
	if s.Label != "" {
		l += st.Muted.Render(" · " + scan.VisibleLine(s.Label))
	}
	return cells.Fit(l, w)
}

// ContentTitle is the content pane's title for segment s: what it is, its
// trust, channel and envelope, size and tokens, whether its highlighting is
// still coming, and how far down the view is (percent).
func ContentTitle(s *wire.Segment, tok int, lit bool, percent int) string {
	trust := strings.ToUpper(string(s.Trust))
	if InSystem(s) {
		trust = "⚠ UNTRUSTED IN SYSTEM"
	}
	title := scan.VisibleLine(s.ID) + " · " + string(s.Kind) + " · " + trust + " · " + string(s.Channel)
	if s.Envelope != "" {
		title += " <" + scan.VisibleLine(s.Envelope) + ">"
	}
	title += " · " + ShortSize(len(s.Text)) + " · " + ShortNum(tok) + " tok"
	if !lit {
		title += " · highlighting…"
	}
	return title + " · " + strconv.Itoa(percent) + "%"
}

// EscapeWhere names the segment an escape or hazard is in for the Escapes
// view: its envelope (or kind) and where its text came from (its label),
// then its id.
func EscapeWhere(s *wire.Segment) string {
	where := SegmentName(s)
	if s.Label != "" {
		where += " " + s.Label
	}
	return where + " · " + s.ID
}

// EscapeKind is what an escape did: "entity" (a character written as an
// entity), "stripped" (removed, nothing left in its place), "replaced",
// or the escape's own rule.
func EscapeKind(e *wire.Escape) string {
	if e.Rule == "" {
		if e.Text == "" {
			return "stripped"
		}
		return "replaced"
	}
	return e.Rule
}

// EscapeRow is an applied escape as a row of the Escapes view, its
// segment column sw cells wide: what it did, where, its offset in the text
// as sent, and what it changed.
func EscapeRow(st *themes.Styles, e *wire.Escape, where string, sw int) string {
	orig := e.Original
	if orig == "" {
		orig = "?"
	}
	what := scan.VisibleLine(orig) + " → " + st.Escape.Render(scan.VisibleLine(e.Text))
	if e.Text == "" {
		what = st.Muted.Render("removed ") + scan.VisibleLine(orig)
	}
	return st.Escape.Render(Pad(scan.VisibleLine(EscapeKind(e)), 10)) + Pad(scan.VisibleLine(where), sw) +
		Pad("@"+strconv.Itoa(e.Offset), 8) + what
}

// HazardRow is a hazard left in segText as a row of the Escapes view, its
// text cut to room cells.
func HazardRow(st *themes.Styles, hz *scan.Hazard, where, segText string, sw, room int) string {
	shown := ""
	if hz.Offset+hz.Len <= len(segText) {
		shown = scan.VisibleLine(segText[hz.Offset : hz.Offset+hz.Len])
	}
	return st.Hazard.Render(Pad("hazard", 10)) + Pad(scan.VisibleLine(where), sw) +
		Pad("@"+strconv.Itoa(hz.Offset), 8) + st.Muted.Render(string(hz.Class)+" ") + st.Hazard.Render(cells.Clip(shown, max(8, room-len(hz.Class)-1), "…"))
}

// EscapesHead is the heading of the Escapes view's table. Offsets are
// into the text as sent (after escaping), where the viewer shows them;
// check's report gives the offset in the workspace text as well.
func EscapesHead(sw int) string {
	return Pad("what", 10) + Pad("envelope, source · segment", sw) + Pad("@sent", 8) + "was → now · removed · left"
}

// EscapeDetail says in full what an escape did, then at which offset of
// which text: what it did first, so a narrow view shows it.
func EscapeDetail(st *themes.Styles, e *wire.Escape, where string) string {
	kind := st.Escape.Render(scan.VisibleLine(EscapeKind(e))) + " "
	at := st.Muted.Render(" · at byte " + strconv.Itoa(e.Offset) + " of the text as sent, in " + scan.VisibleLine(where))
	if e.Text == "" {
		var classes []string
		for _, h := range scan.Hazards(e.Original) {
			if !slices.Contains(classes, string(h.Class)) {
				classes = append(classes, string(h.Class))
			}
		}
		what := Plural(utf8.RuneCountInString(e.Original), "code point")
		if len(classes) > 0 {
			what += ", " + strings.Join(classes, ", ")
		}
		return kind + scan.VisibleLine(e.Original) + st.Muted.Render(" ("+what+") removed, nothing left in its place (⌫ in the content)") + at
	}
	return kind + scan.VisibleLine(e.Original) + st.Muted.Render(" was replaced by ") + st.Escape.Render(scan.VisibleLine(e.Text)) + at
}

// Pad pads s to w cells; a longer s is cut to leave one space, so table
// columns never run into each other.
func Pad(s string, w int) string {
	if w > 1 && cells.Width(s) >= w {
		return cells.Fit(s, w-1) + " "
	}
	return cells.Fit(s, w)
}

// ShortNum shortens a count: 950, 12.3k, 4.1M.
func ShortNum(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 100000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return strconv.Itoa(n/1000) + "k"
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
}

// ShortSize is a size in B, KB or MB.
func ShortSize(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

// PrefixTitle is the title of the trusted prefix's column of n segments,
// untrusted of them workspace text, for a title room cells wide: the
// longest of its forms that fits, the count first, so a narrow column
// shows it whole.
func PrefixTitle(n, untrusted, room int) string {
	c := strconv.Itoa(n)
	if untrusted == 0 {
		return FitTitle(room, "TRUSTED PREFIX · tools + system ("+c+")", "TRUSTED PREFIX ("+c+")", "PREFIX ("+c+")")
	}
	u := "⚠ " + strconv.Itoa(untrusted) + "/" + c + " UNTRUSTED"
	return FitTitle(room, u+" · TRUSTED PREFIX · tools + system", u+" · TRUSTED PREFIX", u+" · PREFIX", u)
}

// MessagesTitle is the title of the messages' column of n segments, the
// longest form that fits room cells.
func MessagesTitle(n, room int) string {
	c := " (" + strconv.Itoa(n) + ")"
	return FitTitle(room, "MESSAGES · fragments + conversation"+c, "MESSAGES"+c)
}

// FitTitle is the first of titles (longest first) that is at most room
// cells wide, else the last.
func FitTitle(room int, titles ...string) string {
	for _, t := range titles {
		if cells.Width(t) <= room {
			return t
		}
	}
	return titles[len(titles)-1]
}

// Glue reports whether segment i of segs is envelope glue: host framing
// text of no kind (an envelope's closing tag, the next one's opening tag,
// a heading over the blocks) cut from the same part as an enveloped
// segment beside it. The segment columns fold it into the envelope's row.
func Glue(segs []wire.Segment, i int) bool {
	s := &segs[i]
	if s.Kind != wire.KindOther || s.Trust != wire.Trusted || s.Envelope != "" || s.Part == "" {
		return false
	}
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(segs) && segs[j].Part == s.Part && segs[j].Envelope != "" {
			return true
		}
	}
	return false
}

// Frame is the envelope's frame around segment i of segs: the glue before
// it and the glue after it, "" where there is none. Glue between two
// envelopes is shared: its first line (the earlier envelope's closing tag)
// closes the earlier frame and the rest opens the later one, so every byte
// of the glue (a heading over the blocks too) shows in exactly one frame.
func Frame(segs []wire.Segment, i int) (open, close string) {
	if i > 0 && Glue(segs, i-1) && segs[i-1].Part == segs[i].Part {
		t := segs[i-1].Text
		if i > 1 && enveloped(segs, i-2, segs[i].Part) {
			_, t = splitCloser(t)
		}
		open = strings.Trim(t, "\n")
	}
	if i+1 < len(segs) && Glue(segs, i+1) && segs[i+1].Part == segs[i].Part {
		t := segs[i+1].Text
		if i+2 < len(segs) && enveloped(segs, i+2, segs[i].Part) {
			t, _ = splitCloser(t)
		}
		close = strings.Trim(t, "\n")
	}
	return open, close
}

// enveloped reports whether segment k is an envelope's body in the part.
func enveloped(segs []wire.Segment, k int, part string) bool {
	return segs[k].Part == part && segs[k].Envelope != ""
}

// splitCloser cuts glue between two envelopes after its first line that is
// not blank: the earlier envelope's closing tag, then the rest.
func splitCloser(glue string) (closer, rest string) {
	t := strings.TrimLeft(glue, "\n")
	if k := strings.IndexByte(t, '\n'); k >= 0 {
		return t[:k], t[k+1:]
	}
	return t, ""
}

// ExcerptAround is up to n bytes of text on either side of [off, end), on one
// line, sanitised.
func ExcerptAround(text string, off, end, n int) string {
	off = max(0, min(off, len(text)))
	end = max(off, min(end, len(text)))
	lo, hi := max(0, off-n), min(len(text), end+n)
	lo = RuneBoundary(text, lo)
	hi = RuneBoundary(text, hi)
	return scan.VisibleLine(text[lo:hi])
}

// StorySegment is where the tour starts in a request: the position in its
// cache order (order, indices into segs) of the untrusted AGENTS.md text
// (in the system prompt first, where it does harm), else of the first
// untrusted segment, else 0.
func StorySegment(segs []wire.Segment, order []int) int {
	best, rank := 0, 3
	for k, i := range order {
		s := &segs[i]
		if s.Trust != wire.Untrusted {
			continue
		}
		r := 2
		if s.Kind == wire.KindAgentsMD {
			r = 1
			if s.Channel == wire.ChannelSystem {
				r = 0
			}
		}
		if r < rank {
			best, rank = k, r
		}
	}
	return best
}

// SameSegment is the position in a request's cache order (order, indices into segs) of the segment that
// stands for s: the one of the same id, else the same workspace text (kind
// and label: the legacy layout's AGENTS.md section and the isolated one's
// envelope body), else the first of the same kind and trust; else pos, the
// position the cursor had.
func SameSegment(s *wire.Segment, segs []wire.Segment, order []int, pos int) int {
	byKind := -1
	for k, i := range order {
		t := &segs[i]
		switch {
		case t.ID == s.ID:
			return k
		case t.Kind == s.Kind && t.Label == s.Label && s.Label != "" && t.Kind != wire.KindOther:
			byKind = k
		case byKind < 0 && t.Kind == s.Kind && t.Trust == s.Trust && t.Kind != wire.KindOther:
			byKind = k
		}
	}
	if byKind >= 0 {
		return byKind
	}
	return pos
}

// ColumnWidth is the width of a table's column that grows with the window:
// the widest of the texts (made visible) and a space, between lo and hi.
// Only the first 2,000 texts are measured, and those from first on (the
// rows in view), so a long table costs what a screen of it does.
func ColumnWidth(n, first int, text func(i int) string, lo, hi int) int {
	w := 0
	measure := func(from, to int) {
		for i := from; i < to; i++ {
			w = max(w, cells.Width(scan.VisibleLine(text(i)))+1)
		}
	}
	// The two ranges, not a pass over all n: a table view draws this every
	// frame.
	measure(0, min(n, 2000))
	measure(max(first, 2000), min(n, first+200))
	return max(lo, min(w, hi))
}

// Selection is the status line's account of request r, the viewer's
// number c (0-based), and its segment si (-1 none) of tok tokens: plain
// text, hostile (the status line sanitises it).
func Selection(c int, r *wire.Request, si, tok int) string {
	s := "#" + strconv.Itoa(c+1) + " " + r.Name()
	if si >= 0 {
		seg := &r.Segments[si]
		s += " · " + seg.ID + " · " + strings.ToUpper(string(seg.Trust)) + " · " + ShortSize(len(seg.Text)) + " · " + ShortNum(tok) + " tok"
	}
	if n := len(r.Notes); n > 0 {
		s += " · note: " + r.Notes[0]
		if n > 1 {
			s += " (+" + strconv.Itoa(n-1) + ")"
		}
	}
	return s
}
