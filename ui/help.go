package ui

// The help view, generated from the key map.

import (
	"strings"
)

func (m *Model) renderHelp(h int) []string {
	st := m.st
	var lines []string
	for _, l := range strings.Split(m.help.FullHelpView(m.keys.FullHelp()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "",
		st.Muted.Render(" Badges: TRUSTED (host rules), UNTRUSTED (workspace, tool output), USER, MODEL."),
		st.Muted.Render(" Marks: ✂ cache prefix breaks · ⚑ findings · ! hazards · ⎋ escapes · ◆bp cache breakpoint · ● marked."),
		st.Muted.Render(" Hazards show as ␛[2J or [U+202E], never raw. Filter words: is:break is:finding is:hazard is:escape is:marked."),
		st.Muted.Render(" Mouse: click a tab, a request or a segment; the wheel scrolls what is under it."))
	return m.box(st.Header.Render("Help · ? or esc to close"), lines, m.w, h, true)
}

// ---- small helpers ----
