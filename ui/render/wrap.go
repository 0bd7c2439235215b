package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// WrapStyled is a text already made visible, word-wrapped to w cells (a
// word longer than w broken), each line drawn in st on its own, so that no
// style runs from one line into the next; none when show is false.
func WrapStyled(st lipgloss.Style, text string, show bool, w int) []string {
	if !show {
		return nil
	}
	lines := strings.Split(ansi.Hardwrap(ansi.Wordwrap(text, max(10, w), ""), max(10, w), true), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// Window is cells x to x+w of a drawn line (styled, sanitised), exactly w
// cells: a line cut at either edge shows it with a dim marker there (‹ on
// the left when x > 0, › on the right when the line goes on).
func Window(st *themes.Styles, line string, x, w int) string {
	if w <= 0 {
		return ""
	}
	total := cells.Width(line)
	x = max(0, x)
	out := ansi.Cut(line, x, x+w)
	if x > 0 && total > x {
		out = st.Muted.Render("‹") + ansi.Cut(out, 1, w)
	}
	if total > x+w {
		out = ansi.Cut(out, 0, w-1) + st.Muted.Render("›")
	}
	return cells.Fit(out, w)
}
