package widget

// The status line: the prompt being typed, or a message (or what is
// selected) with the short help, "? help" and "q quit" always last.

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire/scan"
)

// Status is the bottom line: the prompt being typed, or a message (or
// what is selected) with the short help.
type Status struct {
	St *themes.Styles
	// Prompting: a prompt of PromptKind ("search" or "filter") is being
	// typed, PromptText so far (hostile: sanitised here); History: it has
	// earlier entries.
	Prompting              bool
	PromptKind, PromptText string
	PromptBack             int // runes of PromptText after the cursor
	History                bool
	// PromptLabel, when set, is the prompt's label (the write prompt's:
	// what it writes; plain text, sanitised here).
	PromptLabel string
	Text        string // plain text: sanitised here
	Searching   bool
	// Help is the root's help model; First the keys always shown (at the
	// right end), More those shown before them as the room holds.
	Help        help.Model
	First, More []key.Binding
	// Filter and Query are the active filter and search (hostile); Hits
	// the search's matches and HitAt the one shown (-1 none).
	Filter, Query string
	Hits, HitAt   int
	Rows          bool // f filters the view's rows, not the request list
}

// Render draws the status line.
func (p Status) Render(width, _ int) string {
	st := p.St
	if p.Prompting {
		label := "/"
		if p.PromptKind == "filter" {
			label = "filter (words; is:break is:finding is:hazard is:escape is:marked): "
			if width < 100 {
				label = "filter: "
			}
			if p.Rows {
				label = "filter rows (every word): "
			}
		}
		keys := "enter ok · esc clears"
		if p.PromptLabel != "" {
			label, keys = scan.VisibleLine(p.PromptLabel), "enter writes · esc cancels"
		}
		before, after := []rune(p.PromptText), []rune(nil)
		if b := max(0, min(p.PromptBack, len(before))); b > 0 {
			before, after = before[:len(before)-b], before[len(before)-b:]
		}
		line := st.StatusKey.Render(label) + st.Base.Render(scan.VisibleLine(string(before))) + st.Accent.Render("▏")
		if len(after) > 0 {
			line += st.Base.Render(scan.VisibleLine(string(after)))
		}
		if p.History {
			keys = "↑↓ history · " + keys
		}
		if gap := width - cells.Width(line) - cells.Width(keys); gap >= 2 {
			line += strings.Repeat(" ", gap) + st.Muted.Render(keys)
		}
		return line
	}
	// The active filter and search come first: they change what is shown.
	var chips string
	if p.Filter != "" {
		chips += p.chip("filter", p.Filter, "")
	}
	if p.Query != "" {
		at := "no match"
		if p.Hits > 0 {
			at = "match " + strconv.Itoa(max(0, p.HitAt)+1) + "/" + strconv.Itoa(p.Hits)
		}
		chips += p.chip("/", p.Query, at)
	}
	left := p.Text
	if p.Searching {
		left = "searching… " + left
	}
	left = chips + st.Status.Render(scan.VisibleLine(left))
	// "? help • q quit" first: the right end always holds it; what is
	// selected is cut to leave it room, and the other keys go between
	// them as far as the room goes.
	hm := p.Help
	hm.SetWidth(0)
	first := hm.ShortHelpView(p.First)
	if cells.Width(first) >= width {
		return cells.Clip(first, width, "…")
	}
	left = cells.Clip(left, max(0, width-cells.Width(first)-2), "…")
	right := first
	sep := hm.Styles.ShortSeparator.Render(hm.ShortSeparator)
	if room := width - cells.Width(left) - cells.Width(first) - cells.Width(sep) - 2; room >= 8 {
		hm.SetWidth(room)
		if more := hm.ShortHelpView(p.More); more != "" && cells.Width(more) <= room && ansi.Strip(more) != "…" {
			right = more + sep + first
		}
	}
	gap := width - cells.Width(left) - cells.Width(right)
	return left + strings.Repeat(" ", max(1, gap)) + right
}

// chip is an active filter or search in the status line: its label, its
// text (hostile, cut to 24 cells) and a count, bracketed in mono.
func (p Status) chip(label, text, count string) string {
	st := p.St
	text = cells.Clip(scan.VisibleLine(text), 24, "…")
	if label != "/" {
		label += " "
	}
	if count != "" {
		count = " · " + count
	}
	if st.Mono {
		return "[" + label + text + count + "] "
	}
	return st.StatusKey.Render(label) + st.Accent.Render(text) + st.Status.Render(count+" │ ")
}
