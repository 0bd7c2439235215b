package widget

// The one-line input of the status line (the search, the filter, the name
// of a file to write) and the history of each kind of line.

import tea "charm.land/bubbletea/v2"

// Prompt is a one-line input. It opens empty, or with a suggestion
// (Open); ↑ and ↓ go through the earlier entries of its kind; the cursor
// moves as in a shell's line (←/→, home/end, ctrl+a/ctrl+e).
type Prompt struct {
	Active bool
	Kind   string // "search", "filter", "write"
	Text   []rune
	// Back is how many runes of Text are after the cursor: 0, at its end.
	Back  int
	Hist  int    // the history entry shown: len(history) is the line being typed
	Draft []rune // the line being typed, kept while the history is shown
}

// cursor is the cursor's index into Text.
func (p *Prompt) cursor() int { return len(p.Text) - max(0, min(p.Back, len(p.Text))) }

// Insert types s at the cursor (a key's text, a paste).
func (p *Prompt) Insert(s string) {
	at := p.cursor()
	p.Text = append(p.Text[:at:at], append([]rune(s), p.Text[at:]...)...)
}

// Open opens a prompt of a kind with text typed already, after the
// history's last entry.
func (p *Prompt) Open(kind, text string, h History) {
	*p = Prompt{Active: true, Kind: kind, Text: []rune(text), Hist: len(h[kind])}
}

// Edit applies a key other than enter and esc to the line: ↑ and ↓ through
// the history of its kind; ←, →, home, end (ctrl+b, ctrl+f, ctrl+a,
// ctrl+e) move the cursor; backspace and delete (ctrl+d) remove the rune
// before and after it, ctrl+w the word before it, ctrl+u all before it;
// text typed goes in at it. It reports whether the text changed.
func (p *Prompt) Edit(k tea.KeyPressMsg, h History) bool {
	at := p.cursor()
	switch k.String() {
	case "left", "ctrl+b":
		p.Back = len(p.Text) - max(0, at-1)
		return false
	case "right", "ctrl+f":
		p.Back = len(p.Text) - min(len(p.Text), at+1)
		return false
	case "home", "ctrl+a":
		p.Back = len(p.Text)
		return false
	case "end", "ctrl+e":
		p.Back = 0
		return false
	case "delete", "ctrl+d":
		if at < len(p.Text) {
			p.Text = append(p.Text[:at:at], p.Text[at+1:]...)
			p.Back--
		}
		return true
	case "ctrl+w":
		from := at
		for from > 0 && p.Text[from-1] == ' ' {
			from--
		}
		for from > 0 && p.Text[from-1] != ' ' && p.Text[from-1] != '/' {
			from--
		}
		if from == at && from > 0 {
			from-- // a slash alone before the cursor
		}
		p.Text = append(p.Text[:from:from], p.Text[at:]...)
		return true
	}
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
		p.Hist, p.Back = to, 0
		if to == len(hist) {
			p.Text = p.Draft
		} else {
			p.Text = []rune(hist[to])
		}
		return true
	case "backspace", "ctrl+h":
		if at > 0 {
			p.Text = append(p.Text[:at-1:at-1], p.Text[at:]...)
		}
		return true
	case "ctrl+u":
		p.Text = p.Text[at:]
		return true
	}
	if k.Text != "" && k.Mod&^tea.ModShift == 0 {
		p.Insert(k.Text)
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
