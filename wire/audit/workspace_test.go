package audit

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestAuditLegacyHintsFromMarker: the AGENTS.md source marker counts at the
// start of a line (after blanks) that names an AGENTS.md, and the span is at
// the start of that line.
func TestAuditLegacyHintsFromMarker(t *testing.T) {
	for _, c := range []struct {
		text string
		off  int // -1: no span
	}{
		{"intro text here\n<!-- From: /w/AGENTS.md -->\nUse tabs.\n", 16},
		{"intro text here\n  \t<!-- From: /w/agents.MD -->\n", 16},
		{"<!-- From: /w/AGENTS.md --> at the very start", 0},
		{"see <!-- From: /w/AGENTS.md --> inline only, not a marker\n", -1},
		{"line one is long enough\n<!-- From: /w/README.md -->\nx <!-- From: y -->\n  <!-- From: /z/AGENTS.md -->\n", 71},
		{"no marker at all in this text\n", -1},
	} {
		got := -1
		for _, sp := range legacyHints(c.text) {
			if sp.Kind == wire.KindAgentsMD && sp.What == "an AGENTS.md source marker" {
				got = sp.Offset
			}
		}
		if got != c.off {
			t.Errorf("%q: span at %d, want %d", c.text, got, c.off)
		}
	}
}
