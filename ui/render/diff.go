package render

// The side-by-side text diff: a request diff laid out as rows, and a row
// drawn.

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire/scan"
)

// DiffLine is one row of the side-by-side diff.
type DiffLine struct {
	Left, Right string // hostile text
	LK, RK      byte   // ' ' same, '-' removed, '+' added, 'h' header, '~' elided, 0 nothing
	// LW and RW are the changed words of a replaced line: byte ranges in
	// Left and Right.
	LW, RW [][2]int
}

// LayoutDiff lays a diff out as side-by-side rows, segment by segment;
// unchanged text is elided to a few lines of context. It also returns the
// row of the first divergence.
func LayoutDiff(d *diff.RequestDiff) ([]DiffLine, int) {
	var out []DiffLine
	first := -1
	const ctx = 3
	for i := range d.Segments {
		s := &d.Segments[i]
		hdr := s.ID + " · " + string(s.Status)
		if s.Status != diff.StatusSame && first < 0 {
			first = len(out)
		}
		if s.Status == diff.StatusSame {
			n := " (" + Plural(strings.Count(s.Seg().Text, "\n")+1, "line") + ")"
			out = append(out, DiffLine{Left: hdr + n, Right: hdr + n, LK: 'h', RK: 'h'})
			continue
		}
		out = append(out, DiffLine{Left: hdr, Right: hdr, LK: 'h', RK: 'h'})
		var dels, ins []string
		var delW, insW [][][2]int
		flush := func() {
			for i := 0; i < max(len(dels), len(ins)); i++ {
				var l DiffLine
				if i < len(dels) {
					l.Left, l.LK, l.LW = dels[i], '-', delW[i]
				}
				if i < len(ins) {
					l.Right, l.RK, l.RW = ins[i], '+', insW[i]
				}
				if l.LK == '-' && l.RK == '+' {
					l.LW, l.RW = changedChars(l.Left, l.Right, l.LW, l.RW)
				}
				out = append(out, l)
			}
			dels, ins, delW, insW = nil, nil, nil, nil
		}
		for hi, h := range s.Hunks {
			lines := strings.Split(strings.TrimSuffix(h.Text, "\n"), "\n")
			switch h.Op {
			case diff.OpDelete:
				dels = append(dels, lines...)
				delW = append(delW, WordRanges(h, len(lines))...)
			case diff.OpInsert:
				ins = append(ins, lines...)
				insW = append(insW, WordRanges(h, len(lines))...)
			default:
				flush()
				keepHead := hi > 0
				keepTail := hi < len(s.Hunks)-1
				if len(lines) <= 2*ctx+1 {
					for _, l := range lines {
						out = append(out, DiffLine{Left: l, Right: l, LK: ' ', RK: ' '})
					}
					continue
				}
				if keepHead {
					for _, l := range lines[:ctx] {
						out = append(out, DiffLine{Left: l, Right: l, LK: ' ', RK: ' '})
					}
				}
				skipped := len(lines)
				if keepHead {
					skipped -= ctx
				}
				if keepTail {
					skipped -= ctx
				}
				note := "⋯ " + Plural(skipped, "equal line")
				out = append(out, DiffLine{Left: note, Right: note, LK: '~', RK: '~'})
				if keepTail {
					for _, l := range lines[len(lines)-ctx:] {
						out = append(out, DiffLine{Left: l, Right: l, LK: ' ', RK: ' '})
					}
				}
			}
		}
		flush()
	}
	return out, max(0, first)
}

// WordRanges maps a hunk's changed words to byte ranges in each of its n
// lines (nil for a line without changed words, or a hunk without words).
func WordRanges(h diff.Hunk, n int) [][][2]int {
	out := make([][][2]int, n)
	if len(h.Words) == 0 {
		return out
	}
	line, col := 0, 0
	for _, w := range h.Words {
		parts := strings.Split(w.Text, "\n")
		for k, p := range parts {
			if k > 0 {
				line++
				col = 0
			}
			if line >= n {
				return out
			}
			if w.Op != diff.OpEqual && len(p) > 0 {
				out[line] = append(out[line], [2]int{col, col + len(p)})
			}
			col += len(p)
		}
	}
	return out
}

// changedChars narrows the changed words of a replaced line to the
// characters that changed: each pair of ranges (or, without words, the two
// whole lines) loses the prefix and suffix its two sides share, so two
// timestamps a minute apart mark the minute, not the whole timestamp.
func changedChars(left, right string, lw, rw [][2]int) ([][2]int, [][2]int) {
	if len(lw) != len(rw) {
		return lw, rw
	}
	if len(lw) == 0 {
		if left == right {
			return nil, nil
		}
		lw, rw = [][2]int{{0, len(left)}}, [][2]int{{0, len(right)}}
	}
	nl, nr := make([][2]int, 0, len(lw)), make([][2]int, 0, len(rw))
	for i := range lw {
		a, b := lw[i], rw[i]
		a[1], b[1] = min(a[1], len(left)), min(b[1], len(right))
		if a[0] > a[1] || b[0] > b[1] {
			return lw, rw
		}
		x, y := left[a[0]:a[1]], right[b[0]:b[1]]
		p := 0
		for p < len(x) && p < len(y) && x[p] == y[p] {
			p++
		}
		for p > 0 && (p < len(x) && !utf8.RuneStart(x[p]) || p < len(y) && !utf8.RuneStart(y[p])) {
			p--
		}
		q := 0
		for q < len(x)-p && q < len(y)-p && x[len(x)-1-q] == y[len(y)-1-q] {
			q++
		}
		for q > 0 && (!utf8.RuneStart(x[len(x)-q]) || !utf8.RuneStart(y[len(y)-q])) {
			q--
		}
		if a[0]+p < a[1]-q {
			nl = append(nl, [2]int{a[0] + p, a[1] - q})
		}
		if b[0]+p < b[1]-q {
			nr = append(nr, [2]int{b[0] + p, b[1] - q})
		}
	}
	return nl, nr
}

// DiffSide draws one side of a diff row, w cells wide: text of kind k
// ('-', '+', 'h', '~', ' ', 0) with its changed characters (ranges)
// emphasised, cut to the row. Every piece passes through scan.VisibleLine.
func DiffSide(st *themes.Styles, text string, k byte, ranges [][2]int, w int) string {
	switch k {
	case '-':
		return diffWords(st, text, ranges, st.Removed, st.RemovedWord, "- ", w)
	case '+':
		return diffWords(st, text, ranges, st.Added, st.AddedWord, "+ ", w)
	case 'h':
		return st.Accent.Render(sideFit("── "+scan.VisibleLine(text), w))
	case '~':
		return st.Muted.Render(sideFit("  "+scan.VisibleLine(text), w))
	case 0:
		return sideFit("", w)
	}
	return st.Base.Render(sideFit("  "+scan.VisibleLine(text), w))
}

// diffWords draws a changed line with its changed words emphasised.
func diffWords(st *themes.Styles, text string, ranges [][2]int, base, strong lipgloss.Style, sign string, w int) string {
	if len(ranges) == 0 {
		return base.Render(sideFit(sign+scan.VisibleLine(text), w))
	}
	var b strings.Builder
	b.WriteString(base.Render(sign))
	pos := 0
	for _, r := range ranges {
		lo, hi := RuneBoundary(text, max(pos, r[0])), RuneBoundary(text, min(len(text), r[1]))
		if lo >= hi {
			continue
		}
		b.WriteString(base.Render(scan.VisibleLine(text[pos:lo])))
		piece := scan.VisibleLine(text[lo:hi])
		if st.Mono {
			piece = st.MarkOpen + piece + st.MarkClose
		}
		b.WriteString(strong.Render(piece))
		pos = hi
	}
	b.WriteString(base.Render(scan.VisibleLine(text[pos:])))
	return sideFit(b.String(), w)
}

// Plural is a count and a noun: "1 line", "3 lines".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// DiffHead is the heading row over the two sides: each request's number
// and name, left side lw cells wide.
func DiffHead(st *themes.Styles, a, b int, nameA, nameB string, lw int) string {
	return st.Header.Render(Pad(" #"+strconv.Itoa(a+1)+" "+scan.VisibleLine(nameA), lw)) + st.Subtle.Render("│") +
		st.Header.Render(" #"+strconv.Itoa(b+1)+" "+scan.VisibleLine(nameB))
}

// DiffRows draws up to n rows of lines from line top, the two sides lw and
// rw cells wide with a rule between them. A line of text wraps (at word
// boundaries, cells.Wrap) onto as many rows as it needs, so a change at its
// end is never cut off; a heading is cut to its row. With cut, every line
// is one row instead, drawn from cell xoff of each side, a marker where it
// goes on past an edge (Window).
func DiffRows(st *themes.Styles, lines []DiffLine, top, n, lw, rw int, cut bool, xoff int) []string {
	side := func(text string, k byte, ranges [][2]int, w int) []string {
		if cut {
			return []string{Window(st, DiffSide(st, text, k, ranges, unwrapped), xoff, w)}
		}
		return diffSideRows(st, text, k, ranges, w)
	}
	var out []string
	for i := top; i < len(lines) && len(out) < n; i++ {
		l := &lines[i]
		left, right := side(l.Left, l.LK, l.LW, lw), side(l.Right, l.RK, l.RW, rw)
		for r := 0; r < max(len(left), len(right)) && len(out) < n; r++ {
			a, b := cells.Fit("", lw), cells.Fit("", rw)
			if r < len(left) {
				a = left[r]
			}
			if r < len(right) {
				b = right[r]
			}
			out = append(out, a+st.Subtle.Render("│")+b)
		}
	}
	return out
}

// diffSideRows is one side of a diff line as rows w cells wide: a line of
// text wrapped, its later rows under its first one's sign.
func diffSideRows(st *themes.Styles, text string, k byte, ranges [][2]int, w int) []string {
	if k != '-' && k != '+' && k != ' ' || w <= 3 {
		return []string{DiffSide(st, text, k, ranges, w)}
	}
	l := cells.Layers{Text: text, Layers: []cells.Ranges{byteRanges(ranges)}, Cut: -1}
	if st.Mono {
		l.Bracket = cells.Width(st.MarkOpen + st.MarkClose)
	}
	starts := cells.Wrap(text, scan.Hazards(text), l.Pieces(0), w-2, 0, -1)
	rows := make([]string, 0, len(starts))
	for i, s := range starts {
		e := len(text)
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		e = cells.RowEnd(text, s, e)
		var rs [][2]int
		for _, r := range ranges {
			if lo, hi := max(r[0], s), min(r[1], e); lo < hi {
				rs = append(rs, [2]int{lo - s, hi - s})
			}
		}
		sign := string(k) + " "
		if i > 0 {
			sign = "  "
		}
		base, strong := st.Removed, st.RemovedWord
		switch k {
		case '+':
			base, strong = st.Added, st.AddedWord
		case ' ':
			base, strong = st.Base, st.Base
		}
		rows = append(rows, diffWords(st, text[s:e], rs, base, strong, sign, w))
	}
	return rows
}

// byteRanges are changed characters as a layer of marks (cells.Ranges).
type byteRanges [][2]int

func (r byteRanges) Len() int               { return len(r) }
func (r byteRanges) Range(i int) (int, int) { return r[i][0], r[i][1] }

// sideFit fits a side of a diff row to w cells; a side drawn whole (w
// unwrapped, to be cut by Window) is not padded.
func sideFit(s string, w int) string {
	if w >= unwrapped {
		return s
	}
	return cells.Fit(s, w)
}

// DiffMaxX is as far as a diff with its lines cut scrolls sideways: to
// show the end of the longest side of the n lines from top as drawn (sign
// and marks counted), each side w cells wide.
func DiffMaxX(st *themes.Styles, lines []DiffLine, top, n, w int) int {
	widest := 0
	for i := max(0, top); i < min(len(lines), top+n); i++ {
		l := &lines[i]
		widest = max(widest, cells.Width(DiffSide(st, l.Left, l.LK, l.LW, unwrapped)), cells.Width(DiffSide(st, l.Right, l.RK, l.RW, unwrapped)))
	}
	return max(0, widest-w+1)
}
