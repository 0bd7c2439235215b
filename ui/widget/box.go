package widget

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// Box frames lines in a w×h box with a title in the top edge.
func Box(st *themes.Styles, title string, lines []string, w, h int, focused bool) []string {
	return ScrollBox(st, title, lines, w, h, focused, Scroll{})
}

// Scroll is where the rows a box shows sit in all the rows it could
// show: rows Top to Top+Shown of Total (bytes of a text whose rows are not
// counted yet, with Bytes set: the label is then a percentage).
type Scroll struct {
	Top, Shown, Total int
	Bytes             bool
	// Track is how many of the box's rows, from its top, the scroll bar
	// runs along (0: all; a table's rows, not its details).
	Track int
}

// trackIn is the scroll bar's length in a box of n inner rows.
func (s Scroll) trackIn(n int) int {
	if s.Track > 0 {
		return min(n, s.Track)
	}
	return n
}

// More reports whether there are rows the box does not show.
func (s Scroll) More() bool { return s.Shown > 0 && s.Total > s.Shown }

// thumb is the rows of the scroll bar's thumb in a track of n rows.
func (s Scroll) thumb(n int) (int, int) {
	size := max(1, min(n, n*s.Shown/max(1, s.Total)))
	from := 0
	if over := s.Total - s.Shown; over > 0 {
		from = min(n-size, (s.Top*(n-size)+over/2)/over)
	}
	return from, from + size
}

// label is the position in words for the bottom edge: "↑↓ 12-31/45".
func (s Scroll) label() string {
	arrows := ""
	if s.Top > 0 {
		arrows += "↑"
	}
	if s.Top+s.Shown < s.Total {
		arrows += "↓"
	}
	if s.Bytes {
		return fmt.Sprintf("%s %d%%", arrows, min(s.Top+s.Shown, s.Total)*100/max(1, s.Total))
	}
	return fmt.Sprintf("%s %d-%d/%d", arrows, s.Top+1, min(s.Top+s.Shown, s.Total), s.Total)
}

// ScrollBox is Box with a scroll indicator when sc says rows are hidden: a
// thumb on the right edge (a shape, so it reads without colour) and the
// position in the bottom edge.
func ScrollBox(st *themes.Styles, title string, lines []string, w, h int, focused bool, sc Scroll) []string {
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
	if sc.More() {
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
		out = append(out, left+cells.Fit(l, inner)+r)
	}
	bottom := strings.Repeat(edge.Bottom, inner)
	if sc.More() {
		if lb := " " + sc.label() + " "; cells.Width(lb)+2 <= inner {
			bottom = strings.Repeat(edge.Bottom, inner-cells.Width(lb)-1) + lb + edge.Bottom
		}
	}
	out = append(out, frame.Render(edge.BottomLeft+bottom+edge.BottomRight))
	return out
}

// WithScroll puts the scroll indicator of sc on a box that another pane
// drew, w cells wide from cell x of each line (focused or not).
func WithScroll(st *themes.Styles, lines []string, x, w int, focused bool, sc Scroll) []string {
	h := len(lines)
	if !sc.More() || w < 4 || h < 3 {
		return lines
	}
	frame := st.Frame
	if focused {
		frame = st.FrameFocus
	}
	t0, t1 := sc.thumb(sc.trackIn(h - 2))
	for i := t0; i < t1; i++ {
		lines[1+i] = SetCells(lines[1+i], x+w-1, frame.Render("█"))
	}
	inner := w - 2
	if lb := " " + sc.label() + " "; cells.Width(lb)+2 <= inner {
		lines[h-1] = SetCells(lines[h-1], x+w-2-cells.Width(lb), frame.Render(lb))
	}
	return lines
}

// SetCells draws s (one or more cells) over a styled line from cell x.
func SetCells(line string, x int, s string) string {
	w := cells.Width(s)
	return cells.Fit(cells.Clip(line, x, ""), x) + s + ansi.TruncateLeft(line, x+w, "")
}

// HJoin puts blocks of equal height side by side.
func HJoin(blocks ...[]string) []string {
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

// FillBar is a bar of n cells filled to frac.
func FillBar(frac float64, n int) string {
	f := int(frac*float64(n) + 0.5)
	f = max(0, min(n, f))
	return strings.Repeat("█", f) + strings.Repeat("░", n-f)
}
