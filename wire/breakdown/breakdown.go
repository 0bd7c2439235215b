// Package breakdown says what a request's context is made of: its tokens
// and bytes by category (host rules, tool schemas per tool and per MCP
// server, workspace instruction files per file, listings, skills per skill,
// time and other host facts, the user's and the model's turns, tool results
// per tool, reasoning), each with its trust, and how much of each lies in
// the cached prefix once a cache analysis says how long that prefix is.
//
// A Context keeps the counts, never the text: a session's breakdowns can be
// held side by side to show how each category grows.
package breakdown

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// Group is a category of the context.
type Group string

// Groups, in the order reports list them.
const (
	GroupHostRules   Group = "host-rules"      // the host's own rules
	GroupTools       Group = "tool-schemas"    // tool definitions
	GroupInstruction Group = "workspace-files" // AGENTS.md, CLAUDE.md, ... per file
	GroupListings    Group = "listings"        // directory listings, additional directories
	GroupSkills      Group = "skills"          // skill listings and loaded skills, per skill
	GroupHostFacts   Group = "host-facts"      // the time, the environment, reminders, host notes
	GroupUser        Group = "user"            // the user's turns
	GroupModel       Group = "model"           // the model's answers and tool calls
	GroupToolResults Group = "tool-results"    // tool results, per tool
	GroupReasoning   Group = "reasoning"       // the model's reasoning
	GroupOther       Group = "other"           // framing and anything else
)

// Groups lists every group in report order.
var Groups = []Group{GroupHostRules, GroupTools, GroupInstruction, GroupListings, GroupSkills, GroupHostFacts,
	GroupUser, GroupModel, GroupToolResults, GroupReasoning, GroupOther}

// GroupOf is the group of a segment.
func GroupOf(s *wire.Segment) Group {
	switch s.Kind {
	case wire.KindHostRules:
		return GroupHostRules
	case wire.KindToolSchema:
		return GroupTools
	case wire.KindAgentsMD:
		return GroupInstruction
	case wire.KindCwdListing, wire.KindAdditionalDirs:
		return GroupListings
	case wire.KindSkillsListing, wire.KindSkillLoaded:
		return GroupSkills
	case wire.KindTime, wire.KindEnvironment, wire.KindReminder, wire.KindHostNote:
		return GroupHostFacts
	case wire.KindUserInput:
		return GroupUser
	case wire.KindAssistant:
		if s.Label == classify.ReasoningLabel {
			return GroupReasoning
		}
		return GroupModel
	case wire.KindToolCall:
		return GroupModel
	case wire.KindToolResult:
		return GroupToolResults
	}
	return GroupOther
}

// itemized reports whether a group is broken down by name (tool, file,
// skill); the others are one item per trust.
func itemized(g Group) bool {
	switch g {
	case GroupTools, GroupInstruction, GroupSkills, GroupToolResults:
		return true
	}
	return false
}

// Item is one line of a breakdown: a group, or one named member of it (a
// tool, a file, a skill), with one trust.
type Item struct {
	Group Group
	// Name is the tool's name, the file's path or the skill's name as the
	// payload gives it (hostile text), "" for a group that is not itemized
	// or a segment the payload names nothing for.
	Name string
	// Server is the MCP server a tool belongs to (Segment.Server, or the
	// server an mcp__server__tool name names), else "".
	Server   string
	Trust    wire.Trust
	Segments int
	Bytes    int
	Tokens   int
	// Cached is the tokens of the item in the cached prefix (see
	// Context.SplitCached).
	Cached int
}

// Total is the sum of a group's items.
type Total struct {
	Group    Group
	Segments int
	Bytes    int
	Tokens   int
	Cached   int
	// Trusts lists the trusts found in the group, in order of appearance.
	Trusts []wire.Trust
}

// Context is the breakdown of one request.
type Context struct {
	Source string
	Index  int
	Model  string
	Format wire.Format
	// Items in the order they first appear in cache order (tools, system,
	// messages).
	Items []Item
	// Tokens and Bytes are the request's totals (estimated tokens).
	Tokens int
	Bytes  int
	// Encoding names the tokenizer of the estimates.
	Encoding string
	// Recorded is the recorded usage of the response, when one was
	// recorded: the provider's own count, beside the estimate.
	Recorded *wire.Usage
	// CachedTokens is the cached prefix SplitCached was given (0 before),
	// and CachedBasis says where it came from ("recorded", "predicted").
	CachedTokens int
	CachedBasis  string

	segTokens []int // each segment's tokens, in cache order
	segItem   []int // each segment's item
}

// Of breaks r down. Tokens are the o200k_base estimates of wire.
func Of(r *wire.Request) *Context {
	c := &Context{Source: r.Source, Index: r.Index, Model: r.Model, Format: r.Format, Encoding: wire.TokenEncoding}
	if r.Usage != nil {
		u := *r.Usage
		c.Recorded = &u
	}
	index := map[Item]int{}
	for _, s := range r.CacheOrder() {
		g := GroupOf(&s)
		key := Item{Group: g, Trust: s.Trust}
		if itemized(g) {
			key.Name = strings.Clone(s.Label)
			if g == GroupTools {
				// The classifier's server (classify/tools.go: every
				// agent's convention, the workspace's servers); the
				// mcp__SERVER__TOOL name of a segment made elsewhere.
				key.Server = strings.Clone(s.Server)
				if key.Server == "" {
					key.Server = MCPServer(s.Label)
				}
			}
		}
		i, ok := index[key]
		if !ok {
			i = len(c.Items)
			index[key] = i
			c.Items = append(c.Items, key)
		}
		tok := s.Tokens()
		it := &c.Items[i]
		it.Segments++
		it.Bytes += len(s.Text)
		it.Tokens += tok
		c.Tokens += tok
		c.Bytes += len(s.Text)
		c.segTokens = append(c.segTokens, tok)
		c.segItem = append(c.segItem, i)
	}
	return c
}

// MCPServer is the server named by an MCP tool's name in the convention
// mcp__SERVER__TOOL (Claude Code's, and others'), or "".
func MCPServer(tool string) string {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return ""
	}
	server, _, ok := strings.Cut(rest, "__")
	if !ok || server == "" {
		return ""
	}
	return server
}

// SplitCached marks the first cached tokens of the request, in cache order,
// as cached, item by item: a segment wholly inside the prefix is cached, the
// segment the prefix ends in is cached in proportion. basis says where the
// count comes from ("recorded" or "predicted"). A count larger than the
// request (a recording that left part of what was sent out) caches all of
// it.
func (c *Context) SplitCached(cached int, basis string) {
	for i := range c.Items {
		c.Items[i].Cached = 0
	}
	c.CachedTokens, c.CachedBasis = cached, basis
	left := cached
	for j, tok := range c.segTokens {
		if left <= 0 {
			break
		}
		n := min(tok, left)
		c.Items[c.segItem[j]].Cached += n
		left -= n
	}
}

// Totals sums the items by group, in the order of Groups; groups with no
// segment are left out.
func (c *Context) Totals() []Total {
	by := map[Group]*Total{}
	for _, it := range c.Items {
		t := by[it.Group]
		if t == nil {
			t = &Total{Group: it.Group}
			by[it.Group] = t
		}
		t.Segments += it.Segments
		t.Bytes += it.Bytes
		t.Tokens += it.Tokens
		t.Cached += it.Cached
		seen := false
		for _, tr := range t.Trusts {
			seen = seen || tr == it.Trust
		}
		if !seen {
			t.Trusts = append(t.Trusts, it.Trust)
		}
	}
	var out []Total
	for _, g := range Groups {
		if t := by[g]; t != nil {
			out = append(out, *t)
		}
	}
	return out
}

// Server is the tool schemas of one MCP server.
type Server struct {
	Name   string
	Tools  int
	Bytes  int
	Tokens int
	Cached int
}

// Servers sums the tool schemas by MCP server, in order of appearance.
func (c *Context) Servers() []Server {
	var out []Server
	at := map[string]int{}
	for _, it := range c.Items {
		if it.Group != GroupTools || it.Server == "" {
			continue
		}
		i, ok := at[it.Server]
		if !ok {
			i = len(out)
			at[it.Server] = i
			out = append(out, Server{Name: it.Server})
		}
		s := &out[i]
		s.Tools++
		s.Bytes += it.Bytes
		s.Tokens += it.Tokens
		s.Cached += it.Cached
	}
	return out
}

// Growth is a session's breakdown over time: each request's totals by
// group, kept as counts only.
type Growth struct {
	Rows []GrowthRow
}

// GrowthRow is one request of a Growth.
type GrowthRow struct {
	Source string
	Index  int
	Tokens int
	Cached int
	// ByGroup is the tokens of each group, in the order of Groups.
	ByGroup []int
}

// Add appends c's totals.
func (g *Growth) Add(c *Context) {
	row := GrowthRow{Source: c.Source, Index: c.Index, Tokens: c.Tokens, ByGroup: make([]int, len(Groups))}
	for _, t := range c.Totals() {
		for i, gr := range Groups {
			if gr == t.Group {
				row.ByGroup[i] = t.Tokens
			}
		}
		row.Cached += t.Cached
	}
	g.Rows = append(g.Rows, row)
}
