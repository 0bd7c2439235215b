package recording

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// Claude Code, ~/.claude/projects/<encoded-cwd>/<session>.jsonl: entries of
// type user, assistant, system, summary and others, linked by uuid and
// parentUuid; message is in the Anthropic Messages shape, and assistant
// messages carry the response's usage. One response may be written as
// several assistant entries that share message.id. Rewinds and edits leave
// other branches in the file; the active branch ends at the last user or
// assistant entry. A compaction starts a new chain at a compact_boundary
// entry whose logicalParentUuid points back.
//
// Each assistant message on the active branch answers one request made of
// the messages before it since the last compaction. The system prompt and the
// tool schemas are not recorded.

type claudeCode struct {
	nodes    map[string]*claudeCodeNode
	leaf     string
	version  string
	known    bool
	unknown  kindCounts
	side     int // sidechain (subagent) entries
	nodeless int // user or assistant entries without a uuid
}

func newClaudeCode() *claudeCode { return &claudeCode{nodes: map[string]*claudeCodeNode{}} }

// claudeCodeNode is one entry with a uuid, kept until the active branch is known.
type claudeCodeNode struct {
	kind          string // user, assistant, boundary, system
	parent        string
	logicalParent string
	line          int
	off, length   int64
	role, msgID   string
	model         string
	content       body.AnthropicContent
	usage         jsontext.Value
}

type claudeCodeEntry struct {
	Type              string  `json:"type"`
	UUID              string  `json:"uuid"`
	ParentUUID        *string `json:"parentUuid"`
	LogicalParentUUID string  `json:"logicalParentUuid"`
	IsSidechain       bool    `json:"isSidechain"`
	Version           string  `json:"version"`
	Subtype           string  `json:"subtype"`
	Message           *struct {
		ID      string                `json:"id"`
		Role    string                `json:"role"`
		Model   string                `json:"model"`
		Content body.AnthropicContent `json:"content"`
		Usage   jsontext.Value        `json:"usage"`
	} `json:"message"`
}

func (c *claudeCode) Line(d Sink, raw []byte, line int, off int64) {
	var e claudeCodeEntry
	if !unmarshalLine(d, raw, line, &e) {
		return
	}
	switch e.Type {
	case "user", "assistant", "system":
	case "summary", "file-history-snapshot", "queue-operation":
		c.known = true
		return
	default:
		c.unknown.add(e.Type)
		return
	}
	c.known = true
	if e.Version != "" {
		c.version = e.Version
	}
	if e.IsSidechain {
		c.side++
		return
	}
	if e.UUID == "" {
		c.nodeless++
		return
	}
	n := &claudeCodeNode{kind: e.Type, line: line, off: off, length: int64(len(raw)), logicalParent: e.LogicalParentUUID}
	if e.ParentUUID != nil {
		n.parent = *e.ParentUUID
	}
	if e.Type == "system" && e.Subtype == "compact_boundary" {
		n.kind = "boundary"
	}
	if e.Message != nil && e.Type != "system" {
		n.role, n.msgID, n.model = e.Message.Role, e.Message.ID, e.Message.Model
		n.content, n.usage = e.Message.Content, e.Message.Usage
		if n.role == "" {
			n.role = e.Type
		}
		c.leaf = e.UUID
	}
	c.nodes[e.UUID] = n
}

// branch is the active branch from its root to the leaf.
func (c *claudeCode) branch() []*claudeCodeNode {
	var rev []*claudeCodeNode
	seen := map[string]bool{}
	for id := c.leaf; id != "" && !seen[id]; {
		seen[id] = true
		n := c.nodes[id]
		if n == nil {
			break
		}
		rev = append(rev, n)
		id = n.parent
		if id == "" && n.kind == "boundary" {
			id = n.logicalParent
		}
	}
	out := make([]*claudeCodeNode, len(rev))
	for i, n := range rev {
		out[len(rev)-1-i] = n
	}
	return out
}

// claudeCodeMsg is a message being assembled from consecutive entries.
type claudeCodeMsg struct {
	role   string
	msgID  string
	model  string
	blocks []body.AnthropicBlock
	str    string
	isStr  bool
	usage  jsontext.Value
	node   *claudeCodeNode // the first entry of the message
}

func (c *claudeCode) End(d Sink) {
	if !c.known {
		d.Fail(0, "not a Claude Code session (no user, assistant, system or summary entries)")
		return
	}
	chain := c.branch()
	var seq transcript
	seq.init(d.Interner())
	names := body.NewToolNames()
	msgs, compactions, synthetic, system := 0, 0, 0, 0
	var cur *claudeCodeMsg
	var pending *wire.Request
	pendingCompactions := 0
	pendingID := "" // message.id of the response the pending request got
	split := 0      // responses recorded around their own tool results

	finish := func() {
		if cur == nil {
			return
		}
		m := cur
		cur = nil
		if pending != nil && m.role == "assistant" {
			if u, err := body.ParseUsage(wire.FormatAnthropic, m.usage); err == nil && len(m.usage) > 0 {
				pending.Usage = u
			}
		}
		id := body.IndexPath("messages", msgs)
		msgs++
		if m.isStr {
			seq.add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: m.role, Type: "text", Text: m.str})
			return
		}
		var parts []wire.Part
		add := func(p wire.Part) { parts = append(parts, p) }
		for j := range m.blocks {
			body.AnthropicBlockParts(add, body.IndexPath(id+".content", j), wire.ChannelMessages, m.role, &m.blocks[j], names)
		}
		seq.add(parts...)
	}
	emit := func() {
		if pending == nil {
			return
		}
		req := pending
		pending = nil
		req.Notes = append([]string{headerNote(wire.FormatClaudeCode, c.version, c.unknown.note("unknown entries"), c.skippedNote(len(chain), synthetic, system))},
			"system prompt not recorded", "tool schemas not recorded")
		if split > 0 {
			req.Notes = append(req.Notes, strconv.Itoa(split)+" responses were recorded around their own tool results: their blocks are shown in recorded order")
		}
		if pendingCompactions > 0 {
			req.Notes = append(req.Notes, "after "+strconv.Itoa(pendingCompactions)+" compactions: the messages before the last compact boundary are not sent")
		}
		if req.Usage == nil {
			req.Notes = append(req.Notes, "usage not recorded for this request")
		}
		d.Emit(*req)
	}

	for _, n := range chain {
		if d.Stopped() {
			return
		}
		switch n.kind {
		case "boundary":
			finish()
			emit()
			pendingID = ""
			seq.reset()
			msgs = 0
			compactions++
			continue
		case "system":
			system++
			continue
		}
		if n.role == "assistant" && n.model == "<synthetic>" {
			synthetic++
			continue
		}
		if cur != nil && cur.role == n.role && (n.role == "user" || (n.msgID != "" && n.msgID == cur.msgID)) {
			// One API message written as several entries.
			cur.merge(n)
			continue
		}
		finish()
		if n.role == "assistant" && n.msgID != "" && n.msgID == pendingID {
			// More blocks of the response already answered, recorded after
			// some of its tool results: no new request.
			split++
		} else if n.role == "assistant" {
			emit()
			pendingID = n.msgID
			pending = d.Builder(wire.FormatClaudeCode, n.line, n.off, n.length).Req
			pending.Model = n.model
			pending.Segments = seq.snapshot()
			pendingCompactions = compactions
		}
		cur = &claudeCodeMsg{role: n.role, msgID: n.msgID, model: n.model, node: n}
		cur.merge(n)
	}
	finish()
	emit()
}

// merge adds an entry's content to the message; a string content becomes a
// text block once the message holds more than one entry.
func (m *claudeCodeMsg) merge(n *claudeCodeNode) {
	if len(n.usage) > 0 {
		m.usage = n.usage
	}
	if m.node == n && n.content.IsStr {
		m.str, m.isStr = n.content.Str, true
		return
	}
	if m.isStr {
		m.blocks = append(m.blocks, body.AnthropicBlock{Type: "text", Text: m.str})
		m.isStr = false
	}
	if n.content.IsStr {
		m.blocks = append(m.blocks, body.AnthropicBlock{Type: "text", Text: n.content.Str})
		return
	}
	m.blocks = append(m.blocks, n.content.Blocks...)
}

// skippedNote counts what was left out of the requests.
func (c *claudeCode) skippedNote(onBranch, synthetic, system int) string {
	s := ""
	add := func(n int, what string) {
		if n == 0 {
			return
		}
		if s != "" {
			s += "; "
		}
		s += strconv.Itoa(n) + " " + what
	}
	add(len(c.nodes)-onBranch, "entries off the active branch skipped")
	add(c.side, "sidechain (subagent) entries skipped")
	add(synthetic, "synthetic assistant messages skipped")
	add(system, "system entries skipped (not sent to the model)")
	add(c.nodeless, "entries without a uuid skipped")
	return s
}
