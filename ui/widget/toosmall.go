package widget

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// TooSmall is the screen of a terminal of w×h cells, smaller than the
// minW×minH the viewer draws its panes in: what is too small and what to
// do, centred, wrapped to the width (at least its first words when even
// that does not fit), exactly h lines of w cells.
func TooSmall(st *themes.Styles, w, h, minW, minH int) string {
	got := fmt.Sprintf("%dx%d here; wirelens needs %dx%d at least.", w, h, minW, minH)
	w, h = max(1, w), max(1, h)
	msg := []string{"Terminal too small", got, "Make the window larger, or press q to quit."}
	var rows []string
	for i, l := range msg {
		for _, wl := range strings.Split(ansi.Wordwrap(l, w, " "), "\n") {
			if i == 0 {
				wl = st.Accent.Render(wl)
			}
			rows = append(rows, wl)
		}
	}
	rows = rows[:min(len(rows), h)]
	lines := make([]string, h)
	y := (h - len(rows)) / 2
	for i := range lines {
		l := ""
		if i >= y && i-y < len(rows) {
			l = rows[i-y]
			l = strings.Repeat(" ", max(0, (w-cells.Width(l))/2)) + l
		}
		lines[i] = cells.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}
