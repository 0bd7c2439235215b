// Package wire is the model of a model request as it travels on the wire: a
// Request of ordered Segments, each with one channel, kind and trust, the
// Parts decoders find before they are cut, the interner that holds shared
// text once, and the token estimate. It also holds OpenInput, the one way
// every reader opens an input file (regular files only, read up to a cap),
// here because every reader imports wire. The packages below it read requests
// (decode, recording, body), write them (encode), scan and classify their
// text (scan, classify) and audit them (audit).
//
// Everything in a Request came from a payload or a workspace and is hostile
// data: render it only through scan.Visible or scan.VisibleLine.
package wire

import (
	"slices"
	"strconv"
	"time"
)

// Channel is where a segment sits on the wire.
type Channel string

// Channels, in the providers' cache order.
const (
	ChannelTools    Channel = "tools"
	ChannelSystem   Channel = "system"
	ChannelMessages Channel = "messages"
)

// CacheRank orders channels as providers hash them for prompt caching:
// tools, then system, then messages.
func (c Channel) CacheRank() int {
	switch c {
	case ChannelTools:
		return 0
	case ChannelSystem:
		return 1
	default:
		return 2
	}
}

// Trust is where a segment's text came from.
type Trust string

// Trust levels of CONTRACT.md.
const (
	Trusted    Trust = "trusted"   // host-owned rules and facts
	Untrusted  Trust = "untrusted" // workspace or tool-supplied data
	TrustUser  Trust = "user"      // the person's own input
	TrustModel Trust = "model"     // assistant output
)

// Kind is what a segment is.
type Kind string

// Kinds of CONTRACT.md.
const (
	KindHostRules      Kind = "host-rules"
	KindTime           Kind = "time"
	KindCwdListing     Kind = "cwd-listing"
	KindAdditionalDirs Kind = "additional-dirs"
	KindAgentsMD       Kind = "agents-md"
	KindSkillsListing  Kind = "skills-listing"
	KindSkillLoaded    Kind = "skill-loaded"
	KindEnvironment    Kind = "environment"
	KindReminder       Kind = "reminder"
	KindUserInput      Kind = "user-input"
	KindAssistant      Kind = "assistant"
	KindToolCall       Kind = "tool-call"
	KindToolResult     Kind = "tool-result"
	KindToolSchema     Kind = "tool-schema"
	KindOther          Kind = "other"
	// KindHostNote is a note the host writes about a tool's result in a part
	// of its own, apart from the tool's output (kimi-cli's
	// "<system>Command executed successfully.</system>" before the output):
	// trusted, since the host wrote it. The same tag inside the output's
	// text is not one.
	KindHostNote Kind = "host-note"
)

// WorkspaceDerived reports whether a kind carries text that comes from the
// workspace (the kinds that must never sit in the trusted system channel).
func (k Kind) WorkspaceDerived() bool {
	switch k {
	case KindCwdListing, KindAdditionalDirs, KindAgentsMD, KindSkillsListing, KindSkillLoaded:
		return true
	}
	return false
}

// Format names a payload format (the values of --format).
type Format string

// Formats. The agent recordings are read by their own decoders.
const (
	FormatAuto            Format = ""
	FormatOpenAIChat      Format = "openai-chat"
	FormatOpenAIResponses Format = "openai-responses"
	FormatAnthropic       Format = "anthropic"
	FormatGemini          Format = "gemini"
	FormatHAR             Format = "har"
	FormatClaudeTrace     Format = "claude-trace"
	FormatOpenAIBatch     Format = "openai-batch"
	FormatOTel            Format = "otel"
	FormatKimiCLI         Format = "kimi-cli"
	FormatKimiCode        Format = "kimi-code"
	FormatCodex           Format = "codex"
	FormatClaudeCode      Format = "claude-code"
	FormatGeminiCLI       Format = "gemini-cli"
)

// Request is one model request as it was (or would be) sent.
type Request struct {
	Format Format // the body's format (for HAR and traces, the format of the body inside)
	Model  string

	// Segments in wire order; within a channel they keep the payload's order.
	// Use CacheOrder for the providers' hashing order. Read-only: a decoder
	// may hand out requests whose Segments share one backing array (a
	// request that repeats every segment of the one before and adds more
	// holds a longer slice of that one's array), so a segment is never
	// written after the request is made: copy the slice to edit it.
	Segments []Segment
	// Breakpoints are the indices in Segments, ascending, of the segments
	// that carry an explicit cache breakpoint (Anthropic cache_control on
	// their part: the last segment of the part). They are the request's,
	// not the segments', so that a segment is the same value in every
	// request that holds it, wherever the breakpoints move.
	Breakpoints []int
	// CacheTTL1h says a breakpoint of the request asks for the 1-hour
	// lifetime (cache_control.ttl "1h").
	CacheTTL1h bool
	// CacheKey is the request's prompt_cache_key (OpenAI), by which the
	// provider routes its cache; "" when none.
	CacheKey string

	// Usage is the recorded usage of the response, when one was recorded.
	Usage *Usage
	// Verdict is what the provider (or the agent, from hashes it recorded)
	// said of this request's prompt cache against an earlier request, when
	// the recording carries it.
	Verdict *CacheVerdict

	// Where it came from.
	Source string // the file name as given on the command line ("-" for stdin)
	Index  int    // 1-based position of the request in its source
	Line   int    // 1-based line of the body in the source (JSONL), 0 when not line based
	Offset int64  // byte offset of the body's first byte in the source, -1 when unknown
	Length int64  // byte length of the body in the source, 0 when unknown

	// Endpoint is the URL a HAR or trace entry was sent to, when known.
	Endpoint string
	// At is when the request was sent, where the recording says so (HAR
	// startedDateTime, a trace's or proxy record's time, a transcript's
	// entry before the response, an OTel span's start); zero when unknown.
	// The cache analysis measures prompt-cache lifetimes with it.
	At time.Time

	// Notes say what a recording could not tell (for example "system prompt not
	// recorded") or what a decode.Decoder tolerated. They are hostile-free text written
	// by wirelens, but may quote payload values: render through Visible.
	Notes []string
}

// Usage is recorded token usage, normalised so that InputTokens always includes
// cached tokens, whatever the provider's own convention.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	CachedTokens     int `json:"cached_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens"`
	OutputTokens     int `json:"output_tokens,omitempty"`
	// CacheWrite1hTokens is the part of CacheWriteTokens written with a
	// 1-hour lifetime (Anthropic's cache_creation.ephemeral_1h_input_tokens).
	CacheWrite1hTokens int `json:"cache_write_1h_tokens,omitempty"`
	// CachedUnknown is set when the recording gives the input tokens but
	// not how many were cached (kimi-cli's context.jsonl): CachedTokens and
	// CacheWriteTokens are then 0 for want of a number, not measured.
	CachedUnknown bool `json:"cached_unknown,omitempty"`
}

// CacheVerdict is a recorded judgement of a request's prompt cache against
// an earlier request, made by someone who saw the whole wire: ground truth
// to set beside wirelens's own attribution.
type CacheVerdict struct {
	// By names who judged: "anthropic" (a response's
	// diagnostics.cache_miss_reason), "openai" (a Responses response's
	// prompt_cache_diagnostics) or "kimi-code" (the system prompt and tools
	// hashes kimi-code records with each request, against the request
	// before).
	By string
	// Reason is the verdict in the judge's words: Anthropic's
	// model_changed, system_changed, tools_changed, messages_changed,
	// previous_message_not_found, unavailable, or "pending" (a null reason:
	// the comparison was still running); OpenAI's cache_hit,
	// comparison_response_not_found, unavailable or the reason of a
	// cache_miss (model_changed, tools_changed, input_changed,
	// context_compacted, prompt_cache_key_changed, ...); kimi-code's
	// tools_changed, system_changed or unchanged.
	Reason string
	// MissedTokens is the judge's estimate of the input tokens after the
	// divergence, -1 when it gives none.
	MissedTokens int
}

// Segment is a piece of a request with one trust.
type Segment struct {
	// ID names the segment: "system[0]", "messages[3].content[1]", "tools[2]",
	// "messages[1].content[0]/untrusted_agents_md", "system[0]/agents-md",
	// "messages[1].content[0]/0" for the text around envelopes.
	ID string
	// Part is the ID of the wire part the segment was cut from (equal to ID
	// when the part was not split).
	Part     string
	Channel  Channel
	Role     string // system, developer, user, assistant, tool, model, function
	Kind     Kind
	Trust    Trust
	Envelope string // the tag wrapping the payload, or ""
	// Label says where the text came from when the payload names it: the path
	// of an AGENTS.md, a skill's name, a tool's name. Hostile text.
	Label string
	// Server is, for a tool definition that is not the host's own (an MCP
	// server's, a tool a workspace's discovery command lists), the server
	// it came from as the tool's name or the workspace names it: hostile
	// text. "" for the host's built-in tools and every other segment.
	Server string
	Text   string // interned; hostile text
	Hash   uint64 // content hash of Text (see HashText)
	// Start is the byte offset of Text inside its part's text.
	Start int
	// Escapes lists escapes already applied in the recorded text.
	Escapes []Escape
}

// Escape is one escape applied to untrusted text: at Offset (a byte offset in
// the segment's text) the text Text stands where Original was.
type Escape struct {
	Rule     string `json:"rule"` // entity, stripped, marker, truncated, ...
	Offset   int    `json:"offset"`
	Text     string `json:"text"`
	Original string `json:"original,omitempty"`
}

// Breakpoint reports whether Segments[i] carries an explicit cache
// breakpoint.
func (r *Request) Breakpoint(i int) bool {
	_, ok := slices.BinarySearch(r.Breakpoints, i)
	return ok
}

// CacheOrder returns the segments in the providers' cache order (tools, then
// system, then messages), keeping wire order within each channel.
func (r *Request) CacheOrder() []Segment { return r.SegmentsAt(r.CacheIndex()) }

// SegmentsAt is a copy of the segments at the indices idx, in that order.
func (r *Request) SegmentsAt(idx []int) []Segment {
	out := make([]Segment, len(idx))
	for k, i := range idx {
		out[k] = r.Segments[i]
	}
	return out
}

// CacheIndex returns the indices in Segments of the segments in cache
// order: CacheOrder()[k] is Segments[CacheIndex()[k]].
func (r *Request) CacheIndex() []int {
	out := make([]int, 0, len(r.Segments))
	for rank := 0; rank < 3; rank++ {
		for i := range r.Segments {
			if r.Segments[i].Channel.CacheRank() == rank {
				out = append(out, i)
			}
		}
	}
	return out
}

// Bytes is the total size of the request's segment text.
func (r *Request) Bytes() int {
	n := 0
	for i := range r.Segments {
		n += len(r.Segments[i].Text)
	}
	return n
}

// Name is how reports name the request: "file" or "file@N".
func (r *Request) Name() string {
	if r.Index <= 1 {
		return r.Source
	}
	return r.Source + "@" + strconv.Itoa(r.Index)
}
