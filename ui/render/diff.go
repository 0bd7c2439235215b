package render

// The side-by-side text diff: a request diff laid out as rows, and a row
// drawn.

import (
	"strconv"
	"strings"

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

// DiffSide draws one side of a diff row, w cells wide: text of kind k
// ('-', '+', 'h', '~', ' ', 0) with its changed words (ranges) emphasised.
// Every piece passes through scan.VisibleLine.
func DiffSide(st *themes.Styles, text string, k byte, ranges [][2]int, w int) string {
	switch k {
	case '-':
		return diffWords(st, text, ranges, st.Removed, st.RemovedWord, "- ", w)
	case '+':
		return diffWords(st, text, ranges, st.Added, st.AddedWord, "+ ", w)
	case 'h':
		return st.Accent.Render(cells.Fit("── "+scan.VisibleLine(text), w))
	case '~':
		return st.Muted.Render(cells.Fit("  "+scan.VisibleLine(text), w))
	case 0:
		return cells.Fit("", w)
	}
	return st.Base.Render(cells.Fit("  "+scan.VisibleLine(text), w))
}

// diffWords draws a changed line with its changed words emphasised.
func diffWords(st *themes.Styles, text string, ranges [][2]int, base, strong lipgloss.Style, sign string, w int) string {
	if len(ranges) == 0 {
		return base.Render(cells.Fit(sign+scan.VisibleLine(text), w))
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
	return cells.Fit(b.String(), w)
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

// DiffRows draws up to n rows of lines from row top, the two sides lw and
// rw cells wide with a rule between them.
func DiffRows(st *themes.Styles, lines []DiffLine, top, n, lw, rw int) []string {
	var out []string
	for i := top; i < len(lines) && len(out) < n; i++ {
		l := &lines[i]
		out = append(out, DiffSide(st, l.Left, l.LK, l.LW, lw)+st.Subtle.Render("│")+DiffSide(st, l.Right, l.RK, l.RW, rw))
	}
	return out
}
