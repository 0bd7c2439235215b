package render

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// TestDiffWrapsChangedLines: two builds minutes apart differ at the end of
// a long line; the side-by-side diff wraps the changed lines so the change
// shows on both sides, marks only the characters that changed, and keeps
// every row to its width.
func TestDiffWrapsChangedLines(t *testing.T) {
	head := "You are a coding agent working in a terminal. The session started at "
	a, b := head+"2026-01-01T10:04:13Z and goes on", head+"2026-01-01T10:07:13Z and goes on"
	d := &diff.RequestDiff{Segments: []diff.SegmentDiff{{ID: "system[0]", Status: diff.StatusChanged, Hunks: []diff.Hunk{
		{Op: diff.OpDelete, Text: a + "\n", Words: []diff.Hunk{{Op: diff.OpEqual, Text: head}, {Op: diff.OpDelete, Text: "2026-01-01T10:04:13Z"}, {Op: diff.OpEqual, Text: " and goes on\n"}}},
		{Op: diff.OpInsert, Text: b + "\n", Words: []diff.Hunk{{Op: diff.OpEqual, Text: head}, {Op: diff.OpInsert, Text: "2026-01-01T10:07:13Z"}, {Op: diff.OpEqual, Text: " and goes on\n"}}},
	}}}}
	lines, first := LayoutDiff(d)
	if first != 0 || len(lines) != 2 || lines[1].LK != '-' || lines[1].RK != '+' {
		t.Fatalf("layout: %+v (first %d)", lines, first)
	}
	if l := lines[1]; len(l.LW) != 1 || l.Left[l.LW[0][0]:l.LW[0][1]] != "4" || l.Right[l.RW[0][0]:l.RW[0][1]] != "7" {
		t.Fatalf("changed characters: %v %v", l.LW, l.RW)
	}
	for _, theme := range []string{themes.Dark, themes.Mono} {
		st := themes.New(theme)
		for _, w := range []int{20, 31, 39, 60} {
			rows := DiffRows(st, lines, 0, 100, w, w, false, 0)
			var left, right strings.Builder
			for _, r := range rows[1:] { // after the segment's heading
				if cw := cells.Width(r); cw != 2*w+1 {
					t.Fatalf("%s %d: row of %d cells: %q", theme, w, cw, plain(r))
				}
				p := []rune(plain(r))
				left.WriteString(string(p[:w]))
				right.WriteString(string(p[w+1:]))
			}
			l, r := strings.NewReplacer("⟦", "", "⟧", "", " ", "").Replace(left.String()), strings.NewReplacer("⟦", "", "⟧", "", " ", "").Replace(right.String())
			if !strings.Contains(l, "10:04:13Zandgoeson") || !strings.Contains(r, "10:07:13Zandgoeson") || strings.Contains(l+r, "…") {
				t.Fatalf("%s %d: the change is not all shown:\n%s", theme, w, plain(strings.Join(rows, "\n")))
			}
			if theme == themes.Mono && (!strings.Contains(strings.ReplaceAll(left.String(), " ", ""), "10:0⟦4⟧:13Z") ||
				!strings.Contains(strings.ReplaceAll(right.String(), " ", ""), "10:0⟦7⟧:13Z")) {
				t.Fatalf("%d: the changed characters are not marked:\n%s", w, plain(strings.Join(rows, "\n")))
			}
		}
	}
}

// TestDiffCutLines: with lines cut (W), every line of the diff is one row
// of each side's width, cut with › where it goes on; scrolled sideways, the
// end of the long line shows after ‹, and nothing is lost past its end.
// Wrapped, a long unchanged line wraps too (it was cut with …).
func TestDiffCutLines(t *testing.T) {
	long := strings.Repeat("unchanged context word ", 8) + "END"
	d := &diff.RequestDiff{Segments: []diff.SegmentDiff{{ID: "system[0]", Status: diff.StatusChanged, Hunks: []diff.Hunk{
		{Op: diff.OpEqual, Text: long + "\n"},
		{Op: diff.OpDelete, Text: "old " + long + "\n"},
		{Op: diff.OpInsert, Text: "new " + long + "\n"},
	}}}}
	lines, _ := LayoutDiff(d)
	st := themes.New(themes.Mono)
	const w = 40
	cut := DiffRows(st, lines, 0, 100, w, w, true, 0)
	if len(cut) != len(lines) {
		t.Fatalf("%d rows for %d lines:\n%s", len(cut), len(lines), plain(strings.Join(cut, "\n")))
	}
	for _, r := range cut[1:] {
		p := []rune(plain(r))
		if cells.Width(r) != 2*w+1 || p[w-1] != '›' || p[2*w] != '›' || strings.Contains(string(p), "END") {
			t.Fatalf("a cut row: %q", string(p))
		}
	}
	if got, want := DiffMaxX(st, lines, 0, 100, w), cells.Width("- ⟦old⟧ "+long)-w+1; got != want {
		t.Fatalf("DiffMaxX = %d, want %d (the end of the longest side)", got, want)
	}
	end := DiffRows(st, lines, 0, 100, w, w, true, DiffMaxX(st, lines, 0, 100, w))
	if p := []rune(plain(end[2])); p[w-1] != ' ' || p[w-2] != 'D' {
		t.Fatalf("scrolled as far as it goes, the longest line's end is not at the edge: %q", string(p))
	}
	far := DiffRows(st, lines, 0, 100, w, w, true, cells.Width(long)-10)
	for _, r := range far[1:] {
		p := []rune(plain(r))
		if p[0] != '‹' || !strings.Contains(string(p[:w]), "END") || !strings.Contains(string(p[w+1:]), "END") || p[w-1] == '›' {
			t.Fatalf("scrolled sideways: %q", string(p))
		}
	}
	wrapped := DiffRows(st, lines, 0, 100, w, w, false, 0)
	if all := plain(strings.Join(wrapped, "\n")); len(wrapped) < 2*len(lines) || strings.Count(all, "END") != 4 || strings.Contains(all, "…") {
		t.Fatalf("wrapped:\n%s", all)
	}
}

// TestWindow: a window of a styled line is exactly its width, with a
// marker at each edge the line goes on past.
func TestWindow(t *testing.T) {
	st := themes.New(themes.Dark)
	line := st.Added.Render("0123456789") + st.Removed.Render("abcdefghij")
	for _, c := range []struct {
		x, w int
		want string
	}{{0, 30, "0123456789abcdefghij          "}, {0, 8, "0123456›"}, {5, 8, "‹6789ab›"}, {14, 8, "‹fghij  "}, {40, 4, "    "}} {
		got := Window(st, line, c.x, c.w)
		if plain(got) != c.want || cells.Width(got) != c.w {
			t.Errorf("Window(%d, %d) = %q, want %q", c.x, c.w, plain(got), c.want)
		}
	}
}
