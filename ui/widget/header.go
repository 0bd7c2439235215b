package widget

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/scan"
)

// Header is the viewer's top line: the program's name, the view tabs and
// what is loaded.
type Header struct {
	St   *themes.Styles
	Name string // the program's name
	// Title is the input's title (hostile).
	Title string
	// Tabs are the views' names, Short the same names shortened for when
	// the full ones do not fit; Active is the tab drawn as selected.
	Tabs, Short []string
	Active      int
	Reqs        int // requests loaded
	Dropped     int // requests of a live stream dropped
	Visible     int // requests shown after the filter
	Loading     bool
	Live        bool
	Progress    float64
	Analysing   bool
	Errs        int
	Layout      string // hostile
	// Sel names the selected request by its label ("#1 LEGACY"), "" when
	// its source has none.
	Sel string
}

// parts are the header's pieces at a width; the tabs' cell ranges follow
// from them (for mouse clicks). The selected request's label comes first
// (before the program's name when narrow); the tabs' names shorten, then
// go, to leave room for it and the count.
func (p Header) parts(width int) (string, []string) {
	title := " " + p.Name
	switch {
	case p.Sel != "" && width < 100:
		title = " " + p.Sel
	case p.Sel != "":
		title += " · " + p.Sel
	}
	if p.Title != "" && width >= 110 {
		title += " · " + cells.Clip(scan.VisibleLine(p.Title), max(10, width/4), "…")
	}
	title += " "
	var tabs []string
	for _, names := range [][]string{p.Tabs, p.Short, nil} {
		tabs = tabs[:0]
		n := cells.Width(title) + 3
		for i := range p.Tabs {
			t := " " + strconv.Itoa(i+1) + " "
			if names != nil {
				t += names[i] + " "
			}
			tabs = append(tabs, t)
			n += cells.Width(t)
		}
		if n+cells.Width(p.info()) <= width {
			break
		}
	}
	return title, tabs
}

// TabRanges are the cell ranges of the tabs at a width.
func (p Header) TabRanges(width int) [][2]int {
	title, tabs := p.parts(width)
	x := cells.Width(title) + 1
	var out [][2]int
	for _, t := range tabs {
		w := cells.Width(t)
		out = append(out, [2]int{x, x + w})
		x += w
	}
	return out
}

// Render draws the header's one line (the caller fits it to the width).
func (p Header) Render(width, _ int) string {
	st := p.St
	title, tabs := p.parts(width)
	var b strings.Builder
	b.WriteString(st.Title.Render(title))
	b.WriteString(st.Subtle.Render("│"))
	for i, t := range tabs {
		if i == p.Active {
			if st.Mono {
				t = "[" + strings.TrimSpace(t) + "]"
				t = cells.Fit(t, cells.Width(tabs[i]))
			}
			b.WriteString(st.TabActive.Render(t))
		} else {
			b.WriteString(st.Tab.Render(t))
		}
	}
	b.WriteString(st.Subtle.Render("│ "))
	b.WriteString(st.Muted.Render(p.info()))
	return b.String()
}

// info is what the header says is loaded, after the tabs: the tabs'
// names shorten to leave room for it.
func (p Header) info() string {
	info := render.Plural(p.Reqs, "request")
	if p.Layout != "" {
		// First, so that a narrow header never cuts it.
		info = strings.ToUpper(scan.VisibleLine(p.Layout)) + " · " + info
	}
	if p.Visible != p.Reqs {
		info = strconv.Itoa(p.Visible) + "/" + info
	}
	if p.Loading && p.Live {
		info += " · watching"
	} else if p.Loading {
		if p.Progress > 0 {
			info += fmt.Sprintf(" · loading %d%% %s", int(p.Progress*100), FillBar(p.Progress, 8))
		} else {
			info += " · loading…"
		}
	}
	if p.Dropped > 0 {
		info += " · " + render.Plural(p.Dropped, "older rebuild") + " dropped"
	}
	if p.Analysing {
		info += " · analysing…"
	}
	if p.Errs > 0 {
		info += " · " + render.Plural(p.Errs, "input error")
	}
	return info
}
