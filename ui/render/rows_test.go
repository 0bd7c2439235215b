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
	if got := PrefixTitle(9, 4, 100); !strings.HasPrefix(got, "⚠ 4/9 UNTRUSTED") {
		t.Errorf("prefix title %q", got)
	}
	if got := PrefixTitle(3, 0, 100); strings.Contains(got, "UNTRUSTED") {
		t.Errorf("prefix title %q", got)
	}
}

// TestEscapeRows: an escape's row says what it did (entity, stripped),
// names the envelope and source of its segment, gives the offset into the
// text as sent under a heading that says so, and a stripped one names the
// code points removed and their class instead of "was replaced by" and
// nothing.
func TestEscapeRows(t *testing.T) {
	st := themes.New(themes.Mono)
	seg := wire.Segment{ID: "messages[0].content[0]/untrusted_agents_md", Envelope: "untrusted_agents_md", Label: "/home/dev/poisoned/AGENTS.md"}
	where := EscapeWhere(&seg)
	stripped := wire.Escape{Rule: "stripped", Offset: 365, Original: "\u202e"}
	entity := wire.Escape{Rule: "entity", Offset: 135, Text: "&lt;", Original: "<"}
	if row := plain(EscapeRow(st, &stripped, where, 60)); !strings.HasPrefix(row, "stripped") || !strings.Contains(row, "untrusted_agents_md /home/dev/poisoned/AGENTS.md") ||
		!strings.Contains(row, "@365") || !strings.Contains(row, "removed [U+202E]") {
		t.Errorf("stripped row: %q", row)
	}
	if row := plain(EscapeRow(st, &entity, where, 60)); !strings.HasPrefix(row, "entity") || !strings.Contains(row, "< → &lt;") {
		t.Errorf("entity row: %q", row)
	}
	if d := plain(EscapeDetail(st, &stripped, where)); !strings.HasPrefix(d, "stripped [U+202E] (1 code point, bidi") || !strings.Contains(d, "nothing left in its place") ||
		strings.Contains(d, "was replaced by") || !strings.Contains(d, "of the text as sent") {
		t.Errorf("stripped detail: %q", d)
	}
	if h := EscapesHead(40); !strings.Contains(h, "@sent") || !strings.Contains(h, "envelope, source") {
		t.Errorf("heading %q", h)
	}
}
