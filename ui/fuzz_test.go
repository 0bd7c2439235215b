package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire"
)

// FuzzUIContent renders any text, with an escape at a fuzzed offset and a
// search match, in the content pane at a fuzzed width, before and after
// its index and highlighting arrive (with an envelope's frame, a removal
// marker and a finding): the screen never holds a raw control,
// bidi control or escape sequence, and every line keeps its width by the
// widest measure and is no wider by any.
func FuzzUIContent(f *testing.F) {
	for i, s := range corpora(f) {
		if i%7 == 0 {
			f.Add(s, 5, 40)
		}
	}
	f.Add("{\"a\":\"\x1b[2J\u202e\"}\n<x>\x9b31m</x>", 3, 10)
	dark, mono := themes.New(themes.Dark), themes.New(themes.Mono)
	f.Fuzz(func(t *testing.T, text string, off, width int) {
		if width < 1 || width > 300 || len(text) > 1<<16 {
			return
		}
		var c content
		if off%2 == 0 {
			c.FrameOpen, c.FrameClose = "<untrusted_x a=\"\x1b]0;t\x07\u202e\">", "</untrusted_x>"
		}
		escapes := []wire.Escape{{Rule: "stripped", Offset: off / 2, Original: "\x1b[2J\u202e"}, {Rule: "entity\x1b", Offset: off, Text: "&lt;", Original: "<\u202e"}}
		jobs := c.Set(0, "k", text, escapes, nil, false, width, "")
		c.Marks = []mark{{Start: max(0, off), End: max(0, off) + 3}}
		c.Cut = off
		lo, hi := render.FindingSpan(text, off/3)
		c.Decorate(0, escapes, c.Marks, c.Cut, render.FindingMark{Start: lo, End: hi, Severity: "high"})
		check := func(stage string) {
			for _, st := range []*themes.Styles{dark, mono} {
				lines := c.Render(st, width, 8)
				out := strings.Join(lines, "\n")
				assertClean(t, stage, out)
				if st.Mono && strings.ContainsRune(out, 0x1b) {
					t.Fatalf("%s: mono wrote an escape", stage)
				}
				for _, l := range lines {
					if w := cells.Width(l); w != width {
						t.Fatalf("%s: line of width %d, want %d: %q", stage, w, width, l)
					}
					if w, wc := lipglossWidth(l), ansi.StringWidthWc(l); w > width || wc > width {
						t.Fatalf("%s: line of %d cells (%d per code point), more than %d: %q", stage, w, wc, width, l)
					}
				}
			}
		}
		check("plain")
		c.Scroll(2, 8)
		check("plain scrolled")
		c.ApplyPrep(jobs[0].(func() contentPrepMsg)())
		if lit := jobs[1].(func() contentLitMsg); lit != nil {
			c.ApplyLit(lit())
		}
		c.ToTop()
		check("prepared")
		c.Reveal(off, 8)
		check("revealed")
		c.ToBottom(8)
		check("bottom")
	})
}
