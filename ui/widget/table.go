package widget

import (
	"cmp"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// DetailLines is the height of the detail area under a table unless the
// table says otherwise (Table.Details).
const DetailLines = 3

// RowsIn is how many rows a table h rows high shows above a detail area of
// d lines.
func RowsIn(h, d int) int { return max(1, h-4-d) }

// Cursor is the cursor and scroll of a table: the selected row and the
// first row shown.
type Cursor struct{ Sel, Top int }

// Move puts the cursor on row to of n, h rows shown.
func (t *Cursor) Move(to, n, h int) {
	t.Sel = max(0, min(to, n-1))
	if t.Sel < t.Top {
		t.Top = t.Sel
	}
	if t.Sel >= t.Top+h {
		t.Top = t.Sel - h + 1
	}
}

// Table is a table of Count rows with a cursor and, under it, the selected
// row's details (already sanitised and styled). Only the visible rows are
// drawn: Row(i) draws row i.
type Table struct {
	St     *themes.Styles
	Cur    Cursor
	Title  string
	Head   string
	Count  int
	Row    func(i int) string
	Empty  string // said in place of the rows when there are none
	Detail []string
	// Details is the height of the detail area (DetailLines when 0).
	Details int
}

// Render draws the table in a w×h box.
func (t Table) Render(w, h int) []string {
	st := t.St
	lines := []string{st.Header.Render(t.Head)}
	d := cmp.Or(t.Details, DetailLines)
	n := RowsIn(h, d)
	for i := t.Cur.Top; i < t.Count && i < t.Cur.Top+n; i++ {
		r := t.Row(i)
		if i == t.Cur.Sel {
			r = st.Cursor.Render(ansi.Strip(cells.Fit("▸ "+r, w-2)))
		} else {
			r = "  " + r
		}
		lines = append(lines, r)
	}
	if t.Count == 0 {
		lines = append(lines, st.Muted.Render("  "+t.Empty))
	}
	for len(lines) < n+1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Subtle.Render(strings.Repeat("─", max(0, w-2))))
	for i := 0; i < d; i++ {
		l := ""
		if i < len(t.Detail) {
			l = " " + t.Detail[i]
		}
		lines = append(lines, l)
	}
	return ScrollBox(st, st.Header.Render(t.Title), lines, w, h, true, Scroll{Top: t.Cur.Top, Shown: n, Total: t.Count, Track: n + 1})
}

// Page is how far a page key moves in a view n rows high: n, or half of it
// for the half-page keys (ctrl+d and ctrl+u, as in less and vim).
func Page(n int, half bool) int {
	if half {
		return max(1, n/2)
	}
	return n
}
