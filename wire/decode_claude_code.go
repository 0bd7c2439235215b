package wire

import "github.com/go-json-experiment/json/jsontext"

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

func init() { recRegister(FormatClaudeCode, func() sessionDecoder { return newRecClaudeCode() }) }

type recClaudeCode struct {
	nodes    map[string]*recCCNode
	leaf     string
	version  string
	known    bool
	unknown  recCounts
	side     int // sidechain (subagent) entries
	nodeless int // user or assistant entries without a uuid
}

func newRecClaudeCode() *recClaudeCode { return &recClaudeCode{nodes: map[string]*recCCNode{}} }

// recCCNode is one entry with a uuid, kept until the active branch is known.
type recCCNode struct {
	kind          string // user, assistant, boundary, system
	parent        string
	logicalParent string
	line          int
	off, length   int64
	role, msgID   string
	model         string
	content       decAnthropicContent
	usage         jsontext.Value
}

type recCCEntry struct {
	Type              string  `json:"type"`
	UUID              string  `json:"uuid"`
	ParentUUID        *string `json:"parentUuid"`
	LogicalParentUUID string  `json:"logicalParentUuid"`
	IsSidechain       bool    `json:"isSidechain"`
	Version           string  `json:"version"`
	Subtype           string  `json:"subtype"`
	Message           *struct {
		ID      string              `json:"id"`
		Role    string              `json:"role"`
		Model   string              `json:"model"`
		Content decAnthropicContent `json:"content"`
		Usage   jsontext.Value      `json:"usage"`
	} `json:"message"`
}

func (c *recClaudeCode) line(d *decoder, raw []byte, line int, off int64) {
	var e recCCEntry
	if !recLine(d, raw, line, &e) {
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
	n := &recCCNode{kind: e.Type, line: line, off: off, length: int64(len(raw)), logicalParent: e.LogicalParentUUID}
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
func (c *recClaudeCode) branch() []*recCCNode {
	var rev []*recCCNode
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
	out := make([]*recCCNode, len(rev))
	for i, n := range rev {
		out[len(rev)-1-i] = n
	}
	return out
}

// recCCMsg is a message being assembled from consecutive entries.
type recCCMsg struct {
	role   string
	msgID  string
	model  string
	blocks []decAnthropicBlock
	str    string
	isStr  bool
	usage  jsontext.Value
	node   *recCCNode // the first entry of the message
}

func (c *recClaudeCode) end(d *decoder) {
	if !c.known {
		d.fail(0, "not a Claude Code session (no user, assistant, system or summary entries)")
		return
	}
	chain := c.branch()
	var seq recSeq
	seq.init(d.opts.Interner)
	names := newDecNames()
	msgs, compactions, synthetic, system := 0, 0, 0, 0
	var cur *recCCMsg
	var pending *Request
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
			if u, err := ParseUsage(FormatAnthropic, m.usage); err == nil && len(m.usage) > 0 {
				pending.Usage = u
			}
		}
		id := decIndex("messages", msgs)
		msgs++
		if m.isStr {
			seq.add(Part{ID: id, Channel: ChannelMessages, Role: m.role, Type: "text", Text: m.str})
			return
		}
		var parts []Part
		add := func(p Part) { parts = append(parts, p) }
		for j := range m.blocks {
			decAnthropicBlockParts(add, decIndex(id+".content", j), ChannelMessages, m.role, &m.blocks[j], names)
		}
		seq.add(parts...)
	}
	emit := func() {
		if pending == nil {
			return
		}
		req := pending
		pending = nil
		req.Notes = append([]string{recHeader(FormatClaudeCode, c.version, c.unknown.note("unknown entries"), c.skippedNote(len(chain), synthetic, system))},
			"system prompt not recorded", "tool schemas not recorded")
		if split > 0 {
			req.Notes = append(req.Notes, itoa(split)+" responses were recorded around their own tool results: their blocks are shown in recorded order")
		}
		if pendingCompactions > 0 {
			req.Notes = append(req.Notes, "after "+itoa(pendingCompactions)+" compactions: the messages before the last compact boundary are not sent")
		}
		if req.Usage == nil {
			req.Notes = append(req.Notes, "usage not recorded for this request")
		}
		d.emit(*req)
	}

	for _, n := range chain {
		if d.stop {
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
			pending = d.builder(FormatClaudeCode, n.line, n.off, n.length).Req
			pending.Model = n.model
			pending.Segments = seq.snapshot()
			pendingCompactions = compactions
		}
		cur = &recCCMsg{role: n.role, msgID: n.msgID, model: n.model, node: n}
		cur.merge(n)
	}
	finish()
	emit()
}

// merge adds an entry's content to the message; a string content becomes a
// text block once the message holds more than one entry.
func (m *recCCMsg) merge(n *recCCNode) {
	if len(n.usage) > 0 {
		m.usage = n.usage
	}
	if m.node == n && n.content.IsStr {
		m.str, m.isStr = n.content.Str, true
		return
	}
	if m.isStr {
		m.blocks = append(m.blocks, decAnthropicBlock{Type: "text", Text: m.str})
		m.isStr = false
	}
	if n.content.IsStr {
		m.blocks = append(m.blocks, decAnthropicBlock{Type: "text", Text: n.content.Str})
		return
	}
	m.blocks = append(m.blocks, n.content.Blocks...)
}

// skippedNote counts what was left out of the requests.
func (c *recClaudeCode) skippedNote(onBranch, synthetic, system int) string {
	s := ""
	add := func(n int, what string) {
		if n == 0 {
			return
		}
		if s != "" {
			s += "; "
		}
		s += itoa(n) + " " + what
	}
	add(len(c.nodes)-onBranch, "entries off the active branch skipped")
	add(c.side, "sidechain (subagent) entries skipped")
	add(synthetic, "synthetic assistant messages skipped")
	add(system, "system entries skipped (not sent to the model)")
	add(c.nodeless, "entries without a uuid skipped")
	return s
}
