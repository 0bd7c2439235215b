package cells

import (
	"strings"
	"testing"
)

// TestWrapIndented: no line wider than the width, the line's indent kept
// on every continuation line, no "[U+XXXX]" token split, no word lost.
func TestWrapIndented(t *testing.T) {
	tags := strings.Repeat("[U+E0074][U+E0068]", 12)
	for _, c := range []struct {
		line        string
		width, hang int
	}{
		{"    skills/ deploy/ a rather long listing line that has to wrap somewhere soon", 30, 0},
		{"  short." + tags + " then words after it", 40, 2},
		{"      " + tags, 27, 0},
		{"no indent at all but many words to wrap over several lines of text", 20, 4},
	} {
		lines := WrapIndented(c.line, c.width, c.hang)
		indent := c.line[:len(c.line)-len(strings.TrimLeft(c.line, " "))]
		for i, l := range lines {
			if w := Width(l); w > c.width {
				t.Errorf("%q: line %d is %d wide, over %d", c.line, i+1, w, c.width)
			}
			if i > 0 && !strings.HasPrefix(l, indent+strings.Repeat(" ", c.hang)) {
				t.Errorf("%q: continuation %q lost the indent %q", c.line, l, indent)
			}
			if strings.Count(l, "[") != strings.Count(l, "]") {
				t.Errorf("%q: line %q splits a [U+XXXX] token", c.line, l)
			}
		}
		// Hard breaks join back without a space, word breaks with one.
		joined := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
		if strings.ReplaceAll(joined, " ", "") != strings.ReplaceAll(c.line, " ", "") {
			t.Errorf("%q: text changed by the wrap:\n%q", c.line, joined)
		}
		if len(lines) < 2 {
			t.Errorf("%q: not wrapped at %d", c.line, c.width)
		}
	}
	if got := WrapIndented("  fits  ", 10, 2); len(got) != 1 || got[0] != "  fits" {
		t.Errorf("a line that fits: %q", got)
	}
}

// TestClipWhole: an excerpt is cut before a token, never inside it.
func TestClipWhole(t *testing.T) {
	got := ClipWhole("[U+E0069][U+E0067][U+E006E]", 20)
	if got != "[U+E0069][U+E0067]…" {
		t.Errorf("ClipWhole = %q", got)
	}
}
