package ui

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/widget"
)

// TestCacheDetailWrapsTheReason: the Cache view's detail wraps the reason
// of a disagreement (`!`) to the width instead of cutting it, and shows the
// notes `cache` prints, such as a prefix below the provider's minimum.
func TestCacheDetailWrapsTheReason(t *testing.T) {
	reqs := testSession()
	why := "recorded 0 cached tokens where 3,412 were predicted: the provider wrote no entry for this prefix, it was evicted or never written"
	min := "shared prefix of 812 tokens is below the 1024-token minimum of anthropic caching"
	steps := []*diff.Step{nil, {Break: &diff.Break{Segment: "system[0]", Before: "22:08:44", After: "22:09:13"},
		Disagreement: why, Notes: []string{min}}, nil}
	p := cacheView{st: themes.New(themes.Dark), reqs: []entry{{req: reqs[0]}, {req: reqs[1]}, {req: reqs[2]}},
		steps: steps, cur: widget.Cursor{Sel: 1}, prev: func(i int) int { return i - 1 }}
	for _, w := range []int{80, 120} {
		lines := p.detail(1, w)
		if len(lines) < cacheDetailLines {
			t.Fatalf("at %d columns the detail has %d lines, under %d", w, len(lines), cacheDetailLines)
		}
		var text []string
		for _, l := range lines {
			l = plain(l)
			if (strings.HasPrefix(l, "!") || strings.HasPrefix(l, "note")) && cellWidth(l) > w-2 {
				t.Errorf("at %d columns the line %q is %d cells", w, l, cellWidth(l))
			}
			text = append(text, strings.Fields(l)...)
		}
		all := strings.ReplaceAll(strings.Join(text, " "), "- ", "-")
		for _, want := range []string{"! " + why, "note: " + min} {
			if !strings.Contains(all, want) {
				t.Errorf("at %d columns the detail does not say %q:\n%s", w, want, strings.Join(lines, "\n"))
			}
		}
	}
}
