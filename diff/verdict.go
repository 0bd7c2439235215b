package diff

import "github.com/wirelens/wirelens/wire"

// Providers' verdicts (wire.CacheVerdict) are set beside wirelens's own
// attribution of a request's cache break, and each is judged to agree,
// disagree, or say nothing wirelens can check.

// Attribution is wirelens's own answer in the verdicts' terms: where the
// request stops sharing the prefix of the earlier request it is compared
// with.
const (
	AttrNone     = "no_break"                 // it starts with the whole earlier request
	AttrModel    = "model_changed"            // another model or provider
	AttrTools    = "tools_changed"            // the first difference is in the tools
	AttrSystem   = "system_changed"           // in the system channel
	AttrMessages = "messages_changed"         // in the messages
	AttrCacheKey = "prompt_cache_key_changed" // another prompt_cache_key
)

// Attribution is wirelens's attribution of st in the verdicts' terms.
func Attribution(st *Step) string {
	b := st.Break
	switch {
	case b == nil:
		return AttrNone
	case b.Cause == CauseCacheKey:
		return AttrCacheKey
	case b.Cause == CauseModel || b.Cause == CauseProvider:
		return AttrModel
	case b.Channel == wire.ChannelTools:
		return AttrTools
	case b.Channel == wire.ChannelSystem:
		return AttrSystem
	}
	return AttrMessages
}

// Verdict outcomes.
const (
	VerdictAgrees       = "agrees"
	VerdictDisagrees    = "disagrees"
	VerdictInconclusive = "inconclusive"
)

// attrChannel is the channel an attribution names, "" for none.
func attrChannel(attr string) wire.Channel {
	switch attr {
	case AttrTools:
		return wire.ChannelTools
	case AttrSystem:
		return wire.ChannelSystem
	case AttrMessages:
		return wire.ChannelMessages
	}
	return ""
}

// judgeVerdict says whether v agrees with wirelens's attribution attr, or
// is inconclusive: the comparison did not run or was still running, v
// names a change of request settings (a cache key, a service tier,
// reasoning effort...) that wirelens does not compare, or the channel
// either names is not recorded in one of the two requests (recorded says
// which are: a Claude Code transcript holds no tools and no system prompt,
// so a verdict on them cannot be checked against it).
func judgeVerdict(v *wire.CacheVerdict, attr string, recorded func(wire.Channel) bool) string {
	var want []string
	switch v.Reason {
	case "model_changed":
		want = []string{AttrModel}
	case "tools_changed":
		want = []string{AttrTools}
	case "system_changed":
		want = []string{AttrSystem}
	case "messages_changed", "context_compacted":
		want = []string{AttrMessages}
	case "input_changed":
		// The Responses input: instructions and input items.
		want = []string{AttrSystem, AttrMessages}
	case "cache_hit":
		want = []string{AttrNone}
	case "unchanged":
		// kimi-code's hashes say tools and system prompt are the same: the
		// break, if any, is in the messages.
		want = []string{AttrNone, AttrMessages}
	default:
		return VerdictInconclusive
	}
	check := []string{attr}
	if len(want) == 1 {
		check = append(check, want[0])
	}
	for _, a := range check {
		if ch := attrChannel(a); ch != "" && !recorded(ch) {
			return VerdictInconclusive
		}
	}
	for _, w := range want {
		if w == attr {
			return VerdictAgrees
		}
	}
	return VerdictDisagrees
}
