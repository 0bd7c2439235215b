package widget

// The one-line input of the status line (the search, the filter, the name
// of a file to write) and the history of each kind of line.

import tea "charm.land/bubbletea/v2"

// Prompt is a one-line input. It opens empty, or with a suggestion
// (Open); ↑ and ↓ go through the earlier entries of its kind.
type Prompt struct {
	Active bool
	Kind   string // "search", "filter", "write"
	Text   []rune
	Hist   int    // the history entry shown: len(history) is the line being typed
	Draft  []rune // the line being typed, kept while the history is shown
}

// Open opens a prompt of a kind with text typed already, after the
// history's last entry.
func (p *Prompt) Open(kind, text string, h History) {
	*p = Prompt{Active: true, Kind: kind, Text: []rune(text), Hist: len(h[kind])}
}

// Edit applies a key other than enter and esc to the line: ↑ and ↓ through
// the history of its kind, backspace, ctrl+u (the whole line), and text
// typed. It reports whether the text changed.
func (p *Prompt) Edit(k tea.KeyPressMsg, h History) bool {
	switch k.String() {
	case "up", "down":
		hist := h[p.Kind]
		to := p.Hist - 1
		if k.String() == "down" {
			to = p.Hist + 1
		}
		if to < 0 || to > len(hist) {
			return false
		}
		if p.Hist == len(hist) {
			p.Draft = p.Text
		}
		p.Hist = to
		if to == len(hist) {
			p.Text = p.Draft
		} else {
			p.Text = []rune(hist[to])
		}
		return true
	case "backspace", "ctrl+h":
		if len(p.Text) > 0 {
			p.Text = p.Text[:len(p.Text)-1]
		}
		return true
	case "ctrl+u":
		p.Text = nil
		return true
	}
	if k.Text != "" && k.Mod&^tea.ModShift == 0 {
		p.Text = append(p.Text, []rune(k.Text)...)
		return true
	}
	return false
}

// History holds the prompts' entries by kind, oldest first.
type History map[string][]string

// MaxHistory is how many entries a kind's history keeps.
const MaxHistory = 50

// Add adds an entry to the history of its kind (not twice in a row, and
// not an empty one).
func (h History) Add(kind, text string) {
	if text == "" {
		return
	}
	l := h[kind]
	if len(l) > 0 && l[len(l)-1] == text {
		return
	}
	l = append(l, text)
	if len(l) > MaxHistory {
		l = l[len(l)-MaxHistory:]
	}
	h[kind] = l
}
