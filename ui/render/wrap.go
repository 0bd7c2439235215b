package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
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
