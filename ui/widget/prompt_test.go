package widget

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
)

func press(name string) tea.KeyPressMsg {
	switch name {
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r, _ := utf8.DecodeRuneInString(name)
	return tea.KeyPressMsg{Code: r, Text: name}
}

// TestPromptEdits: the cursor moves, text goes in and out at it, ctrl+w
// takes the word (a path's last name) before it, ctrl+u all before it,
// and ↑ ↓ go through the history and back to the line typed.
func TestPromptEdits(t *testing.T) {
	h := History{}
	h.Add("write", "old.json")
	h.Add("write", "old.json") // not twice in a row
	h.Add("write", "")
	var p Prompt
	p.Open("write", "wirelens-request-1.json", h)
	steps := []struct {
		keys []string
		want string // the text, | at the cursor
	}{
		{[]string{"home", "o", "u", "t", "/"}, "out/|wirelens-request-1.json"},
		{[]string{"end", "left", "left", "left", "left", "left", "backspace"}, "out/wirelens-request-|.json"},
		{[]string{"2"}, "out/wirelens-request-2|.json"},
		{[]string{"delete", "ctrl+d"}, "out/wirelens-request-2|son"},
		{[]string{"ctrl+e", "ctrl+w"}, "out/|"},
		{[]string{"ctrl+w"}, "out|"},
		{[]string{"x", "ctrl+a", "ctrl+f", "ctrl+u"}, "|utx"},
		{[]string{"up"}, "old.json|"},
		{[]string{"up"}, "old.json|"},
		{[]string{"down"}, "utx|"},
	}
	for _, s := range steps {
		for _, k := range s.keys {
			p.Edit(press(k), h)
		}
		at := p.cursor()
		if got := string(p.Text[:at]) + "|" + string(p.Text[at:]); got != s.want {
			t.Fatalf("after %v: %q, want %q", s.keys, got, s.want)
		}
	}
	if len(h["write"]) != 1 {
		t.Errorf("history %q", h["write"])
	}
	p.Back = 2
	p.Insert("é")
	if string(p.Text) != "uétx" {
		t.Errorf("insert: %q", string(p.Text))
	}
}

// TestStatusShowsTheCursor: the prompt line draws the cursor where it is,
// the text around it sanitised.
func TestStatusShowsTheCursor(t *testing.T) {
	st := themes.New(themes.Mono)
	line := Status{St: st, Prompting: true, PromptKind: "write", PromptLabel: "write x to: ", PromptText: "a\x1bb.json", PromptBack: 5}.Render(80, 1)
	if !strings.HasPrefix(line, "write x to: a␛b▏.json") || strings.ContainsRune(line, 0x1b) {
		t.Errorf("prompt line %q", line)
	}
}
