package diff

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// CacheMode is how a provider decides what to cache.
type CacheMode string

// Cache modes.
const (
	// CacheAutomatic caches every long enough prompt prefix by itself
	// (OpenAI, Gemini implicit caching, Moonshot/Kimi).
	CacheAutomatic CacheMode = "automatic"
	// CacheExplicit caches only up to the breakpoints the request marks
	// (Anthropic cache_control).
	CacheExplicit CacheMode = "explicit"
)

// CacheRule is one provider's (or one model family's) prompt-cache
// behaviour, as its public documentation states it.
type CacheRule struct {
	// Provider is the family name shown in reports: openai, anthropic,
	// gemini, moonshot.
	Provider string
	// Models are lower-case substrings of the model name this row applies
	// to; an empty list makes the row the provider's default.
	Models []string
	Mode   CacheMode
	// MinTokens is the shortest prefix that is cached at all.
	MinTokens int
	// Step is the granularity of a hit: cached tokens are counted in whole
	// steps (1 means exact).
	Step int
	// MaxBreakpoints and LookbackBlocks apply to explicit caching: at most
	// this many cache_control markers, and a hit is looked for up to this
	// many content blocks before each marker.
	MaxBreakpoints int
	LookbackBlocks int
	// Note says where the figures come from, for reports and for whoever
	// updates this table.
	Note string
}

// CacheRules is the one table of provider cache rules. Rows are tried in
// order and the first whose provider matches and whose Models (if any)
// contain a substring of the model name wins, so specific rows come before
// the provider's default. The figures change: update them here only.
var CacheRules = []CacheRule{
	// Anthropic: explicit cache_control breakpoints, at most 4; the hit is
	// looked up at each breakpoint and up to 20 blocks before it; tools,
	// system and messages invalidate in that order. Minimum cacheable length
	// per model family (Anthropic prompt-caching docs, checked 2026-11).
	{Provider: "anthropic", Models: []string{"opus-5", "fable-5", "mythos-5"}, Mode: CacheExplicit,
		MinTokens: 512, Step: 1, MaxBreakpoints: 4, LookbackBlocks: 20,
		Note: "Anthropic cache_control, 512-token minimum"},
	{Provider: "anthropic", Models: []string{"haiku-4-5", "haiku-4.5", "opus-4-5", "opus-4.5", "opus-4-6",
		"opus-4.6", "opus-4-7", "opus-4.7"}, Mode: CacheExplicit,
		MinTokens: 4096, Step: 1, MaxBreakpoints: 4, LookbackBlocks: 20,
		Note: "Anthropic cache_control, 4096-token minimum"},
	{Provider: "anthropic", Models: []string{"sonnet-4-6", "sonnet-4.6", "haiku-3", "3-haiku", "3-5-haiku"},
		Mode: CacheExplicit, MinTokens: 2048, Step: 1, MaxBreakpoints: 4, LookbackBlocks: 20,
		Note: "Anthropic cache_control, 2048-token minimum"},
	{Provider: "anthropic", Mode: CacheExplicit, MinTokens: 1024, Step: 1, MaxBreakpoints: 4, LookbackBlocks: 20,
		Note: "Anthropic cache_control, 1024-token minimum (Sonnet, Opus 4 and 4.1, Claude 3.x)"},

	// OpenAI: automatic prefix caching of prompts of 1024 tokens or more,
	// hits in 128-token increments.
	{Provider: "openai", Mode: CacheAutomatic, MinTokens: 1024, Step: 128,
		Note: "OpenAI automatic prefix caching: 1024-token minimum, 128-token steps"},

	// Gemini implicit caching (Gemini 2.5 and newer), minimum per model
	// (Gemini API caching docs, checked 2026-11). Models before 2.5 have
	// no implicit caching.
	{Provider: "gemini", Models: []string{"gemini-1", "gemini-2.0", "gemini-pro", "gemini-ultra"},
		Mode: CacheAutomatic, MinTokens: 0, Step: 0,
		Note: "no implicit caching before Gemini 2.5"},
	{Provider: "gemini", Models: []string{"gemini-2.5"}, Mode: CacheAutomatic, MinTokens: 2048, Step: 1,
		Note: "Gemini implicit caching, 2048-token minimum"},
	{Provider: "gemini", Mode: CacheAutomatic, MinTokens: 4096, Step: 1,
		Note: "Gemini implicit caching, 4096-token minimum (Gemini 3 and newer)"},

	// Moonshot/Kimi: automatic caching by prefix hash, no marker needed;
	// prefixes match in 256-token chunks (measured against the Kimi coding
	// endpoint; Moonshot publishes no minimum).
	{Provider: "moonshot", Mode: CacheAutomatic, MinTokens: 256, Step: 256,
		Note: "Moonshot/Kimi automatic caching, 256-token chunks"},
}

// Provider names the provider family of a request: from the model name when
// it names one, else from the payload format.
func Provider(format wire.Format, model string) string {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "kimi") || strings.Contains(m, "moonshot"):
		return "moonshot"
	case strings.Contains(m, "claude"):
		return "anthropic"
	case strings.Contains(m, "gemini"):
		return "gemini"
	case strings.HasPrefix(m, "gpt") || strings.HasPrefix(m, "o1") || strings.HasPrefix(m, "o3") ||
		strings.HasPrefix(m, "o4") || strings.Contains(m, "codex") || strings.HasPrefix(m, "chatgpt"):
		return "openai"
	}
	switch format {
	case wire.FormatAnthropic, wire.FormatClaudeCode, wire.FormatClaudeTrace:
		return "anthropic"
	case wire.FormatGemini:
		return "gemini"
	case wire.FormatKimiCLI, wire.FormatKimiCode:
		return "moonshot"
	}
	return "openai"
}

// RuleFor returns the cache rule that applies to a request of this format
// and model.
func RuleFor(format wire.Format, model string) CacheRule {
	p := Provider(format, model)
	m := strings.ToLower(model)
	for _, r := range CacheRules {
		if r.Provider != p {
			continue
		}
		if len(r.Models) == 0 {
			return r
		}
		for _, sub := range r.Models {
			if strings.Contains(m, sub) {
				return r
			}
		}
	}
	// Every provider Provider can name has a default row.
	return CacheRule{Provider: p, Mode: CacheAutomatic}
}
