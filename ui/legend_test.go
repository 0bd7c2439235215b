package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/legend"
	"github.com/wirelens/wirelens/ui/widget"
)

// TestLegendNamesEachMarkOnce: the legend at the foot of the request list
// fits its pane at every width, names each mark with the meaning the help
// gives it, and the help's line of marks says the same.
func TestLegendNamesEachMarkOnce(t *testing.T) {
	st := themes.New(themes.Dark)
	for _, inner := range []int{16, 18, 28, 40, 60} {
		out := legend.Foot(st, []string{"row"}, inner, 10)
		if len(out) != 10 {
			t.Fatalf("inner %d: %d rows, want the legend at the foot of 10", inner, len(out))
		}
		text := ansi.Strip(strings.Join(out, "\n"))
		for _, it := range legend.Items {
			if !strings.Contains(text, it[0]+" "+it[1]) {
				t.Errorf("inner %d: legend lacks %q:\n%s", inner, it[0]+" "+it[1], text)
			}
		}
		for _, l := range out {
			if cells.Width(l) > inner {
				t.Errorf("inner %d: legend row %q is wider", inner, ansi.Strip(l))
			}
		}
	}
	// No room: the rows stay as they are, and the edge carries the legend
	// when it fits.
	full := []string{"a", "b", "c"}
	if out := legend.Foot(st, full, 40, 3); len(out) != 3 || out[2] != "c" {
		t.Errorf("a full list was changed: %q", out)
	}
	for _, w := range []int{20, 46, 80} {
		if e := legend.Edge(st, w, false); cells.Width(e) != w {
			t.Errorf("edge at %d is %d wide: %q", w, cells.Width(e), ansi.Strip(e))
		}
	}
	if e := ansi.Strip(legend.Edge(st, 60, false)); !strings.Contains(e, "✂ cache break") {
		t.Errorf("a 60-cell edge has no legend: %q", e)
	}
	help := ansi.Strip(strings.Join(widget.Help{St: st, Legend: widget.HelpLegend}.Render(120, 40), "\n"))
	for _, want := range []string{"✂ cache prefix breaks", "⚑ findings", "! hazards", "◆bp cache breakpoint"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help does not say %q", want)
		}
	}
}
