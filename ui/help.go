package ui

// The help view, generated from the key map.

import (
	"strings"

	"github.com/wirelens/wirelens/themes"
)

// helpView is the help: the full help of the key map (rendered by the
// root's help model) and what the marks mean.
type helpView struct {
	st   *themes.Styles
	keys string // the full help, rendered
}

func (m *Model) helpView() helpView {
	return helpView{st: m.st, keys: m.help.FullHelpView(m.keys.FullHelp())}
}

// Render draws the help in a width×height box.
func (p helpView) Render(width, height int) []string {
	st := p.st
	var lines []string
	for _, l := range strings.Split(p.keys, "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "",
		st.Muted.Render(" Badges: TRUSTED (host rules), UNTRUSTED (workspace, tool output), USER, MODEL."),
		st.Muted.Render(" Marks: ✂ cache prefix breaks · ⚑ findings · ! hazards · ⎋ escapes · ◆bp cache breakpoint · ● marked."),
		st.Muted.Render(" Hazards show as ␛[2J or [U+202E], never raw. Filter words: is:break is:finding is:hazard is:escape is:marked."),
		st.Muted.Render(" Mouse: click a tab, a request or a segment; the wheel scrolls what is under it."))
	return box(st, st.Header.Render("Help · ? or esc to close"), lines, width, height, true)
}
