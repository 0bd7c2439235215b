package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire/breakdown"
)

func TestCursorMove(t *testing.T) {
	var c Cursor
	c.Move(7, 10, 3)
	if c != (Cursor{Sel: 7, Top: 5}) {
		t.Errorf("down to 7: %+v", c)
	}
	c.Move(2, 10, 3)
	if c != (Cursor{Sel: 2, Top: 2}) {
		t.Errorf("up to 2: %+v", c)
	}
	c.Move(99, 10, 3)
	if c.Sel != 9 {
		t.Errorf("past the end: %+v", c)
	}
	c.Move(-5, 10, 3)
	if c != (Cursor{Sel: 0, Top: 0}) {
		t.Errorf("before the start: %+v", c)
	}
}

func TestScrollLabel(t *testing.T) {
	for _, c := range []struct {
		s    Scroll
		want string
	}{
		{Scroll{Top: 0, Shown: 10, Total: 45}, "↓ 1-10/45"},
		{Scroll{Top: 11, Shown: 20, Total: 45}, "↑↓ 12-31/45"},
		{Scroll{Top: 40, Shown: 10, Total: 45}, "↑ 41-45/45"},
		{Scroll{Top: 500, Shown: 250, Total: 1000, Bytes: true}, "↑↓ 75%"},
	} {
		if got := c.s.label(); got != c.want {
			t.Errorf("%+v: label %q, want %q", c.s, got, c.want)
		}
	}
	if (Scroll{Shown: 10, Total: 10}).More() || !(Scroll{Shown: 10, Total: 11}).More() {
		t.Error("More")
	}
}

func TestScrollBox(t *testing.T) {
	st := themes.New(themes.Mono)
	out := ScrollBox(st, "title", []string{"a", "b", "c"}, 20, 5, true, Scroll{Top: 1, Shown: 3, Total: 9})
	if len(out) != 5 {
		t.Fatalf("%d lines, want 5", len(out))
	}
	thumb := 0
	for _, l := range out {
		l = ansi.Strip(l)
		if ansi.StringWidth(l) != 20 {
			t.Errorf("line %q is %d cells, want 20", l, ansi.StringWidth(l))
		}
		if strings.HasSuffix(l, "█") {
			thumb++
		}
	}
	if thumb != 1 || !strings.Contains(ansi.Strip(out[4]), "2-4/9") || !strings.Contains(ansi.Strip(out[0]), "title") {
		t.Errorf("box:\n%s", ansi.Strip(strings.Join(out, "\n")))
	}
	if got := Box(st, "", nil, 1, 3, false); len(got) != 3 {
		t.Errorf("a box too narrow still has its height: %q", got)
	}
}

func TestTableRender(t *testing.T) {
	st := themes.New(themes.Mono)
	tb := Table{St: st, Cur: Cursor{Sel: 1}, Title: "T", Head: "  head", Count: 3, Row: func(i int) string { return "row" + string(rune('0'+i)) },
		Detail: []string{"detail"}}
	out := tb.Render(30, 12)
	if len(out) != 12 {
		t.Fatalf("%d lines, want 12", len(out))
	}
	all := ansi.Strip(strings.Join(out, "\n"))
	for _, want := range []string{"head", "  row0", "▸ row1", "  row2", " detail"} {
		if !strings.Contains(all, want) {
			t.Errorf("table lacks %q:\n%s", want, all)
		}
	}
	empty := ansi.Strip(strings.Join(Table{St: st, Title: "T", Empty: "nothing", Row: func(int) string { return "" }}.Render(30, 12), "\n"))
	if !strings.Contains(empty, "nothing") {
		t.Errorf("empty table:\n%s", empty)
	}
}

func TestContextBar(t *testing.T) {
	st := themes.New(themes.Mono)
	tok := make([]int, len(breakdown.Groups))
	for i, g := range breakdown.Groups {
		switch g {
		case breakdown.GroupTools, breakdown.GroupHostRules:
			tok[i] = 500
		case breakdown.GroupUser:
			tok[i] = 1
		}
	}
	bar := ansi.Strip(ContextBar(st, tok, 1001, 20))
	if ansi.StringWidth(bar) != 20 || strings.Count(bar, "T") < 8 || strings.Count(bar, "H") < 8 || strings.Count(bar, "U") != 1 {
		t.Errorf("bar %q", bar)
	}
	if got := ContextBar(st, tok, 0, 5); got != "     " {
		t.Errorf("empty session: %q", got)
	}
	if ContextBar(st, tok, 1001, 0) != "" {
		t.Error("no width, no bar")
	}
}

func TestHeaderTabs(t *testing.T) {
	st := themes.New(themes.Mono)
	h := Header{St: st, Name: "prog", Tabs: []string{"Wire", "Escapes"}, Short: []string{"W", "E"}, Active: 1, Reqs: 2, Visible: 2}
	line := ansi.Strip(h.Render(80, 1))
	if !strings.Contains(line, "prog") || !strings.Contains(line, "[2 Escapes]") || !strings.Contains(line, "2 requests") {
		t.Errorf("header %q", line)
	}
	r := h.TabRanges(80)
	if len(r) != 2 || r[0][0] != len(" prog ")+1 || r[1][0] != r[0][1] {
		t.Errorf("tab ranges %v", r)
	}
	if narrow := ansi.Strip(h.Render(30, 1)); strings.Contains(narrow, "Escapes") {
		t.Errorf("narrow header keeps the full names: %q", narrow)
	}
}
