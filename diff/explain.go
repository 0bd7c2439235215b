package diff

import (
	"fmt"
	"strings"

	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// Sentence says in words what broke the cache, for people: where (segment,
// channel, kind), why (a change of model or provider, an insertion, a
// removal, a reordering, or the changing value the text changed in) and at
// which byte. Every name in it is shown visibly (a hostile input can put
// anything in them). The cache report and the
// viewer's Cache view both say it.
func (b *Break) Sentence() string {
	v := scan.VisibleLine
	where := fmt.Sprintf("%s (%s, %s)", v(b.Segment), v(string(b.Channel)), v(string(b.Kind)))
	switch b.Cause {
	case CauseModel:
		return fmt.Sprintf("the model changed from %s to %s: providers keep one cache per model", scan.VisibleLine(b.Before), scan.VisibleLine(b.After))
	case CauseCacheKey:
		return fmt.Sprintf("the prompt_cache_key changed from %s to %s: the provider routes its cache by it", scan.VisibleLine(b.Before), scan.VisibleLine(b.After))
	case CauseProvider:
		return fmt.Sprintf("the provider changed (%s to %s): nothing is shared", scan.VisibleLine(b.Before), scan.VisibleLine(b.After))
	case CauseAdded:
		return where + " was inserted before the end of the previous request"
	case CauseRemoved:
		return where + " of the previous request is gone"
	case CauseReordered:
		return where + " moved: the same segments in another order"
	}
	if b.Rule == audit.RuleToolChanged {
		who := "the host's tool " + v(b.Label)
		if b.Server != "" {
			who = "MCP tool " + v(b.Label) + " (server " + v(b.Server) + ")"
		}
		return fmt.Sprintf("the definition of %s changed at byte %d, in %s: a tool-changed finding of check (a rug pull when the tool was approved before) and a tools_changed break",
			who, b.Offset, v(b.Segment))
	}
	if b.Volatile != "" {
		// "an" before a vowel sound: not before uuid (said "you-you-id").
		article := "a"
		if strings.ContainsRune("aeio", rune(b.Volatile[0])) {
			article = "an"
		}
		return fmt.Sprintf("%s %s in %s changed at byte %d", article, v(string(b.Volatile)), where, b.Offset)
	}
	return fmt.Sprintf("%s changed at byte %d", where, b.Offset)
}

// Brief names a break in a few words, for a table column: "system[0]/time
// changed (timestamp)", or "model changed". The cache report and whatif
// both show it.
func (b *Break) Brief() string {
	if b.Cause.Switch() {
		return string(b.Cause) + " changed"
	}
	s := scan.VisibleLine(b.Segment) + " " + string(b.Cause)
	if b.Rule != "" {
		s += " (" + b.Rule + ")"
	}
	if b.Volatile != "" {
		s += " (" + string(b.Volatile) + ")"
	}
	return s
}
