package ui

// The help view, generated from the key map (widget.Help draws it).

import "github.com/wirelens/wirelens/ui/widget"

// helpTitles name the columns of KeyMap.FullHelp, in order.
var helpTitles = []string{"Move", "Panes, search, filter", "Views", "Copy, open, write", "General"}

func (m *Model) helpView() widget.Help {
	p := widget.Help{St: m.st, Top: m.helpTop, Legend: widget.HelpLegend}
	for i, col := range m.keys.FullHelp() {
		g := widget.HelpGroup{Title: helpTitles[min(i, len(helpTitles)-1)]}
		for _, b := range col {
			if b.Enabled() {
				g.Keys = append(g.Keys, b)
			}
		}
		if len(g.Keys) > 0 {
			p.Groups = append(p.Groups, g)
		}
	}
	return p
}

// scrollHelp scrolls the help by n rows (to the top or the bottom for a
// large n).
func (m *Model) scrollHelp(n int) {
	shown := m.bodyHeight() - 2
	m.helpTop = max(0, min(m.helpTop+n, m.helpView().Rows(m.w)-shown))
}
