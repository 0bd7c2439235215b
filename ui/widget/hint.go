package widget

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/scan"
)

// HintBox is a hint (the tour) as a box w cells wide under the panes,
// wrapped at words to the width: it is never more than a third of the h
// rows of the screen; short stands in for the text where it does not fit
// (none: the text is cut, with "…").
func HintBox(st *themes.Styles, text, short string, w, h int) []string {
	room := max(1, h/3-2)
	wrap := func(text string) []string {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			wrapped := ansi.Wordwrap(scan.VisibleLine(l), max(10, w-4), " ")
			for _, wl := range strings.Split(wrapped, "\n") {
				lines = append(lines, st.Hint.UnsetBorderStyle().UnsetPadding().Render(" "+wl))
			}
		}
		return lines
	}
	lines := wrap(text)
	if len(lines) > room && short != "" {
		lines = wrap(short)
	}
	if len(lines) > room {
		lines = append(lines[:room-1:room-1], " …")
	}
	return Box(st, st.Accent.Render("guide"), lines, w, len(lines)+2, true)
}

// ContentScroll is where a content pane h rows high is in its text: by
// rows once they are counted, by bytes (shown as a percentage) before.
func ContentScroll(c *render.Content, h int) Scroll {
	if c.Rows != nil {
		return Scroll{Top: c.Top, Shown: h, Total: len(c.Rows)}
	}
	if len(c.Text) == 0 || c.Width <= 0 {
		return Scroll{}
	}
	// Before the rows are counted: a screen is about h rows of Width bytes.
	return Scroll{Top: c.TopOff, Shown: min(len(c.Text)-c.TopOff, max(1, h*c.Width)), Total: len(c.Text), Bytes: true}
}
