package classify

import (
	mathbits "math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/wirelens/wirelens/wire"
)

// Where a tool definition comes from. The host's own tools are its rules
// (trusted); an MCP server's tool names, descriptions and schemas are
// written by whoever publishes the server, and a model reads them as rules
// all the same: they are untrusted, labelled with their server
// (Segment.Server). Three things tell them apart, from the data of
// tools_data.go:
//   - the name: a prefix the agent gives every MCP tool (toolConventions),
//     decided for each tool on its own (mcpServerOf, in ClassifyIn);
//   - the servers a workspace configures (--workspace): a tool named after
//     one of them is its (MarkTools);
//   - the agent's own tools: in a request plainly of an agent that sends
//     MCP tools unprefixed (opencode's "<server>_<tool>", cline's
//     "<server>__<tool>"), a tool it does not ship is a server's
//     (MarkTools).

// mcpServerOf is the server of a tool named by one of the agents'
// conventions, and the tool's own name; ok is false for any other name.
func mcpServerOf(name string) (server, tool string, ok bool) {
	for _, c := range toolConventions {
		rest, found := strings.CutPrefix(name, c.prefix)
		if !found || rest == "" {
			continue
		}
		if c.sep == "" {
			return c.server, rest, true
		}
		s, t, found := strings.Cut(rest, c.sep)
		if !found && c.sep == "__" {
			// A namespace of the Responses API (Codex): "mcp__server" for
			// the namespace itself, "mcp__server.tool" for its tools.
			s, t, _ = strings.Cut(rest, ".")
			found = true
		}
		t = strings.TrimPrefix(t, ".") // "mcp__server__.tool"
		if !found || s == "" || t == "" && strings.Contains(rest, c.sep) {
			continue
		}
		return s, t, true
	}
	return "", "", false
}

// ToolName is a tool definition's own name: its label without the server's
// part ("create_issue" of "mcp__github__create_issue"), or the label.
func ToolName(s *wire.Segment) string {
	if s.Server == "" {
		return s.Label
	}
	if _, t, ok := mcpServerOf(s.Label); ok {
		return t
	}
	for _, sep := range []string{"__", "_", "."} {
		if t, ok := strings.CutPrefix(s.Label, SanitizeServer(s.Server)+sep); ok && t != "" {
			return t
		}
		if t, ok := strings.CutPrefix(s.Label, s.Server+sep); ok && t != "" {
			return t
		}
	}
	return s.Label
}

// IsToolDef reports whether s is a tool definition in the tools channel.
func IsToolDef(s *wire.Segment) bool {
	return s.Channel == wire.ChannelTools && s.Kind == wire.KindToolSchema
}

// SanitizeServer is a server's name as the agents put it in tool names:
// every character outside [A-Za-z0-9_-] made "_" (opencode, Gemini CLI).
func SanitizeServer(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// builtinIndex maps a tool's name to the agents (bits, by index in
// builtinTools) that ship a tool of that name; made on first use.
var builtinIndex = sync.OnceValue(func() map[string]uint64 {
	m := make(map[string]uint64, 256)
	for i, a := range builtinTools {
		for _, n := range a.names {
			m[n] |= 1 << i
		}
	}
	return m
})

// agentOf is the agent whose own tools most of names are: at least three of
// them and at least half of the names, and more than any other agent's
// (a tie, as pi's four tools are also opencode's, names no agent); or nil.
func agentOf(names []string) *agentTools {
	var counts [64]int
	idx := builtinIndex()
	for _, name := range names {
		for bits := idx[name]; bits != 0; bits &= bits - 1 {
			counts[mathbits.TrailingZeros64(bits)]++
		}
	}
	best, bestN, tie := -1, 0, false
	for i := range builtinTools {
		switch n := counts[i]; {
		case n > bestN:
			best, bestN, tie = i, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if best < 0 || tie || bestN < 3 || 2*bestN < len(names) {
		return nil
	}
	return &builtinTools[best]
}

// BuiltinAgent names the agent whose own tools a request's tool
// definitions mostly are ("claude-code", "codex", "gemini-cli", ...), or "".
func BuiltinAgent(segs []wire.Segment) string {
	if a := agentOf(toolNames(segs)); a != nil {
		return a.agent
	}
	return ""
}

func toolNames(segs []wire.Segment) []string {
	var names []string
	for i := range segs {
		if IsToolDef(&segs[i]) {
			names = append(names, segs[i].Label)
		}
	}
	return names
}

// MarkTools gives the tool definitions of segs that the name conventions
// left as the host's their server, where the servers a workspace configures
// (servers, as configured) or the agent's list of its own tools say they
// are a server's. It returns nil when nothing changes, else a copy of segs
// (segs itself is never written: a request's segments are shared).
func MarkTools(segs []wire.Segment, servers []string) []wire.Segment {
	var agent *agentTools
	agentDone := false
	var out []wire.Segment
	for i := range segs {
		s := &segs[i]
		if !IsToolDef(s) || s.Server != "" || s.Trust != wire.Trusted {
			continue
		}
		server := configuredServer(s.Label, servers)
		if server == "" {
			if !agentDone {
				agent, agentDone = agentOf(toolNames(segs)), true
			}
			if agent == nil || agent.sep == "" || slices.Contains(agent.names, s.Label) {
				continue
			}
			// The agent sends "<server><sep><tool>": the server's part is
			// a guess when the server's name holds sep itself.
			srv, tool, ok := strings.Cut(s.Label, agent.sep)
			if !ok || srv == "" || tool == "" {
				continue
			}
			server = srv
		}
		if out == nil {
			out = slices.Clone(segs)
		}
		t := &out[i]
		t.Trust, t.Server = wire.Untrusted, server
		t.Escapes = Escapes(t.Text)
	}
	return out
}

// configuredServer is the configured server a tool's name is prefixed
// with, the longest when several are, or "".
func configuredServer(name string, servers []string) string {
	best := ""
	for _, srv := range servers {
		if len(srv) <= len(best) || srv == "" {
			continue
		}
		for _, p := range []string{srv, SanitizeServer(srv)} {
			for _, sep := range []string{"__", "_", "."} {
				if strings.HasPrefix(name, p+sep) && len(name) > len(p+sep) {
					best = srv
				}
			}
		}
	}
	return best
}
