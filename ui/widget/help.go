package widget

// The help view: the keys of a key map in groups and columns, and a legend.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// HelpGroup is one column of the key map's full help under its title.
type HelpGroup struct {
	Title string
	Keys  []key.Binding // enabled bindings only
}

// HelpLegend is what the viewer's marks and words on screen mean.
var HelpLegend = []string{
	"Badges: TRUSTED (host rules), UNTRUSTED (workspace, tool output), USER, MODEL.",
	"Marks: ✂ cache prefix breaks · ⚑ findings · ! hazards · ⎋ escapes · ◆bp cache breakpoint · ● marked.",
	"Hazards show as ␛[2J or [U+202E], never raw. Filter words: is:break is:finding is:hazard is:escape is:marked.",
	"Mouse: click a tab, a request or a segment; the wheel scrolls what is under it.",
}

// Help is the help view: every key of a key map, grouped, in as many
// columns as the width holds (one when narrow), then what the marks mean;
// it scrolls when the height does not hold it all.
type Help struct {
	St     *themes.Styles
	Groups []HelpGroup
	Legend []string // what the marks and words on screen mean, below the keys
	Top    int      // the first row shown
}

// groupLines draws a group: its title, then one row per key, the keys
// padded to kw cells.
func (p Help) groupLines(g HelpGroup, kw int) []string {
	st := p.St
	out := []string{st.Header.Render(g.Title)}
	for _, b := range g.Keys {
		h := b.Help()
		out = append(out, " "+st.HelpKey.Render(cells.Fit(h.Key, kw))+"  "+st.HelpDesc.Render(h.Desc))
	}
	return out
}

// keyWidth is the widest key of the groups.
func keyWidth(groups []HelpGroup) int {
	kw := 0
	for _, g := range groups {
		for _, b := range g.Keys {
			kw = max(kw, cells.Width(b.Help().Key))
		}
	}
	return kw
}

// column draws groups one under the other, a blank row between them, and
// says how wide it is.
func (p Help) column(groups []HelpGroup) ([]string, int) {
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

// HelpNarrow is the width under which the help is one column.
const HelpNarrow = 60

// lines is the whole help at a width: the groups in columns that fit, split
// in order so the tallest column is as short as it can be (with the fewest
// columns that make it so; one column when narrow), then the legend,
// wrapped.
func (p Help) lines(width int) []string {
	var best [][]string
	var widths []int
	most := min(len(p.Groups), 4)
	if width < HelpNarrow {
		most = 1
	}
	tallest := -1
	for n := 1; n <= most; n++ {
		for _, split := range splits(len(p.Groups), n) {
			var cols [][]string
			var ws []int
			total, tall := helpGap*(n-1), 0
			for k := range split {
				lo := 0
				if k > 0 {
					lo = split[k-1]
				}
				c, w := p.column(p.Groups[lo:split[k]])
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
		c, w := p.column(p.Groups)
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
				l = cells.Fit(l, widths[k]+helpGap)
			}
			b.WriteString(l)
		}
		if !more {
			break
		}
		out = append(out, b.String())
	}
	out = append(out, "")
	for _, l := range p.Legend {
		for _, wl := range strings.Split(ansi.Wordwrap(l, max(10, width-1), " "), "\n") {
			out = append(out, p.St.Muted.Render(wl))
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

// Rows is how many rows the help takes at a box width.
func (p Help) Rows(w int) int { return len(p.lines(w - 2)) }

// Render draws the help in a width×height box, from row top.
func (p Help) Render(width, height int) []string {
	st := p.St
	all := p.lines(width - 2)
	shown := max(0, height-2)
	top := max(0, min(p.Top, len(all)-shown))
	title := "Help · ? or esc to close"
	if len(all) > shown {
		title += " · j/k scroll"
	}
	return ScrollBox(st, st.Header.Render(title), all[top:], width, height, true, Scroll{Top: top, Shown: shown, Total: len(all)})
}
