package diff

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestJudgeVerdict(t *testing.T) {
	all := func(wire.Channel) bool { return true }
	noHead := func(ch wire.Channel) bool { return ch == wire.ChannelMessages }
	for _, c := range []struct {
		reason, attr string
		recorded     func(wire.Channel) bool
		want         string
	}{
		{"system_changed", AttrSystem, all, VerdictAgrees},
		{"system_changed", AttrMessages, all, VerdictDisagrees},
		{"tools_changed", AttrTools, all, VerdictAgrees},
		{"model_changed", AttrModel, all, VerdictAgrees},
		{"model_changed", AttrNone, all, VerdictDisagrees},
		{"messages_changed", AttrMessages, all, VerdictAgrees},
		{"context_compacted", AttrMessages, all, VerdictAgrees},
		{"input_changed", AttrSystem, all, VerdictAgrees},
		{"input_changed", AttrMessages, all, VerdictAgrees},
		{"input_changed", AttrTools, all, VerdictDisagrees},
		{"cache_hit", AttrNone, all, VerdictAgrees},
		{"cache_hit", AttrSystem, all, VerdictDisagrees},
		{"unchanged", AttrMessages, all, VerdictAgrees},
		{"unchanged", AttrTools, all, VerdictDisagrees},
		// Judges of what wirelens cannot check.
		{"pending", AttrNone, all, VerdictInconclusive},
		{"previous_message_not_found", AttrSystem, all, VerdictInconclusive},
		{"comparison_response_not_found", AttrNone, all, VerdictInconclusive},
		{"reasoning_effort_changed", AttrNone, all, VerdictInconclusive},
		{"unavailable", AttrNone, all, VerdictInconclusive},
		// A transcript without tools and system prompt cannot be checked
		// against a verdict on them.
		{"tools_changed", AttrNone, noHead, VerdictInconclusive},
		{"system_changed", AttrMessages, noHead, VerdictInconclusive},
		{"messages_changed", AttrNone, noHead, VerdictDisagrees},
		{"cache_hit", AttrTools, noHead, VerdictInconclusive},
	} {
		v := &wire.CacheVerdict{By: "test", Reason: c.reason, MissedTokens: -1}
		if got := judgeVerdict(v, c.attr, c.recorded); got != c.want {
			t.Errorf("%s against %s: %s, want %s", c.reason, c.attr, got, c.want)
		}
	}
}
