package main

// Helpers shared by the plain-text report writers.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// writeTable writes rows as aligned columns indented by two spaces. The
// first column is cut to fit width; right-aligned columns are marked.
func writeTable(b *strings.Builder, rows [][]string, width int, right map[int]bool) {
	if len(rows) == 0 {
		return
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for c, cell := range row {
			widths[c] = max(widths[c], ansi.StringWidth(cell))
		}
	}
	if width > 0 {
		rest := 2
		for c := 1; c < len(widths); c++ {
			rest += widths[c] + 2
		}
		if room := width - rest; room < widths[0] {
			widths[0] = max(room, 12)
		}
	}
	for _, row := range rows {
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
}

// groupDigits writes n with thin separators: 12,345.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// plural writes a count with its noun: "1 break", "2 breaks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
