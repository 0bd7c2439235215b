package ui

// The help view, generated from the key map.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/widget"
)

// helpTitles name the columns of KeyMap.FullHelp, in order.
var helpTitles = []string{"Move", "Panes, search, filter", "Views", "General"}

// helpGroup is one column of the key map's full help under its title.
type helpGroup struct {
	title string
	keys  []key.Binding // enabled bindings only
}

// helpView is the help: every key of the key map, grouped, in as many
// columns as the width holds (one when narrow), then what the marks mean;
// it scrolls when the height does not hold it all.
type helpView struct {
	st     *themes.Styles
	groups []helpGroup
	top    int
}

func (m *Model) helpView() helpView {
	p := helpView{st: m.st, top: m.helpTop}
	for i, col := range m.keys.FullHelp() {
		g := helpGroup{title: helpTitles[min(i, len(helpTitles)-1)]}
		for _, b := range col {
			if b.Enabled() {
				g.keys = append(g.keys, b)
			}
		}
		if len(g.keys) > 0 {
			p.groups = append(p.groups, g)
		}
	}
	return p
}

// helpLegend is what the marks and words on screen mean.
var helpLegend = []string{
	"Badges: TRUSTED (host rules), UNTRUSTED (workspace, tool output), USER, MODEL.",
	"Marks: ✂ cache prefix breaks · ⚑ findings · ! hazards · ⎋ escapes · ◆bp cache breakpoint · ● marked.",
	"Hazards show as ␛[2J or [U+202E], never raw. Filter words: is:break is:finding is:hazard is:escape is:marked.",
	"Mouse: click a tab, a request or a segment; the wheel scrolls what is under it.",
}

// groupLines draws a group: its title, then one row per key, the keys
// padded to kw cells.
func (p helpView) groupLines(g helpGroup, kw int) []string {
	st := p.st
	out := []string{st.Header.Render(g.title)}
	for _, b := range g.keys {
		h := b.Help()
		out = append(out, " "+st.HelpKey.Render(fit(h.Key, kw))+"  "+st.HelpDesc.Render(h.Desc))
	}
	return out
}

// keyWidth is the widest key of the groups.
func keyWidth(groups []helpGroup) int {
	kw := 0
	for _, g := range groups {
		for _, b := range g.keys {
			kw = max(kw, cells.Width(b.Help().Key))
		}
	}
	return kw
}

// column draws groups one under the other, a blank row between them, and
// says how wide it is.
func (p helpView) column(groups []helpGroup) ([]string, int) {
	kw := keyWidth(groups)
	var out []string
	for i, g := range groups {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, p.groupLines(g, kw)...)
	}
	w := 0
	for _, l := range out {
		w = max(w, cells.Width(l))
	}
	return out, w
}

// helpGap is the space between two columns of keys.
const helpGap = 3

// helpNarrow is the width under which the help is one column.
const helpNarrow = 60

// lines is the whole help at a width: the groups in columns that fit, split
// in order so the tallest column is as short as it can be (with the fewest
// columns that make it so; one column when narrow), then the legend,
// wrapped.
func (p helpView) lines(width int) []string {
	var best [][]string
	var widths []int
	most := min(len(p.groups), 4)
	if width < helpNarrow {
		most = 1
	}
	tallest := -1
	for n := 1; n <= most; n++ {
		for _, split := range splits(len(p.groups), n) {
			var cols [][]string
			var ws []int
			total, tall := helpGap*(n-1), 0
			for k := range split {
				lo := 0
				if k > 0 {
					lo = split[k-1]
				}
				c, w := p.column(p.groups[lo:split[k]])
				cols, ws = append(cols, c), append(ws, w)
				total += w
				tall = max(tall, len(c))
			}
			if total <= width && (tallest < 0 || tall < tallest) {
				best, widths, tallest = cols, ws, tall
			}
		}
	}
	if best == nil { // narrower than any one column: one, cut
		c, w := p.column(p.groups)
		best, widths = [][]string{c}, []int{w}
	}
	var out []string
	for row := 0; ; row++ {
		var b strings.Builder
		more := false
		for k, c := range best {
			l := ""
			if row < len(c) {
				l, more = c[row], true
			}
			if k < len(best)-1 {
				l = fit(l, widths[k]+helpGap)
			}
			b.WriteString(l)
		}
		if !more {
			break
		}
		out = append(out, b.String())
	}
	out = append(out, "")
	for _, l := range helpLegend {
		for _, wl := range strings.Split(ansi.Wordwrap(l, max(10, width-1), " "), "\n") {
			out = append(out, p.st.Muted.Render(wl))
		}
	}
	return out
}

// splits are the ways to cut n items, in order, into k non-empty runs: each
// as the ends of the runs.
func splits(n, k int) [][]int {
	if k == 1 {
		return [][]int{{n}}
	}
	var out [][]int
	for first := 1; first <= n-k+1; first++ {
		for _, rest := range splits(n-first, k-1) {
			s := []int{first}
			for _, e := range rest {
				s = append(s, first+e)
			}
			out = append(out, s)
		}
	}
	return out
}

// rows is how many rows the help takes at a box width.
func (p helpView) rows(w int) int { return len(p.lines(w - 2)) }

// Render draws the help in a width×height box, from row top.
func (p helpView) Render(width, height int) []string {
	st := p.st
	all := p.lines(width - 2)
	shown := max(0, height-2)
	top := max(0, min(p.top, len(all)-shown))
	title := "Help · ? or esc to close"
	if len(all) > shown {
		title += " · j/k scroll"
	}
	return widget.ScrollBox(st, st.Header.Render(title), all[top:], width, height, true, widget.Scroll{Top: top, Shown: shown, Total: len(all)})
}

// scrollHelp scrolls the help by n rows (to the top or the bottom for a
// large n).
func (m *Model) scrollHelp(n int) {
	shown := m.bodyHeight() - 2
	m.helpTop = max(0, min(m.helpTop+n, m.helpView().rows(m.w)-shown))
}
