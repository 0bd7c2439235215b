package main

// Helpers shared by the plain-text report writers.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire/audit"
)

// markBreakpoint marks an explicit cache breakpoint (cache_control), as the
// viewer does ("◆bp"); the marks have one meaning each everywhere (README,
// "Each mark has one meaning").
const markBreakpoint = "◆"

// textWriter is where the plain-text reports write: a strings.Builder or a
// bufio.Writer.
type textWriter interface {
	io.StringWriter
	io.ByteWriter
}

// writeTable writes rows as aligned columns indented by two spaces. The
// first column is cut to fit width; right-aligned columns are marked.
func writeTable(b textWriter, rows [][]string, width int, right map[int]bool) {
	if len(rows) == 0 {
		return
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		measureRow(widths, row)
	}
	fitFirstColumn(widths, width)
	chunks := fitColumns(widths, width)
	for i, cols := range chunks {
		if i > 0 {
			b.WriteByte('\n')
		}
		ws := make([]int, len(cols))
		al := map[int]bool{}
		for j, c := range cols {
			ws[j] = widths[c]
			al[j] = right[c]
		}
		cells := make([]string, len(cols))
		for _, row := range rows {
			for j, c := range cols {
				cells[j] = row[c]
			}
			writeRow(b, cells, ws, al)
		}
	}
}

// fitColumns splits a table too wide for width into tables of its columns,
// each beginning with the first column (the row's name), as many columns a
// table as fit; a last column that does not fit whole but has 10 cells of
// room is cut there instead (the context bar). widths[c] is cut where a
// column is. A table that fits, or an unknown width, is one table of all
// the columns.
func fitColumns(widths []int, width int) [][]int {
	all := make([]int, len(widths))
	for c := range all {
		all[c] = c
	}
	total := 2
	for _, w := range widths {
		total += w + 2
	}
	if width <= 0 || total-2 <= width {
		return [][]int{all}
	}
	var chunks [][]int
	cur, used := []int{0}, 2+widths[0]
	for c := 1; c < len(widths); c++ {
		need := 2 + widths[c]
		if used+need <= width {
			cur, used = append(cur, c), used+need
			continue
		}
		if room := width - used - 2; c == len(widths)-1 && room >= 10 {
			widths[c] = room
			cur = append(cur, c)
			used = width
			continue
		}
		if len(cur) > 1 {
			chunks = append(chunks, cur)
			cur, used = []int{0}, 2+widths[0]
		}
		if used+need > width {
			// One column wider than the table's room alone: cut.
			widths[c] = max(1, width-used-2)
			need = 2 + widths[c]
		}
		cur, used = append(cur, c), used+need
	}
	return append(chunks, cur)
}

// measureRow widens widths to hold the cells of row.
func measureRow(widths []int, row []string) {
	for c, cell := range row {
		widths[c] = max(widths[c], cellWidth(cell))
	}
}

// fitFirstColumn narrows the first column (to no less than 12, and never
// widens it) so that a
// table of these column widths fits width, when it is known.
func fitFirstColumn(widths []int, width int) {
	if width <= 0 {
		return
	}
	rest := 2
	for c := 1; c < len(widths); c++ {
		rest += widths[c] + 2
	}
	if room := width - rest; room < widths[0] {
		widths[0] = max(room, min(12, widths[0]))
	}
}

// writeRow writes one row of a table whose column widths are known: indented
// by two spaces, each cell cut to its column and padded, right-aligned columns
// marked; the last cell is not padded.
func writeRow(b textWriter, row []string, widths []int, right map[int]bool) {
	b.WriteString("  ")
	for c, cell := range row {
		cell = cellTruncate(cell, widths[c])
		pad := widths[c] - cellWidth(cell)
		if right[c] {
			writeSpaces(b, pad)
			b.WriteString(cell)
		} else {
			b.WriteString(cell)
			if c < len(row)-1 {
				writeSpaces(b, pad)
			}
		}
		if c < len(row)-1 {
			b.WriteString("  ")
		}
	}
	b.WriteByte('\n')
}

// spaces is padding written a slice at a time.
const spaces = "                                                                "

// writeSpaces writes n spaces (none when n <= 0).
func writeSpaces(b textWriter, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

// printableASCII reports whether s is only printable ASCII: one cell a
// byte, and nothing to cut around.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// cellWidth is ansi.StringWidth, at once for printable ASCII (most cells:
// ids, kinds, numbers).
func cellWidth(s string) int {
	if printableASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// cellTruncate is ansi.Truncate with the tail "…", at once for printable
// ASCII.
func cellTruncate(s string, width int) string {
	if !printableASCII(s) {
		return ansi.Truncate(s, width, "…")
	}
	switch {
	case len(s) <= width:
		return s
	case width < 1:
		return ""
	}
	return s[:width-1] + "…"
}

// plural writes a count with its noun: "1 break", "2 breaks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// fitLine is s wrapped to width (cells.WrapIndented, continuation lines
// hang cells further in), s itself when it fits or the width is unknown.
func fitLine(s string, width, hang int) string {
	if width <= 0 || cells.Width(s) <= width {
		return s
	}
	return strings.Join(cells.WrapIndented(s, width, hang), "\n")
}

// wrapReport wraps every line of a plain-text report to width, as
// cells.WrapIndented does, continuation lines two spaces further in.
func wrapReport(text string, width int) string {
	if width <= 0 {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		body := strings.TrimSuffix(line, "\n")
		for _, l := range cells.WrapIndented(body, width, 2) {
			b.WriteString(l + "\n")
		}
		if !strings.HasSuffix(line, "\n") {
			s := b.String()
			return s[:len(s)-1]
		}
	}
	return b.String()
}

// paint colours a plain-text report written to a terminal, from the
// theme's styles (never a colour literal here). A nil paint writes no
// escape at all: output that is not a terminal, --no-color, NO_COLOR or
// the mono theme.
type paint struct{ st *themes.Styles }

// paintFor is the paint of a report written to w: the --theme's styles
// when w is a terminal and colour is on; "auto" is light when COLORFGBG
// says the background is (rxvt's and others' "15;0"-style "FG;BG"), else
// dark.
func (app *App) paintFor(w io.Writer) *paint {
	if !isTerminal(w) || app.NoColor || os.Getenv("NO_COLOR") != "" {
		return nil
	}
	name := app.Theme
	if name == "" || name == "auto" {
		name = themes.Dark
		if fgbg := os.Getenv("COLORFGBG"); fgbg != "" {
			bg := fgbg[strings.LastIndex(fgbg, ";")+1:]
			if bg == "7" || bg == "15" {
				name = themes.Light
			}
		}
	}
	if name == themes.Mono {
		return nil
	}
	return &paint{st: themes.New(name)}
}

// colorWriter is w, its colours brought down to what the terminal shows
// (256 or 16 colours, or none for TERM=dumb).
func colorWriter(w io.Writer, p *paint) io.Writer {
	if p == nil {
		return w
	}
	return colorprofile.NewWriter(w, os.Environ())
}

func (p *paint) style(st func(*themes.Styles) lipgloss.Style, s string) string {
	if p == nil || s == "" {
		return s
	}
	return st(p.st).Render(s)
}

// severity is a severity word, padded to width, in its colour.
func (p *paint) severity(sev audit.Severity, width int) string {
	s := fmt.Sprintf("%-*s", width, sev)
	if p == nil {
		return s
	}
	word := string(sev)
	st := map[audit.Severity]lipgloss.Style{audit.SeverityHigh: p.st.High, audit.SeverityMedium: p.st.Medium, audit.SeverityLow: p.st.Low}[sev]
	return st.Render(word) + s[len(word):]
}

// wrapIndented wraps text to width at blanks (a hyphen is no break: tags
// such as </system-reminder> stay whole), every line indented by indent
// spaces; a word longer than a line is cut.
func wrapIndented(text string, indent, width int) []string {
	pad := strings.Repeat(" ", indent)
	room := max(width-indent, 20)
	var lines []string
	for _, l := range wrapWords(text, room) {
		for _, part := range strings.Split(ansi.Hardwrap(l, room, true), "\n") {
			lines = append(lines, pad+part)
		}
	}
	if len(lines) == 0 {
		lines = []string{pad}
	}
	return lines
}
