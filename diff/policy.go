package diff

import (
	"sort"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Agent recordings do not keep the cache_control markers their agent sent:
// Claude Code's transcripts store each message's content blocks without them.
// Where the provider caches only at explicit breakpoints (Anthropic), a
// request read from such a recording looks as if it marked none, and the
// prediction would be 0 cached tokens for want of data, not because the agent
// sent no breakpoint. So where an agent's policy is known it is applied as
// data (the table below); where it is not, the prediction is unavailable.

// BreakpointPolicy is where an agent puts its cache_control breakpoints in
// the requests it sends, read from what it really sends.
type BreakpointPolicy struct {
	// Agent is the recording format of the agent's own session files.
	Agent wire.Format
	// Name and Versions say whose policy it is, for reports.
	Name     string
	Versions string
	// System marks the end of the system prompt.
	System bool
	// LastTool marks the last tool definition.
	LastTool bool
	// LastMessages marks the last content block of each of the last this
	// many messages, whatever their role.
	LastMessages int
	// Source says where the policy was read, for whoever updates it.
	Source string
}

// BreakpointPolicies is the one table of agents' breakpoint policies.
var BreakpointPolicies = []BreakpointPolicy{
	{
		Agent: wire.FormatClaudeCode, Name: "Claude Code", Versions: "2.1",
		// The system prompt goes as blocks: a billing header without a
		// marker, then the identity line and the rest of the prompt, each
		// marked; no tool is marked (a tool is marked only under a
		// global-cache experiment with MCP tools); the last two messages
		// each carry a marker on their last content block (an assistant
		// message's not when that block is thinking).
		System: true, LastTool: false, LastMessages: 2,
		Source: "the request builder of @anthropic-ai/claude-code 2.1.39 (cli.js, npm), as public captures of its " +
			"requests show it: system blocks marked, tools not, the last two messages marked; checked against " +
			"2.1.328's own request (testdata/agents/claude-code.jsonl), which marks its last system block and its last " +
			"message and leaves a one-turn request's first message unmarked",
	},
}

// PolicyFor returns the breakpoint policy of a recording format, if one is
// known.
func PolicyFor(format wire.Format) (BreakpointPolicy, bool) {
	if p := policyFor(format); p != nil {
		return *p, true
	}
	return BreakpointPolicy{}, false
}

// policyFor is the table's policy of a recording format, nil when none is
// known: the views of its requests point to it, not to a copy each.
func policyFor(format wire.Format) *BreakpointPolicy {
	for i := range BreakpointPolicies {
		if BreakpointPolicies[i].Agent == format {
			return &BreakpointPolicies[i]
		}
	}
	return nil
}

// CarriesBreakpoints reports whether requests read in this format keep the
// cache_control markers that were sent: request bodies do (alone, in HAR,
// traces and batch files); agents' session recordings and OpenTelemetry spans
// do not.
func CarriesBreakpoints(format wire.Format) bool {
	switch format {
	case wire.FormatClaudeCode, wire.FormatCodex, wire.FormatKimiCLI, wire.FormatKimiCode, wire.FormatGeminiCLI,
		wire.FormatOTel:
		return false
	}
	return true
}

// policyBreakpoints marks v's segments where policy p puts breakpoints:
// the last segment of the system channel, of the tools, and of each of the
// last p.LastMessages messages.
func policyBreakpoints(v *seqView, p BreakpointPolicy) []int {
	var bps []int
	lastSys, lastTool := -1, -1
	// The last segment of each message, from the end.
	var msgEnds []int
	lastMsg := ""
	for i := len(v.segs) - 1; i >= 0; i-- {
		s := &v.segs[i]
		switch s.Channel {
		case wire.ChannelSystem:
			if lastSys < 0 {
				lastSys = i
			}
		case wire.ChannelTools:
			if lastTool < 0 {
				lastTool = i
			}
		default:
			if len(msgEnds) >= p.LastMessages {
				// The messages before add nothing: go on from the last
				// segment of the system or the tools (segs are in cache
				// order), not through every message of a long session.
				i = sort.Search(i, func(j int) bool { return v.segs[j].Channel.CacheRank() == 2 })
				continue
			}
			m := messageOf(s.ID)
			if m != "" && m != lastMsg {
				msgEnds = append(msgEnds, i)
			}
			if m != "" {
				lastMsg = m
			}
		}
	}
	if p.LastTool && lastTool >= 0 {
		bps = append(bps, lastTool)
	}
	if p.System && lastSys >= 0 {
		bps = append(bps, lastSys)
	}
	for k := len(msgEnds) - 1; k >= 0; k-- {
		bps = append(bps, msgEnds[k])
	}
	return bps
}

// describe says where the policy puts breakpoints, in a few words.
func (p BreakpointPolicy) describe() string {
	var parts []string
	if p.LastTool {
		parts = append(parts, "the last tool")
	}
	if p.System {
		parts = append(parts, "the system prompt")
	}
	switch p.LastMessages {
	case 0:
	case 1:
		parts = append(parts, "the last message")
	default:
		parts = append(parts, "the last "+strconv.Itoa(p.LastMessages)+" messages")
	}
	if len(parts) == 0 {
		return "nowhere"
	}
	return strings.Join(parts, ", ")
}

// messageOf is the "messages[N]" a segment id starts with, or "".
func messageOf(id string) string {
	rest, ok := strings.CutPrefix(id, "messages[")
	if !ok {
		return ""
	}
	k := strings.IndexByte(rest, ']')
	if k <= 0 {
		return ""
	}
	if _, err := strconv.Atoi(rest[:k]); err != nil {
		return ""
	}
	return id[:len("messages[")+k+1]
}
