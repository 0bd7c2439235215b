package diff

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestBreakSentence checks the words a break is said in: the changing
// value with its article, a change of model, an insertion, and hostile
// text shown visibly.
func TestBreakSentence(t *testing.T) {
	for _, c := range []struct {
		b    Break
		want string
	}{
		{Break{Segment: "system[0]/time", Channel: wire.ChannelSystem, Kind: wire.KindTime, Offset: 29, Cause: CauseChanged, Volatile: "timestamp"},
			"a timestamp in system[0]/time (system, time) changed at byte 29"},
		{Break{Segment: "system[0]", Channel: wire.ChannelSystem, Kind: wire.KindHostRules, Offset: 3, Cause: CauseChanged, Volatile: "uuid"},
			"a uuid in system[0] (system, host-rules) changed at byte 3"},
		{Break{Segment: "messages[2]", Channel: wire.ChannelMessages, Kind: wire.KindUserInput, Cause: CauseAdded},
			"messages[2] (messages, user-input) was inserted before the end of the previous request"},
		{Break{Cause: CauseModel, Before: "a\x1b[2J", After: "b"},
			"the model changed from a␛[2J to b: providers keep one cache per model"},
		{Break{Segment: "s\u202e", Channel: "c\x07", Kind: "k", Offset: 1, Cause: CauseChanged, Volatile: "x\x1b]0;t\x07"},
			"a x␛]0;t␇ in s[U+202E] (c␇, k) changed at byte 1"},
		{Break{Segment: "tools[0]", Channel: wire.ChannelTools, Kind: wire.KindToolSchema, Offset: 7, Cause: CauseChanged},
			"tools[0] (tools, tool-schema) changed at byte 7"},
	} {
		if got := c.b.Sentence(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.b, got, c.want)
		}
	}
}
