package render

// The rows that name a segment: its trust badge, its line in the segment
// columns and the trust map, the content pane's title, and the rows of the
// Escapes view. Every text from a payload passes through scan.VisibleLine.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
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
	Break    int  // where the cache prefix ends in it, -1 not here
	Findings int  // findings of the audit in it
	Hazards  int  // hazards left in it
	Tokens   int  // its estimated tokens
	Selected bool // it is the cursor's
	Focused  bool // the cursor's pane has the focus
}

// SegmentRows are the two rows of segment s in a column inner cells wide:
// its badge and name, then its marks, where it is and its size. Marks come
// first on the second row, so a narrow column never cuts them off.
func SegmentRows(st *themes.Styles, s *wire.Segment, mk SegmentMarks, inner int) (string, string) {
	cur := "  "
	if mk.Selected {
		cur = "▸ "
	}
	l1 := cur + TrustBadge(st, s.Trust) + " " + st.Header.Render(scan.VisibleLine(SegmentName(s)))
	if s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem {
		l1 += " " + st.High.Render("⚠ in system")
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
	if s.CacheBreakpoint {
		marks = append(marks, st.Accent.Render("◆bp"))
	}
	l2 := "   "
	if len(marks) > 0 {
		l2 += strings.Join(marks, " ") + " "
	}
	l2 += st.Muted.Render(scan.VisibleLine(where) + " · " + ShortSize(len(s.Text)) + " · " + ShortNum(mk.Tokens) + " tok")
	if mk.Selected {
		sty := st.Selected
		if mk.Focused {
			sty = st.Cursor
		}
		l1 = sty.Render(ansi.Strip(cells.Fit(l1, inner)))
	}
	return l1, l2
}

// TrustCell is segment s in the trust map, w cells wide: its badge, name,
// size and label.
func TrustCell(st *themes.Styles, s *wire.Segment, tok, w int) string {
	l := " " + TrustBadge(st, s.Trust) + " " + scan.VisibleLine(SegmentName(s))
	if s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem {
		l += " " + st.High.Render("⚠ in system")
	}
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
	title := scan.VisibleLine(s.ID) + " · " + string(s.Kind) + " · " + strings.ToUpper(string(s.Trust)) + " · " + string(s.Channel)
	if s.Envelope != "" {
		title += " <" + scan.VisibleLine(s.Envelope) + ">"
	}
	title += " · " + ShortSize(len(s.Text)) + " · " + ShortNum(tok) + " tok"
	if !lit {
		title += " · highlighting…"
	}
	return title + " · " + strconv.Itoa(percent) + "%"
}

// EscapeRow is an applied escape as a row of the Escapes view, its segment
// column sw cells wide.
func EscapeRow(st *themes.Styles, e *wire.Escape, segID string, sw int) string {
	orig := e.Original
	if orig == "" {
		orig = "?"
	}
	return st.Escape.Render(Pad("escape", 8)) + Pad(scan.VisibleLine(e.Rule), 14) +
		Pad(scan.VisibleLine(segID), sw) + Pad("@"+strconv.Itoa(e.Offset), 9) +
		scan.VisibleLine(orig) + " → " + st.Escape.Render(scan.VisibleLine(e.Text))
}

// HazardRow is a hazard left in segText as a row of the Escapes view.
func HazardRow(st *themes.Styles, hz *scan.Hazard, segID, segText string, sw int) string {
	shown := ""
	if hz.Offset+hz.Len <= len(segText) {
		shown = scan.VisibleLine(segText[hz.Offset : hz.Offset+hz.Len])
	}
	return st.Hazard.Render(Pad("hazard", 8)) + Pad(string(hz.Class), 14) +
		Pad(scan.VisibleLine(segID), sw) + Pad("@"+strconv.Itoa(hz.Offset), 9) +
		st.Hazard.Render(cells.Clip(shown, 60, "…"))
}

// EscapesHead is the heading of the Escapes view's table.
func EscapesHead(sw int) string {
	return Pad("what", 8) + Pad("rule/class", 14) + Pad("segment", sw) + Pad("offset", 9) + "was → now / shown as"
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
