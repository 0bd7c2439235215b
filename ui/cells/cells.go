// Package cells measures, cuts and wraps text for the viewer in terminal
// cells. Terminals disagree on how many cells some text takes: x/ansi and
// lipgloss measure a grapheme cluster as a whole (a ZWJ family is two
// cells), Bubble Tea's renderer on a terminal without Unicode core mode
// (2027) and most terminals count cells per code point (the same family is
// six), and others draw the parts of a ZWJ sequence, or an emoji and its
// skin-tone modifier, apart. A row measured one way and drawn another runs
// into the pane beside it and leaves stale cells behind. So every row is cut
// by the widest of these measures and padded to its width by it: it never
// takes more cells than its width on any terminal.
package cells

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/wire/scan"
)

// Width is the widest plausible width of a styled string: escape sequences
// take no cells, and each grapheme cluster the most cells any terminal may
// give it (clusterCells).
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80):
			// ASCII not followed by a code point that may join it ("0"
			// and U+FE0F are one cluster, drawn as an emoji two cells wide).
			n++
			i++
		case c < 0x20 || c == 0x7f:
			// ESC starts a sequence (SGR from lipgloss); other controls
			// never reach here (the sanitiser shows them) and draw nothing.
			_, _, l, _ := ansi.DecodeSequence(s[i:], ansi.NormalState, nil)
			i += max(1, l)
		default:
			cluster, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			if len(cluster) == 0 {
				i++
				continue
			}
			n += clusterCells(cluster, w)
			i += len(cluster)
		}
	}
	return n
}

// clusterCells is the most cells a terminal may draw a grapheme cluster in,
// given its width as one cluster (gw): that, a cell count per code point
// (wcwidth), the parts of a ZWJ sequence drawn apart, and a cell more for a
// prepended concatenation mark, which x/ansi counts as nothing.
func clusterCells(cluster string, gw int) int {
	w := max(gw, ansi.StringWidthWc(cluster))
	if strings.Contains(cluster, "\u200d") {
		parts := 0
		for _, p := range strings.Split(cluster, "\u200d") {
			parts += max(ansi.StringWidth(p), ansi.StringWidthWc(p))
		}
		w = max(w, parts)
	}
	for _, r := range cluster {
		if scan.IsConcatenationMark(r) {
			w++
		}
	}
	return w
}

// Clip cuts a styled string to at most w cells by the widest measure,
// ending it with tail when it is cut; escape sequences are kept (as
// ansi.Truncate does, which it is for text every measure agrees on). It
// keeps the longest cut of ansi.Truncate's that fits: a longer cut never
// takes fewer cells.
func Clip(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	if t := ansi.Truncate(s, w, tail); Width(t) <= w {
		return t
	}
	best := ""
	if Width(tail) <= w {
		best = tail
	}
	for lo, hi := 1, w-1; lo <= hi; {
		n := (lo + hi) / 2
		if t := ansi.Truncate(s, n, tail); Width(t) <= w {
			best, lo = t, n+1
		} else {
			hi = n - 1
		}
	}
	return best
}

// Fit cuts or pads a styled line to exactly w cells by the widest measure:
// on a terminal that draws some of it narrower, it ends early but never
// runs into what is beside it.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := Width(s)
	if n > w {
		s = Clip(s, w, "…")
		n = Width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// Pieces tells Wrap what a renderer draws besides the characters of a
// text: from offset i it draws a piece up to end (end > i), with extra cells
// of its own (the brackets a no-colour theme puts around a mark, a marker
// drawn before it). Wrap asks at the start of every row and at the end of
// every piece it was told, at increasing offsets. A renderer that cuts a
// piece at the end of a row starts a new one, with its extra cells, on the
// next row.
type Pieces func(i int) (end, extra int)

// Wrap wraps text to width cells from byte offset from and returns the
// start offsets of up to max rows (max < 0: all), stopping at stop (when
// given) too. Everything the renderer draws is counted: hazards as the
// sanitiser shows them, the extra cells of each piece (pieces, nil for
// none), and every code point by the widest measure (Width) on its own.
// However many hazards and marks a row holds, it is never wider than Fit
// lets it be, so wrapping, not cutting, moves text to the next row and no
// character is hidden. Rows break at word boundaries: after the spaces that
// end a word, which stay on the row they end even past its width (a
// renderer draws a row without its trailing spaces, RowEnd). A word longer
// than a row is broken between grapheme clusters (a ZWJ sequence or an
// emoji and its modifier stay on one row, where the sanitiser sees them
// whole) unless one cluster is wider than a row; a hazard is never split
// (its visible form, such as [U+E0074], stays whole) unless it is wider than
// a row (a long unterminated OSC string), then between its code points.
func Wrap(text string, hazards []scan.Hazard, pieces Pieces, width, from, limit int, stop ...int) []int {
	if width < 1 {
		width = 1
	}
	end := len(text)
	if len(stop) > 0 {
		end = min(end, stop[0])
	}
	rows := []int{from}
	if limit == 0 {
		return rows[:0]
	}
	hi := sort.Search(len(hazards), func(i int) bool { return hazards[i].Offset >= from })
	// rest is what is left of a hazard cut at the end of a piece or a row:
	// the renderer shows it as a hazard of its own.
	var rest scan.Hazard
	if hi > 0 {
		if h := hazards[hi-1]; h.Offset+h.Len > from {
			rest = scan.Hazard{Offset: from, Len: h.Offset + h.Len - from, Class: h.Class, Rune: h.Rune}
		}
	}
	col := 0
	// The piece the renderer draws at i: [pieceStart, pieceEnd), with extra
	// cells counted with its first unit. pieceEnd < 0: ask at i.
	pieceStart, pieceEnd, extra := from, -1, 0
	if pieces == nil {
		pieceEnd = len(text)
	}
	var widths map[string]int
	// runeCells measures the code point at i as shown, once per distinct
	// code point: sanitising and measuring every rune of a long non-ASCII
	// text again was most of the wrap index's cost.
	runeCells := func(i int) (int, int) {
		if c := text[i]; c < 0x80 {
			return 1, 1
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		r := text[i : i+n]
		w, ok := widths[r]
		if !ok {
			w = Width(scan.VisibleLine(r))
			if widths == nil {
				widths = map[string]int{}
			}
			widths[r] = w
		}
		return w, n
	}
	// wb is the last word boundary of the row (0: none yet): where the
	// row breaks when a word overflows it, with the hazard state there.
	wb, wbHi, wbRest := 0, 0, scan.Hazard{}
	word := false // the row holds more than spaces
	for i := from; i < end; {
		if limit > 0 && len(rows) >= limit {
			return rows
		}
		c := text[i]
		if i > rows[len(rows)-1] && c != ' ' && c != '\t' && (text[i-1] == ' ' || text[i-1] == '\t') {
			wb, wbHi, wbRest = i, hi, rest
		}
		if c == '\n' {
			rows = append(rows, i+1)
			col, word = 0, false
			i++
			if pieces != nil {
				pieceEnd = -1
			}
			continue
		}
		if pieceEnd < 0 || i >= pieceEnd {
			pieceStart = i
			pieceEnd, extra = pieces(i)
			pieceEnd = max(pieceEnd, i+1)
		}
		ex := 0 // the piece's own cells, counted with its first unit
		if i == pieceStart {
			ex = extra
		}
		var w, n int
		var hz scan.Hazard
		switch {
		case rest.Len > 0 && rest.Offset == i:
			hz = rest
		case hi < len(hazards) && hazards[hi].Offset == i:
			hz = hazards[hi]
		}
		switch {
		case hz.Len > 0:
			n = min(hz.Len, pieceEnd-i)
			w = Width(scan.VisibleLine(text[i : i+n]))
			if w+ex > width {
				n, w = fitHazard(text[i:i+n], width-ex)
			}
		case c >= 0x20 && c < 0x7f || c == '\t' || c == '\r':
			w, n = 1, 1
		default:
			w, n = runeCells(i)
		}
		if lim := min(end, pieceEnd, hazardAt(hazards, hi, end)); hz.Len == 0 && i+n < lim && text[i+n] >= 0x80 {
			if r, _ := utf8.DecodeRuneInString(text[i+n:]); mayExtend(r) {
				// A grapheme cluster, up to the next hazard or piece, measured
				// rune by rune; one wider than a row is broken between its runes.
				cluster, _ := ansi.FirstGraphemeCluster(text[i:lim], ansi.GraphemeWidth)
				for i+n < i+len(cluster) {
					rw, rn := runeCells(i + n)
					if ex+w+rw > width {
						break
					}
					w += rw
					n += rn
				}
			}
		}
		w += ex
		if col > 0 && col+w > width {
			if (c == ' ' || c == '\t') && hz.Len == 0 && ex == 0 && word && wordFollows(text, i) {
				// A space past the width hangs at the end of its row.
				i += n
				continue
			}
			if wb > rows[len(rows)-1] && wb < i {
				// Break before the word: measure it again on the next row.
				i, hi, rest = wb, wbHi, wbRest
			}
			rows = append(rows, i)
			col, word = 0, false
			if pieces != nil {
				// The renderer starts a piece at the row, with its own cells.
				pieceEnd = -1
			}
			continue // measured again at the start of the row
		}
		col += w
		word = word || c != ' ' && c != '\t'
		if hz.Len > 0 {
			if rest.Len > 0 && rest.Offset == i {
				rest = scan.Hazard{}
			} else {
				hi++
			}
			if n < hz.Len {
				rest = scan.Hazard{Offset: i + n, Len: hz.Len - n, Class: hz.Class, Rune: hz.Rune}
			}
		}
		i += n
	}
	return rows
}

// RowEnd is where a renderer stops drawing a row [start, end) that Wrap
// made: before the spaces it ends with when the text goes on past it on
// the next row and the row holds more than spaces (they may hang past the
// width, and a blank cell shows them as well as a space), at end otherwise.
func RowEnd(text string, start, end int) int {
	if end >= len(text) || text[end] == '\n' {
		return end
	}
	e := end
	for e > start && (text[e-1] == ' ' || text[e-1] == '\t') {
		e--
	}
	if e == start {
		return end // a row of spaces only: they did not hang
	}
	return e
}

// wordFollows reports whether the spaces at i are followed by more of
// their line: only then do they hang past a row's width (RowEnd).
func wordFollows(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && text[i] != '\n'
}

// fitHazard is the longest run of whole code points at the start of a
// hazard's text that its sanitised form shows in at most width cells (one
// code point at least), and that form's width.
func fitHazard(s string, width int) (int, int) {
	n := 0
	for n < len(s) {
		_, rn := utf8.DecodeRuneInString(s[n:])
		if n > 0 && Width(scan.VisibleLine(s[:n+rn])) > width {
			break
		}
		n += rn
	}
	return n, Width(scan.VisibleLine(s[:n]))
}

// hazardAt is the offset of hazards[hi], or end when there is none.
func hazardAt(hazards []scan.Hazard, hi, end int) int {
	if hi < len(hazards) {
		return hazards[hi].Offset
	}
	return end
}

// mayExtend reports whether r may continue the grapheme cluster before it:
// a mark, a joiner, a variation selector, an emoji modifier or tag, a
// regional indicator, a Hangul jamo or syllable. Others start a cluster
// (near enough for wrapping: a cluster it misses is broken between rows,
// never measured narrower).
func mayExtend(r rune) bool {
	switch {
	case r < 0x0300, r >= 0x3100 && r <= 0xA65F:
		// Latin-1, and the CJK ideographs: no marks.
		return false
	case r == 0x200C, r == 0x200D, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0000 && r <= 0xE0FFF:
		return true
	case r >= 0x1F3FB && r <= 0x1F3FF, r >= 0x1F1E6 && r <= 0x1F1FF:
		return true
	case r >= 0x1100 && r <= 0x11FF, r >= 0xA960 && r <= 0xA97F, r >= 0xAC00 && r <= 0xD7FF:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}
