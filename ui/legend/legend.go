// Package legend draws the legend of the viewer's marks (✂ cache break,
// ⚑ findings, ! hazards): at the foot of a pane's rows, or on its lower
// edge. Each mark has one meaning everywhere: the viewer's help, the README
// and inspect say the same.
package legend

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// Items are the marks of the request list with their one meaning
// each (the help, the README and inspect say the same).
var Items = [][2]string{
	{"✂", "cache break"},
	{"⚑", "findings"},
	{"!", "hazards"},
}

// parts are the legend's items drawn, with their widths.
func parts(st *themes.Styles) ([]string, []int) {
	var parts []string
	var widths []int
	for _, it := range Items {
		var sty lipgloss.Style
		switch it[0] {
		case "⚑":
			sty = st.High
		case "!":
			sty = st.Hazard
		default:
			sty = st.Break
		}
		parts = append(parts, sty.Render(it[0])+st.Muted.Render(" "+it[1]))
		widths = append(widths, cells.Width(it[0]+" "+it[1]))
	}
	return parts, widths
}

// Foot puts the legend of the marks at the foot of a list of rows
// lines (rows inner cells wide, at most height of them), its items wrapped
// to the width, when the rows leave room for it and a blank row above; else
// the rows are returned as they are.
func Foot(st *themes.Styles, lines []string, inner, height int) []string {
	items, widths := parts(st)
	var legend []string
	line, w := "", 0
	for i, p := range items {
		switch {
		case w == 0:
		case w+2+widths[i] <= inner-1:
			line, w = line+"  ", w+2
		default:
			legend = append(legend, line)
			line, w = "", 0
		}
		line, w = line+p, w+widths[i]
	}
	legend = append(legend, line)
	for _, l := range legend {
		if cells.Width(l) > inner-1 {
			return lines
		}
	}
	if len(lines)+1+len(legend) > height {
		return lines
	}
	out := append([]string(nil), lines...)
	for len(out) < height-len(legend) {
		out = append(out, "")
	}
	for _, l := range legend {
		out = append(out, " "+l)
	}
	return out
}

// Edge is the lower edge of a box w cells wide carrying the legend
// ("╰─ ✂ cache break  ⚑ findings  ! hazards ─╯"), or a plain edge when it
// does not fit.
func Edge(st *themes.Styles, w int, focused bool) string {
	edge, frame := st.Edge, st.Frame
	if focused {
		edge, frame = st.EdgeFocus, st.FrameFocus
	}
	inner := w - 2
	items, widths := parts(st)
	plain := 2 * (len(items) - 1)
	for _, n := range widths {
		plain += n
	}
	// "─ " before and " " after the legend, at least one "─" to close.
	if room := inner - 3 - plain; room >= 1 {
		return frame.Render(edge.BottomLeft+edge.Bottom) + " " + strings.Join(items, "  ") + " " +
			frame.Render(strings.Repeat(edge.Bottom, room)+edge.BottomRight)
	}
	return frame.Render(edge.BottomLeft + strings.Repeat(edge.Bottom, max(0, inner)) + edge.BottomRight)
}
