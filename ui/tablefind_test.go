package ui

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
)

// TestUISearchAndFilterInEveryView: / in the Findings, Escapes and Cache
// tables puts the cursor on the next row holding the text and stays in the
// view (it said "no match" in Findings full of matching rows), n and N
// step between them; in Diff and Raw it scrolls the view to the match and
// stays (it jumped back to Wire); f in Findings and Escapes keeps the rows
// holding every word (a severity, a rule), enter still goes to the row's
// finding, esc in the prompt clears it.
func TestUISearchAndFilterInEveryView(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Dark, Title: "find"}, 120, 40)
	pressKeys(t, m, "3", "/")
	typeText(t, m, "bidi")
	pressKeys(t, m, "enter")
	fs := m.shownFindings()
	if m.view != viewFindings || m.table.Sel >= len(fs) || fs[m.table.Sel].Rule != "bidi-control" {
		t.Fatalf("/bidi in Findings: view %d, row %d of %d", m.view, m.table.Sel, len(fs))
	}
	if s := plain(m.Render()); !strings.Contains(s, "/bidi · match 1/1") {
		t.Fatalf("the status line has no search chip:\n%s", s)
	}
	pressKeys(t, m, "/")
	typeText(t, m, "high")
	pressKeys(t, m, "enter")
	first := m.table.Sel
	pressKeys(t, m, "n")
	if m.table.Sel == first || fs[m.table.Sel].Severity != "high" {
		t.Fatalf("n went from row %d to %d", first, m.table.Sel)
	}
	pressKeys(t, m, "N")
	if m.table.Sel != first {
		t.Fatalf("N went back to row %d, want %d", m.table.Sel, first)
	}
	// f keeps the rows holding every word.
	pressKeys(t, m, "f")
	typeText(t, m, "medium control")
	pressKeys(t, m, "enter")
	if fs := m.shownFindings(); len(fs) != 1 || fs[0].Rule != "control-char" || m.tableLen() != 1 {
		t.Fatalf("f medium control: %d rows %v", len(fs), fs)
	}
	if s := plain(m.Render()); !strings.Contains(s, "Findings · 1") || !strings.Contains(s, "filter medium control") {
		t.Fatalf("the filtered table or its chip:\n%s", s)
	}
	pressKeys(t, m, "enter")
	if m.view != viewWire || m.cur() != 3 {
		t.Fatalf("enter on the filtered row: view %d, request #%d", m.view, m.cur()+1)
	}
	pressKeys(t, m, "3", "f", "esc")
	if len(m.shownFindings()) != len(m.findings) {
		t.Fatal("esc in the filter prompt did not clear the rows' filter")
	}
	// Escapes: the hazards of the selected request.
	pressKeys(t, m, "2", "/")
	typeText(t, m, "U+202E")
	pressKeys(t, m, "enter")
	rows := m.shownEscRows()
	if m.view != viewEscapes || m.table.Sel >= len(rows) || !strings.Contains(m.rowText(viewEscapes, m.table.Sel), "U+202E") {
		t.Fatalf("/U+202E in Escapes: view %d, row %d", m.view, m.table.Sel)
	}
	// Cache: a request by its number.
	pressKeys(t, m, "4", "/")
	typeText(t, m, "#3")
	pressKeys(t, m, "enter")
	if m.view != viewCache || m.table.Sel != 2 {
		t.Fatalf("/#3 in Cache: view %d, row %d", m.view, m.table.Sel)
	}
	// Raw: the view scrolls to the match and stays.
	pressKeys(t, m, "6")
	pressKeys(t, m, "/")
	typeText(t, m, "image")
	pressKeys(t, m, "enter")
	if m.view != viewRaw || len(m.vf.At) == 0 || !strings.Contains(plain(m.Render()), "image") {
		t.Fatalf("/image in Raw: view %d, %d matches:\n%s", m.view, len(m.vf.At), plain(m.Render()))
	}
	// Diff: the line of the match is the view's first.
	pressKeys(t, m, "5")
	pressKeys(t, m, "/")
	typeText(t, m, "notes.md")
	pressKeys(t, m, "enter")
	if m.view != viewDiff || len(m.vf.At) == 0 || m.diff.top != max(0, min(m.vf.At[m.vf.Cur], len(m.diff.lines)-(m.bodyHeight()-3))) || !strings.Contains(plain(m.Render()), "notes.md") {
		t.Fatalf("/notes.md in Diff: view %d, matches %v, top %d", m.view, m.vf.At, m.diff.top)
	}
}
