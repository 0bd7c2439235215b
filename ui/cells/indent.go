package cells

// Wrapping and cutting of plain-text reports: at spaces, continuation lines
// indented as the first, never inside a "[U+XXXX]" token.

import (
	"strings"

	"github.com/rivo/uniseg"
)

// WrapIndented wraps one line of safe text (every hazard already shown
// visibly) to width cells. It breaks at spaces; a word wider than the line
// is broken between characters, never inside a "[U+E0074]" token, so a
// hazard's name stays whole. Continuation lines keep the line's own indent,
// plus hang more spaces. Trailing spaces are dropped. A width of 0 or
// less leaves the line whole.
func WrapIndented(s string, width, hang int) []string {
	s = strings.TrimRight(s, " ")
	if width <= 0 || Width(s) <= width {
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
		ww := Width(word)
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
		for _, a := range atoms(word) {
			aw := Width(a)
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

// atoms cuts a word into the pieces a hard break may fall between: a
// "[U+XXXX]" token whole, else one grapheme cluster.
func atoms(word string) []string {
	var atoms []string
	for word != "" {
		if n := tokenLen(word); n > 0 {
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

// tokenLen is the length of the "[U+XXXX]" token s starts with (four to
// six hexadecimal digits), or 0.
func tokenLen(s string) int {
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

// ClipWhole cuts safe text to width cells with "…", never inside a
// "[U+XXXX]" token or a grapheme cluster.
func ClipWhole(s string, width int) string {
	if Width(s) <= width {
		return s
	}
	var b strings.Builder
	w := 0
	for _, a := range atoms(s) {
		aw := Width(a)
		if w+aw > width-1 {
			break
		}
		b.WriteString(a)
		w += aw
	}
	return b.String() + "…"
}
