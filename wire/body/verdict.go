package body

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// Providers' own verdicts on a request's prompt cache, read from recorded
// responses:
//   - Anthropic (cache diagnostics, beta header cache-diagnosis-2026-04-07):
//     the response's diagnostics.cache_miss_reason, an object
//     {"type": "model_changed" | "system_changed" | "tools_changed" |
//     "messages_changed" | "previous_message_not_found" | "unavailable",
//     "cache_missed_input_tokens": N} (the count only for the *_changed
//     types), or null while the comparison was still running. In a stream it
//     rides on message_start's message. Claude Code writes the same object
//     into its transcripts' assistant messages.
//   - OpenAI Responses: the response's prompt_cache_diagnostics, tagged by
//     type: cache_hit, comparison_response_not_found, unavailable, or
//     cache_miss with reason (model_changed, prompt_cache_key_changed,
//     tools_changed, text_format_changed, reasoning_effort_changed,
//     verbosity_changed, context_compacted, input_changed,
//     service_tier_changed), cache_missed_tokens and
//     comparison_reusable_tokens. In a stream it rides on
//     response.completed's response.

// anthropicDiagnostics is Anthropic's diagnostics object.
type anthropicDiagnostics struct {
	CacheMissReason jsontext.Value `json:"cache_miss_reason"`
}

type anthropicMissReason struct {
	Type   string `json:"type"`
	Missed *int   `json:"cache_missed_input_tokens"`
}

// openAIDiagnostics is a Responses response's prompt_cache_diagnostics.
type openAIDiagnostics struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
	Missed *int   `json:"cache_missed_tokens"`
}

// AnthropicVerdict reads an Anthropic diagnostics object (as a response or
// a Claude Code transcript carries it); nil when it holds no
// cache_miss_reason member or is not an object.
func AnthropicVerdict(v jsontext.Value) *wire.CacheVerdict {
	if len(v) == 0 || v.Kind() != '{' {
		return nil
	}
	var d anthropicDiagnostics
	if Unmarshal(v, &d) != nil || len(d.CacheMissReason) == 0 {
		return nil
	}
	out := &wire.CacheVerdict{By: "anthropic", MissedTokens: -1}
	switch d.CacheMissReason.Kind() {
	case 'n':
		out.Reason = "pending"
		return out
	case '{':
	default:
		return nil
	}
	var r anthropicMissReason
	if Unmarshal(d.CacheMissReason, &r) != nil || r.Type == "" {
		return nil
	}
	out.Reason = r.Type
	if r.Missed != nil {
		out.MissedTokens = *r.Missed
	}
	return out
}

// openAIVerdict reads a Responses prompt_cache_diagnostics object.
func openAIVerdict(v jsontext.Value) *wire.CacheVerdict {
	if len(v) == 0 || v.Kind() != '{' {
		return nil
	}
	var d openAIDiagnostics
	if Unmarshal(v, &d) != nil || d.Type == "" {
		return nil
	}
	out := &wire.CacheVerdict{By: "openai", Reason: d.Type, MissedTokens: -1}
	if d.Type == "cache_miss" && d.Reason != "" {
		out.Reason = d.Reason
	}
	if d.Missed != nil {
		out.MissedTokens = *d.Missed
	}
	return out
}

// diagnosticsEnvelope finds the verdicts where the providers put them in a
// response body or a streamed event.
type diagnosticsEnvelope struct {
	Diagnostics jsontext.Value `json:"diagnostics"`
	PromptCache jsontext.Value `json:"prompt_cache_diagnostics"`
	Message     *struct {
		Diagnostics jsontext.Value `json:"diagnostics"`
	} `json:"message"`
	Response *struct {
		PromptCache jsontext.Value `json:"prompt_cache_diagnostics"`
	} `json:"response"`
}

// addVerdict reads the verdicts of one response body or stream event: a
// later one replaces an earlier, except that a pending verdict does not
// replace a finished one.
func (a *UsageAcc) addVerdict(v []byte) {
	var e diagnosticsEnvelope
	if Unmarshal(v, &e) != nil {
		return
	}
	var found []*wire.CacheVerdict
	found = append(found, AnthropicVerdict(e.Diagnostics), openAIVerdict(e.PromptCache))
	if e.Message != nil {
		found = append(found, AnthropicVerdict(e.Message.Diagnostics))
	}
	if e.Response != nil {
		found = append(found, openAIVerdict(e.Response.PromptCache))
	}
	for _, f := range found {
		if f == nil || (f.Reason == "pending" && a.verdict != nil) {
			continue
		}
		a.verdict = f
	}
}

// Verdict is the provider's verdict on the prompt cache the response
// carried, or nil.
func (a *UsageAcc) Verdict() *wire.CacheVerdict { return a.verdict }
