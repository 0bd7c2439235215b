package render

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
)

// TestInSystemBadge: workspace text in the system channel gets a badge of
// its own, in another colour than a wrapped fragment's and with a form of
// its own without colour, whole in a column of an 80-column screen; the
// prefix's title counts such segments first.
func TestInSystemBadge(t *testing.T) {
	in := wire.Segment{ID: "system[0]/agents-md", Channel: wire.ChannelSystem, Kind: wire.KindAgentsMD, Trust: wire.Untrusted}
	frag := wire.Segment{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Kind: wire.KindAgentsMD, Trust: wire.Untrusted, Envelope: "untrusted_agents_md"}
	for _, theme := range []string{themes.Dark, themes.Light, themes.Mono} {
		st := themes.New(theme)
		a, b := SegmentBadge(st, &in), SegmentBadge(st, &frag)
		if plain(a) == plain(b) || a == b {
			t.Errorf("%s: the in-system badge %q reads as the fragment's %q", theme, a, b)
		}
		if !strings.Contains(plain(a), "IN SYSTEM") {
			t.Errorf("%s: the in-system badge is %q", theme, plain(a))
		}
		if theme != themes.Mono && strings.Contains(b, "38;2") && !strings.Contains(a, "48;2") {
			t.Errorf("%s: the in-system badge has no colour of its own: %q", theme, a)
		}
		l1, _ := SegmentRows(st, &in, SegmentMarks{Break: -1}, 26)
		if !strings.Contains(plain(cells.Fit(l1, 26)), "IN SYSTEM] agents-md") && !strings.Contains(plain(cells.Fit(l1, 26)), "IN SYSTEM  agents-md") {
			t.Errorf("%s: the row in a 26-cell column is %q", theme, plain(cells.Fit(l1, 26)))
		}
	}
	if got := PrefixTitle(9, 4); !strings.HasPrefix(got, "⚠ 4/9 UNTRUSTED") {
		t.Errorf("prefix title %q", got)
	}
	if got := PrefixTitle(3, 0); strings.Contains(got, "UNTRUSTED") {
		t.Errorf("prefix title %q", got)
	}
}
