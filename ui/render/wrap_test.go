package render

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestWrapStyled: every word of the text is kept, each line is within the
// width and styled on its own (it opens and closes its style).
func TestWrapStyled(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true)
	text := "! recorded 0 cached tokens where 4,096 were predicted: the prefix is below the 1024-token minimum of the model"
	lines := WrapStyled(st, text, true, 30)
	if len(lines) < 3 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	var words []string
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 30 {
			t.Errorf("line %q is %d cells", l, w)
		}
		if !strings.HasSuffix(l, "\x1b[m") && !strings.HasSuffix(l, "\x1b[0m") {
			t.Errorf("line %q does not close its style", l)
		}
		words = append(words, strings.Fields(ansi.Strip(l))...)
	}
	if got := strings.ReplaceAll(strings.Join(words, " "), "- ", "-"); got != text { // a line may end after a hyphen
		t.Errorf("the words are %q", got)
	}
	if WrapStyled(st, text, false, 30) != nil {
		t.Error("a text not shown has lines")
	}
}
