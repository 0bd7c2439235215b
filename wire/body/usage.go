package body

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// Recorded usage, normalised so that Usage.InputTokens always includes cached
// tokens. The providers disagree:
//   - Anthropic: input_tokens counts only the tokens after the last cache
//     breakpoint; cache_read_input_tokens and cache_creation_input_tokens are
//     on top of it.
//   - OpenAI Chat Completions: prompt_tokens includes
//     prompt_tokens_details.cached_tokens. Moonshot's (Kimi's)
//     OpenAI-compatible API also reports cached_tokens at the top of usage.
//     DeepSeek's reports prompt_cache_hit_tokens (prompt_tokens counts hits
//     and misses).
//   - OpenAI Responses: input_tokens includes input_tokens_details.cached_tokens.
//   - Gemini: usageMetadata.promptTokenCount includes cachedContentTokenCount.

// rawUsage holds every provider's usage members; nil means absent, so that
// streamed events can be merged member by member.
type rawUsage struct {
	// Anthropic and Responses
	InputTokens   *int `json:"input_tokens"`
	OutputTokens  *int `json:"output_tokens"`
	CacheRead     *int `json:"cache_read_input_tokens"`
	CacheCreation *int `json:"cache_creation_input_tokens"`
	// CacheCreationBy splits CacheCreation by lifetime (Anthropic).
	CacheCreationBy *struct {
		Ephemeral1h *int `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	InputDetails *struct {
		CachedTokens *int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	// OpenAI Chat Completions (and compatible hosts)
	PromptTokens     *int `json:"prompt_tokens"`
	CompletionTokens *int `json:"completion_tokens"`
	PromptDetails    *struct {
		CachedTokens *int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CachedTokens *int `json:"cached_tokens"`
	// DeepSeek's OpenAI-compatible API: prompt_tokens is hits plus misses.
	PromptCacheHit *int `json:"prompt_cache_hit_tokens"`
	// Gemini usageMetadata
	PromptTokenCount     *int `json:"promptTokenCount"`
	CachedContentTokens  *int `json:"cachedContentTokenCount"`
	CandidatesTokenCount *int `json:"candidatesTokenCount"`
	ThoughtsTokenCount   *int `json:"thoughtsTokenCount"`
}

// merge copies the members set in o over u (later stream events win).
func (u *rawUsage) merge(o *rawUsage) {
	set := func(dst **int, src *int) {
		if src != nil {
			*dst = src
		}
	}
	set(&u.InputTokens, o.InputTokens)
	set(&u.OutputTokens, o.OutputTokens)
	set(&u.CacheRead, o.CacheRead)
	set(&u.CacheCreation, o.CacheCreation)
	if o.CacheCreationBy != nil {
		u.CacheCreationBy = o.CacheCreationBy
	}
	if o.InputDetails != nil {
		u.InputDetails = o.InputDetails
	}
	set(&u.PromptTokens, o.PromptTokens)
	set(&u.CompletionTokens, o.CompletionTokens)
	if o.PromptDetails != nil {
		u.PromptDetails = o.PromptDetails
	}
	set(&u.CachedTokens, o.CachedTokens)
	set(&u.PromptCacheHit, o.PromptCacheHit)
	set(&u.PromptTokenCount, o.PromptTokenCount)
	set(&u.CachedContentTokens, o.CachedContentTokens)
	set(&u.CandidatesTokenCount, o.CandidatesTokenCount)
	set(&u.ThoughtsTokenCount, o.ThoughtsTokenCount)
}

func intOrZero(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// normalise turns the members into a Usage following the convention of the
// provider whose members are present; format breaks the tie between
// Anthropic and Responses (both say input_tokens). It returns nil when no
// input count was recorded.
func (u *rawUsage) normalise(format wire.Format) *wire.Usage {
	switch {
	case u.PromptTokenCount != nil:
		return &wire.Usage{
			InputTokens:  *u.PromptTokenCount,
			CachedTokens: intOrZero(u.CachedContentTokens),
			OutputTokens: intOrZero(u.CandidatesTokenCount) + intOrZero(u.ThoughtsTokenCount),
		}
	case u.PromptTokens != nil:
		cached := intOrZero(u.CachedTokens)
		if u.CachedTokens == nil {
			cached = intOrZero(u.PromptCacheHit)
		}
		if u.PromptDetails != nil && u.PromptDetails.CachedTokens != nil {
			cached = *u.PromptDetails.CachedTokens
		}
		out := &wire.Usage{InputTokens: *u.PromptTokens, CachedTokens: cached, OutputTokens: intOrZero(u.CompletionTokens)}
		if u.CacheCreation != nil {
			out.CacheWriteTokens = *u.CacheCreation
		}
		return out
	case u.InputTokens != nil:
		anthropic := u.CacheRead != nil || u.CacheCreation != nil ||
			(u.InputDetails == nil && format != wire.FormatOpenAIResponses)
		if anthropic {
			read, write := intOrZero(u.CacheRead), intOrZero(u.CacheCreation)
			out := &wire.Usage{
				InputTokens:      *u.InputTokens + read + write,
				CachedTokens:     read,
				CacheWriteTokens: write,
				OutputTokens:     intOrZero(u.OutputTokens),
			}
			if u.CacheCreationBy != nil {
				out.CacheWrite1hTokens = min(write, intOrZero(u.CacheCreationBy.Ephemeral1h))
			}
			return out
		}
		cached := 0
		if u.InputDetails != nil {
			cached = intOrZero(u.InputDetails.CachedTokens)
		}
		return &wire.Usage{InputTokens: *u.InputTokens, CachedTokens: cached, OutputTokens: intOrZero(u.OutputTokens)}
	}
	return nil
}

// responseEnvelope finds usage where each provider puts it in a response
// body or a streamed event: usage at the top (Anthropic messages, Chat
// completions and their final stream chunk, Anthropic message_delta),
// choices[].usage (Moonshot's final stream chunk),
// message.usage (Anthropic message_start), response.usage (Responses
// response.completed) and usageMetadata (Gemini).
type responseEnvelope struct {
	Type          string    `json:"type"`
	Model         string    `json:"model"`
	Usage         *rawUsage `json:"usage"`
	UsageMetadata *rawUsage `json:"usageMetadata"`
	Message       *struct {
		Model string    `json:"model"`
		Usage *rawUsage `json:"usage"`
	} `json:"message"`
	Response *struct {
		Model string    `json:"model"`
		Usage *rawUsage `json:"usage"`
	} `json:"response"`
	// Moonshot's stream puts the final usage inside the choice.
	Choices []struct {
		Usage *rawUsage `json:"usage"`
	} `json:"choices"`
}

// UsageAcc accumulates the usage of one response, streamed or not.
type UsageAcc struct {
	raw     rawUsage
	seen    bool
	Model   string             // the model the response names
	verdict *wire.CacheVerdict // the provider's verdict on the cache (verdict.go)
}

// add reads one response body or stream event.
func (a *UsageAcc) add(v []byte) {
	var e responseEnvelope
	if Unmarshal(v, &e) != nil {
		return
	}
	a.addVerdict(v)
	for _, c := range e.Choices {
		if c.Usage != nil {
			a.raw.merge(c.Usage)
			a.seen = true
		}
	}
	for _, u := range []*rawUsage{e.Usage, e.UsageMetadata} {
		if u != nil {
			a.raw.merge(u)
			a.seen = true
		}
	}
	if e.Message != nil {
		if e.Message.Usage != nil {
			a.raw.merge(e.Message.Usage)
			a.seen = true
		}
		if a.Model == "" {
			a.Model = e.Message.Model
		}
	}
	if e.Response != nil {
		if e.Response.Usage != nil {
			a.raw.merge(e.Response.Usage)
			a.seen = true
		}
		if a.Model == "" {
			a.Model = e.Response.Model
		}
	}
	if a.Model == "" {
		a.Model = e.Model
	}
}

func (a *UsageAcc) Usage(format wire.Format) *wire.Usage {
	if !a.seen {
		return nil
	}
	return a.raw.normalise(format)
}

// ParseUsage normalises one recorded usage object (Anthropic or Responses
// usage, Chat Completions usage, Gemini usageMetadata) of a response to a
// request of the given format. It returns nil when v carries no input count.
func ParseUsage(format wire.Format, v jsontext.Value) (*wire.Usage, error) {
	var u rawUsage
	if !fastUsage(v, &u) {
		u = rawUsage{}
		if err := Unmarshal(v, &u); err != nil {
			return nil, err
		}
	}
	return u.normalise(format), nil
}

// ResponseUsage reads the usage of a recorded response: a JSON body, a JSON
// array of streamed chunks (Gemini's streamGenerateContent without SSE), or
// a text/event-stream. It returns nil when none was recorded.
func ResponseUsage(format wire.Format, body []byte) *wire.Usage {
	var a UsageAcc
	a.Read(body)
	return a.Usage(format)
}

// Read takes a whole response body of any of the shapes ResponseUsage reads.
func (a *UsageAcc) Read(body []byte) {
	t := TrimSpace(body)
	switch {
	case len(t) == 0:
	case t[0] == '{':
		a.add(t)
	case t[0] == '[':
		var chunks []jsontext.Value
		if Unmarshal(t, &chunks) == nil {
			for _, c := range chunks {
				a.add(c)
			}
		}
	default:
		EachSSE(body, func(_ string, data []byte) { a.add(data) })
	}
}
