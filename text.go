package main

// Helpers shared by the plain-text report writers.

import (
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
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
	for _, row := range rows {
		writeRow(b, row, widths, right)
	}
}

// measureRow widens widths to hold the cells of row.
func measureRow(widths []int, row []string) {
	for c, cell := range row {
		widths[c] = max(widths[c], ansi.StringWidth(cell))
	}
}

// fitFirstColumn narrows the first column (to no less than 12) so that a
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
		widths[0] = max(room, 12)
	}
}

// writeRow writes one row of a table whose column widths are known: indented
// by two spaces, each cell cut to its column and padded, right-aligned columns
// marked; the last cell is not padded.
func writeRow(b textWriter, row []string, widths []int, right map[int]bool) {
	b.WriteString("  ")
	for c, cell := range row {
		cell = ansi.Truncate(cell, widths[c], "…")
		pad := strings.Repeat(" ", widths[c]-ansi.StringWidth(cell))
		if right[c] {
			b.WriteString(pad + cell)
		} else if c == len(row)-1 {
			b.WriteString(cell)
		} else {
			b.WriteString(cell + pad)
		}
		if c < len(row)-1 {
			b.WriteString("  ")
		}
	}
	b.WriteByte('\n')
}

// plural writes a count with its noun: "1 break", "2 breaks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// wrapIndented wraps one line of safe text (every hazard already shown
// visibly) to width cells. It breaks at spaces; a word wider than the line
// is broken between characters, never inside a "[U+E0074]" token, so a
// hazard's name stays whole. Continuation lines keep the line's own indent,
// plus hang more spaces. A width of 0 or less leaves the line whole.
func wrapIndented(s string, width, hang int) []string {
	s = strings.TrimRight(s, " ")
	if width <= 0 || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(body)]
	cont := indent + strings.Repeat(" ", hang)
	// Keep at least a third of the line (and 12 cells) for text.
	for len(cont) > 0 && width-len(cont) < max(12, width/3) {
		cont = cont[:len(cont)/2]
	}
	var out []string
	line, lw := indent, len(indent)
	fresh := true // nothing but the indent on line yet
	flush := func() {
		out = append(out, strings.TrimRight(line, " "))
		line, lw, fresh = cont, len(cont), true
	}
	for _, word := range strings.Split(body, " ") {
		ww := ansi.StringWidth(word)
		switch {
		case fresh && word == "" && len(out) > 0:
			continue // the spaces a break replaced
		case fresh:
		case lw+1+ww <= width:
			line, lw = line+" ", lw+1
		default:
			flush()
			if word == "" {
				continue
			}
		}
		if lw+ww <= width {
			line, lw, fresh = line+word, lw+ww, false
			continue
		}
		for _, a := range wrapAtoms(word) {
			aw := ansi.StringWidth(a)
			if lw+aw > width && !fresh {
				flush()
			}
			line, lw, fresh = line+a, lw+aw, false
		}
	}
	if !fresh || len(out) == 0 {
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// wrapAtoms cuts a word into the pieces a hard break may fall between: a
// "[U+XXXX]" token whole, else one grapheme cluster.
func wrapAtoms(word string) []string {
	var atoms []string
	for word != "" {
		if n := hazardToken(word); n > 0 {
			atoms = append(atoms, word[:n])
			word = word[n:]
			continue
		}
		cluster, rest, _, _ := uniseg.FirstGraphemeClusterInString(word, -1)
		atoms = append(atoms, cluster)
		word = rest
	}
	return atoms
}

// hazardToken is the length of the "[U+XXXX]" token s starts with (four to
// six hexadecimal digits), or 0.
func hazardToken(s string) int {
	if !strings.HasPrefix(s, "[U+") {
		return 0
	}
	for i := 3; i < len(s) && i <= 9; i++ {
		c := s[i]
		switch {
		case c == ']' && i >= 7:
			return i + 1
		case '0' <= c && c <= '9', 'A' <= c && c <= 'F':
		default:
			return 0
		}
	}
	return 0
}

// wrapReport wraps every line of a plain-text report to width, as
// wrapIndented does, continuation lines two spaces further in.
func wrapReport(text string, width int) string {
	if width <= 0 {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		body := strings.TrimSuffix(line, "\n")
		for _, l := range wrapIndented(body, width, 2) {
			b.WriteString(l + "\n")
		}
		if !strings.HasSuffix(line, "\n") {
			s := b.String()
			return s[:len(s)-1]
		}
	}
	return b.String()
}

// clipAtoms cuts safe text to width cells with "…", never inside a
// "[U+XXXX]" token or a grapheme cluster.
func clipAtoms(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	w := 0
	for _, a := range wrapAtoms(s) {
		aw := ansi.StringWidth(a)
		if w+aw > width-1 {
			break
		}
		b.WriteString(a)
		w += aw
	}
	return b.String() + "…"
}
