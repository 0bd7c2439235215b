package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
)

func lipglossWidth(s string) int { return lipgloss.Width(s) }

// Text whose width terminals disagree on.
const (
	family    = "\U0001F468\u200D\U0001F469\u200D\U0001F467" // 2 cells as a cluster, 6 per code point
	thumbs    = "\U0001F44D\U0001F3FD"                       // 2 as a cluster, 4 per code point
	heart     = "\u2764\uFE0F"                               // 2 as a cluster, 1 per code point
	heartFire = "\u2764\uFE0F\u200D\U0001F525"               // 2 as a cluster, 3 per code point, 4 apart
	arabicNum = "\u0600"                                     // x/ansi: no cells, and none for the digit after it
)

// TestUIWidthSpoofing shows a tool name and a message padded with prepended
// concatenation marks, ZWJ sequences, skin-tone modifiers and presentation
// selectors: every line of every pane is exactly its width by the widest
// measure and no wider by any, the marks show visibly, and the text after
// the padding shows in the content pane.
func TestUIWidthSpoofing(t *testing.T) {
	pads := map[string]string{
		"marks":  strings.Repeat(arabicNum, 40),
		"zwj":    strings.Repeat(family, 12),
		"skin":   strings.Repeat(thumbs, 12),
		"heart":  strings.Repeat(heart, 24),
		"joined": strings.Repeat(heartFire, 12),
	}
	for name, pad := range pads {
		tool := pad + "TOOL_AFTER"
		req := testReq(pad+"model", 1,
			wire.Part{ID: "tools[0]", Channel: wire.ChannelTools, Type: "tool", Name: tool,
				Text: `{"name":"` + tool + `","description":"` + pad + `"}`},
			wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "You are a coding agent."},
			wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: pad + "MSG_AFTER " + pad},
		)
		for _, theme := range []string{themes.Dark, themes.Mono} {
			for _, size := range [][2]int{{80, 24}, {120, 30}, {200, 50}} {
				where := fmt.Sprintf("%s %s %dx%d", name, theme, size[0], size[1])
				m := startModel(t, Options{Requests: []wire.Request{req}, Theme: theme, Title: pad + "title"}, size[0], size[1])
				checkWidths(t, m, where+" tool")
				if !strings.Contains(contentText(m), "TOOL_AFTER") {
					t.Errorf("%s: the tool name after its padding is not shown:\n%s", where, plain(m.Render()))
				}
				if name == "marks" && !strings.Contains(plain(m.Render()), "[U+0600]") {
					t.Errorf("%s: the marks are not shown visibly", where)
				}
				pressKeys(t, m, "l")
				checkWidths(t, m, where+" message")
				if !strings.Contains(contentText(m), "MSG_AFTER") {
					t.Errorf("%s: the message after its padding is not shown:\n%s", where, plain(m.Render()))
				}
				for _, v := range []string{"2", "3", "5", "6"} {
					pressKeys(t, m, v)
					checkWidths(t, m, where+" view "+v)
				}
			}
		}
	}
}

// checkWidths checks every line of the screen and of each pane of the wire
// view: exactly its width by the widest measure, no wider by any.
func checkWidths(t *testing.T, m *Model, where string) {
	t.Helper()
	check := func(pane string, lines []string, w int) {
		t.Helper()
		for i, l := range lines {
			if n, gw, wc := cells.Width(l), lipglossWidth(l), ansi.StringWidthWc(l); n != w || gw > w || wc > w {
				t.Fatalf("%s: %s line %d is %d cells wide (%d as clusters, %d per code point), want %d: %q", where, pane, i, n, gw, wc, w, plain(l))
			}
		}
	}
	screen := strings.Split(m.Render(), "\n")
	if len(screen) != m.h {
		t.Fatalf("%s: %d lines, want %d", where, len(screen), m.h)
	}
	check("screen", screen, m.w)
	bh, sh := m.bodyHeight(), m.segHeight()
	check("list", m.listPane().Render(m.listWidth(), bh), m.listWidth())
	check("segments", m.segPane().Render(m.rightWidth(), sh), m.rightWidth())
	check("content", m.contentPane().Render(m.rightWidth(), bh-sh), m.rightWidth())
}

// contentText is the text of the content pane's rows, joined without their
// frame and padding.
func contentText(m *Model) string {
	var b strings.Builder
	lines := m.contentPane().Render(m.rightWidth(), m.bodyHeight()-m.segHeight())
	for _, l := range lines[1 : len(lines)-1] {
		r := []rune(plain(l))
		b.WriteString(strings.TrimRight(string(r[1:len(r)-1]), " "))
	}
	return b.String()
}

// contentRows is the content pane's text as drawn, its rows joined by a
// space: rows wrap at word boundaries, and the space a wrapped row ends
// with is not drawn.
func contentRows(m *Model) string {
	var rows []string
	lines := m.contentPane().Render(m.rightWidth(), m.bodyHeight()-m.segHeight())
	for _, l := range lines[1 : len(lines)-1] {
		r := []rune(plain(l))
		if row := strings.TrimRight(string(r[1:len(r)-1]), " "); row != "" {
			rows = append(rows, row)
		}
	}
	return strings.Join(rows, " ")
}
