package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
)

// TestUIStatusKeepsHelpAndQuit: whatever the width and however long what
// is selected, the status line ends in "? help • q quit" and fits its
// width; the other keys come before them when there is room (120 columns
// and more, for what the golden session's selection says), what is
// selected is cut (with "…") rather than the two keys.
func TestUIStatusKeepsHelpAndQuit(t *testing.T) {
	reqs, a := goldenSession()
	for _, theme := range []string{themes.Dark, themes.Mono} {
		for _, width := range []int{60, 80, 120, 200} {
			m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: theme, Title: "status"}, width, 24)
			for _, long := range []bool{false, true} {
				if long {
					m.status = strings.Repeat("a long account of what is selected ", 6)
				}
				lines := strings.Split(plain(m.Render()), "\n")
				last := strings.TrimRight(lines[len(lines)-1], " ")
				if !strings.HasSuffix(last, "? help • q quit") || cells.Width(last) > width {
					t.Fatalf("%s %d: status line %q", theme, width, last)
				}
				if more := strings.Contains(last, "tab next pane"); more != (width >= 120 && !long) {
					t.Errorf("%s %d: other keys shown %v: %q", theme, width, more, last)
				}
				if long && !strings.Contains(last, "…") {
					t.Errorf("%s %d: the long status is not cut: %q", theme, width, last)
				}
			}
		}
	}
}

// TestUIHelpNamesSpace: the help (?) lists space with the keys that page
// down, as the README's key table does.
func TestUIHelpNamesSpace(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 120, 40)
	pressKeys(t, m, "?")
	if s := plain(m.Render()); !strings.Contains(s, "pgdn/space/ctrl+f") || !strings.Contains(s, "ctrl+d/ctrl+u") || !strings.Contains(s, "half a page") {
		t.Fatalf("the help does not name space, or ctrl+d/ctrl+u for half a page:\n%s", s)
	}
}

// TestUILayoutKeyOutsideWatch: L where there is no layout to toggle (the
// demo, a recording) says what it does and where, instead of nothing.
func TestUILayoutKeyOutsideWatch(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 120, 40)
	drive(t, m, tea.KeyPressMsg{Code: 'L', Text: "L"})
	if !strings.Contains(m.status, "L toggles the layout in watch") {
		t.Fatalf("L said %q", m.status)
	}
	m = startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono, Labels: map[string]string{"session.jsonl": "LEGACY"}}, 120, 40)
	drive(t, m, tea.KeyPressMsg{Code: 'L', Text: "L"})
	if !strings.Contains(m.status, "the demo has both") {
		t.Fatalf("L in the demo said %q", m.status)
	}
}
