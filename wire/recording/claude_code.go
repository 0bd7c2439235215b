package recording

import (
	"slices"
	"strconv"
	"sync"
	"time"

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
// From 2.1 the chain also runs through entries that are no messages:
// progress (hooks, tools' output as it comes), attachment, system entries of
// every subtype. Each entry with a uuid is a link of the chain; only user and
// assistant entries become messages. A microcompact_boundary clears old tool
// results before they are sent but keeps the conversation: the walk passes
// over it.
//
// Each assistant message on the active branch answers one request made of
// the messages before it since the last compaction. The system prompt and the
// tool schemas are not recorded.

type claudeCode struct {
	nodes    map[string]*claudeCodeNode
	leaf     string
	version  string
	cwd      string // the first working directory an entry names
	known    bool
	unknown  kindCounts
	side     int             // sidechain (subagent) entries
	nodeless int             // user or assistant entries without a uuid
	entry    claudeCodeEntry // the entry being read: one for the file, not one a line
	prev     string          // the uuid of the entry read before
}

// claudeCodeKnown are the entry types with no message of their own.
var claudeCodeKnown = map[string]bool{
	"summary": true, "file-history-snapshot": true, "queue-operation": true, "progress": true,
	"attachment": true, "custom-title": true, "tag": true, "last-prompt": true, "agent-name": true,
	"pr-link": true, "permission-mode": true, "worktree-state": true, "content-replacement": true,
}

func newClaudeCode() *claudeCode {
	m, _ := nodeMaps.Get().(map[string]*claudeCodeNode)
	if m == nil {
		m = map[string]*claudeCodeNode{}
	}
	return &claudeCode{nodes: m}
}

// nodeMaps are the maps of entries by uuid of the transcripts read before,
// cleared: a folder's thousand transcripts grow one map to their size
// again and again otherwise (its growth was 2% of check's CPU). A map of
// more than maxPooledNodes entries is left to the collector, so that a
// small transcript read after a huge one does not walk a huge table.
var nodeMaps sync.Pool

const maxPooledNodes = 1 << 14

// release gives the map of entries back once the file is read.
func (c *claudeCode) release() {
	if m := c.nodes; m != nil && len(m) <= maxPooledNodes {
		clear(m)
		nodeMaps.Put(m)
	}
	c.nodes = nil
}

// claudeCodeNode is one entry with a uuid, kept until the active branch is known.
type claudeCodeNode struct {
	kind          string // user, assistant, boundary, micro, system, other
	typ           string // the entry's type
	parent        string
	logicalParent string
	before        string // the leaf when a boundary was read: where the walk goes when its logical parent is not in the file
	cleared       int    // tool results a microcompaction cleared
	line          int
	off, length   int64
	at            int64 // the entry's timestamp, Unix nanoseconds (0 when none)
	role, msgID   string
	model         string
	content       body.AnthropicContent
	usage         jsontext.Value
	diagnostics   jsontext.Value
}

type claudeCodeEntry struct {
	Type              string  `json:"type"`
	UUID              string  `json:"uuid"`
	ParentUUID        *string `json:"parentUuid"`
	LogicalParentUUID string  `json:"logicalParentUuid"`
	IsSidechain       bool    `json:"isSidechain"`
	Version           string  `json:"version"`
	Cwd               string  `json:"cwd"`
	Subtype           string  `json:"subtype"`
	Timestamp         string  `json:"timestamp"`
	Micro             *struct {
		CompactedToolIDs []string `json:"compactedToolIds"`
	} `json:"microcompactMetadata"`
	Message *claudeCodeMessage `json:"message"`

	// Where the token reader puts the parent and the message (read
	// points ParentUUID and Message at them): an entry is read into one
	// scratch value a file, and these go with it.
	parent string
	msg    claudeCodeMessage
}

type claudeCodeMessage struct {
	ID      string                `json:"id"`
	Role    string                `json:"role"`
	Model   string                `json:"model"`
	Content body.AnthropicContent `json:"content"`
	Usage   jsontext.Value        `json:"usage"`
	// Diagnostics is the API's cache diagnostics on the response, as
	// Claude Code writes them (body.AnthropicVerdict).
	Diagnostics jsontext.Value `json:"diagnostics"`
}

// read reads an entry from raw with the token reader, as json.Unmarshal
// would, or gives up (false) on anything unusual (see body.Reader).
// The texts of its content are shared through in (body.Reader.Text); prev
// is the uuid of the entry read before.
func (e *claudeCodeEntry) read(raw []byte, in *wire.Interner, prev string) bool {
	ok, _ := e.readASCII(raw, in, prev)
	return ok
}

// readASCII is read, and whether the line is ASCII (body.Reader.ASCII).
func (e *claudeCodeEntry) readASCII(raw []byte, in *wire.Interner, prev string) (ok, ascii bool) {
	w := body.NewReader(raw)
	w.In = in
	defer w.Done()
	var seenMsg, seenMicro bool
	ok = w.Object(func(name []byte) bool {
		switch string(name) {
		case "type":
			return w.Word(&e.Type)
		case "uuid":
			return w.String(&e.UUID)
		case "parentUuid":
			if w.Peek() == 'n' {
				e.ParentUUID = nil
				return w.Null()
			}
			// Most often the uuid of the entry before (prev): shared,
			// not copied again.
			e.ParentUUID = &e.parent
			return w.StringAs(&e.parent, prev)
		case "logicalParentUuid":
			return w.String(&e.LogicalParentUUID)
		case "isSidechain":
			return w.Bool(&e.IsSidechain)
		case "version":
			return w.Word(&e.Version)
		case "cwd":
			return w.Word(&e.Cwd)
		case "subtype":
			return w.Word(&e.Subtype)
		case "timestamp":
			return w.String(&e.Timestamp)
		case "microcompactMetadata":
			if seenMicro {
				return false
			}
			seenMicro = true
			return e.readMicro(w)
		case "message":
			if seenMsg {
				return false
			}
			seenMsg = true
			if w.Peek() == 'n' {
				return w.Null()
			}
			e.msg = claudeCodeMessage{}
			e.Message = &e.msg
			return e.Message.read(w)
		}
		return w.Skip()
	}) && w.End()
	return ok, ok && w.ASCII()
}

// readMicro reads microcompactMetadata (an object, or null).
func (e *claudeCodeEntry) readMicro(w *body.Reader) bool {
	if w.Peek() == 'n' {
		return w.Null()
	}
	e.Micro = &struct {
		CompactedToolIDs []string `json:"compactedToolIds"`
	}{}
	seen := false
	return w.Object(func(name []byte) bool {
		if string(name) != "compactedToolIds" {
			return w.Skip()
		}
		if seen {
			return false
		}
		seen = true
		if w.Peek() == 'n' {
			return w.Null()
		}
		ids := []string{}
		if !w.Array(func() bool {
			var id string
			if !w.String(&id) {
				return false
			}
			ids = append(ids, id)
			return true
		}) {
			return false
		}
		e.Micro.CompactedToolIDs = ids
		return true
	})
}

// read reads a message object.
func (m *claudeCodeMessage) read(w *body.Reader) bool {
	seen := false
	return w.Object(func(name []byte) bool {
		switch string(name) {
		case "id":
			return w.String(&m.ID)
		case "role":
			return w.Word(&m.Role)
		case "model":
			return w.Word(&m.Model)
		case "content":
			if seen {
				return false
			}
			seen = true
			return body.FastContent(w, &m.Content)
		case "usage":
			return w.Value(&m.Usage)
		case "diagnostics":
			return w.Value(&m.Diagnostics)
		}
		return w.Skip()
	})
}

// BorrowsLines: an entry's strings are copies, its raw values clones
// (claudeCodeEntry.read, json.Unmarshal).
func (c *claudeCode) BorrowsLines() {}

func (c *claudeCode) Line(d Sink, raw []byte, line int, off int64) {
	c.entry = claudeCodeEntry{}
	e := &c.entry
	in := d.Interner()
	fast := func(raw []byte) (bool, bool) {
		if ok, ascii := e.readASCII(raw, in, c.prev); ok {
			return true, ascii
		}
		*e = claudeCodeEntry{}
		return false, false
	}
	if !readLine(d, raw, line, e, fast) {
		return
	}
	c.prev = e.UUID
	switch {
	case e.Type == "user" || e.Type == "assistant" || e.Type == "system":
		c.known = true
	case claudeCodeKnown[e.Type]:
		c.known = true
	default:
		// An entry of a type this reader does not know is still a link
		// of the chain when it has a uuid.
		c.unknown.add(e.Type)
	}
	if e.UUID == "" && e.Type != "user" && e.Type != "assistant" {
		return
	}
	if e.Version != "" {
		c.version = e.Version
	}
	if e.Cwd != "" && c.cwd == "" {
		c.cwd = e.Cwd
	}
	if e.IsSidechain {
		c.side++
		return
	}
	if e.UUID == "" {
		c.nodeless++
		return
	}
	n := &claudeCodeNode{kind: e.Type, typ: e.Type, line: line, off: off, length: int64(len(raw)), logicalParent: e.LogicalParentUUID,
		at: unixNano(e.Timestamp)}
	if e.ParentUUID != nil {
		n.parent = *e.ParentUUID
	}
	switch {
	case e.Type != "user" && e.Type != "assistant" && e.Type != "system":
		n.kind = "other"
	case e.Type == "system" && e.Subtype == "compact_boundary":
		n.kind, n.before = "boundary", c.leaf
	case e.Type == "system" && e.Subtype == "microcompact_boundary":
		n.kind, n.before = "micro", c.leaf
		if e.Micro != nil {
			n.cleared = len(e.Micro.CompactedToolIDs)
		}
	}
	if e.Message != nil && (e.Type == "user" || e.Type == "assistant") {
		n.role, n.msgID, n.model = e.Message.Role, e.Message.ID, e.Message.Model
		n.content, n.usage, n.diagnostics = e.Message.Content, e.Message.Usage, e.Message.Diagnostics
		if n.role == "" {
			n.role = e.Type
		}
		c.leaf = e.UUID
	}
	c.nodes[e.UUID] = n
}

// branch is the active branch from its root to the leaf, and how many
// boundaries' logical parents were not in the file (the walk went on from the
// last message read before the boundary).
func (c *claudeCode) branch() ([]*claudeCodeNode, int) {
	var rev []*claudeCodeNode
	seen := map[string]bool{}
	lost := 0
	for id := c.leaf; id != "" && !seen[id]; {
		seen[id] = true
		n := c.nodes[id]
		if n == nil {
			break
		}
		rev = append(rev, n)
		id = n.parent
		if id == "" && (n.kind == "boundary" || n.kind == "micro") {
			id = n.logicalParent
			if c.nodes[id] == nil && n.before != "" {
				id = n.before
				lost++
			}
		}
	}
	out := make([]*claudeCodeNode, len(rev))
	for i, n := range rev {
		out[len(rev)-1-i] = n
	}
	return c.siblings(out), lost
}

// siblings adds to the chain the entries of one API exchange that hang off it
// on branches of their own: when a response calls tools in parallel, each
// tool_use block is an entry of its own, and the result of each hangs off its
// own block, so the walk from the leaf passes through one of them only; a
// response's blocks streamed while a tool's progress was written hang off
// that progress. Off-branch assistant entries of a response on the chain, and
// off-branch user entries made only of results of tool calls on the chain
// that the chain does not answer, go in at their place in the file.
func (c *claudeCode) siblings(chain []*claudeCodeNode) []*claudeCodeNode {
	on := map[*claudeCodeNode]bool{}
	ids := map[string]bool{}
	for _, n := range chain {
		on[n] = true
		if n.kind == "assistant" && n.msgID != "" {
			ids[n.msgID] = true
		}
	}
	var extra []*claudeCodeNode
	for _, n := range c.nodes {
		if !on[n] && n.kind == "assistant" && n.msgID != "" && ids[n.msgID] {
			extra = append(extra, n)
		}
	}
	calls, answered := map[string]bool{}, map[string]bool{}
	for _, list := range [][]*claudeCodeNode{chain, extra} {
		for _, n := range list {
			for _, b := range n.content.Blocks {
				switch {
				case n.kind == "assistant" && b.Type == "tool_use":
					calls[b.ID] = true
				case n.kind == "user" && b.Type == "tool_result":
					answered[b.ToolUseID] = true
				}
			}
		}
	}
	for _, n := range c.nodes {
		if on[n] || n.kind != "user" || n.content.IsStr || len(n.content.Blocks) == 0 {
			continue
		}
		ok := true
		for _, b := range n.content.Blocks {
			ok = ok && b.Type == "tool_result" && calls[b.ToolUseID] && !answered[b.ToolUseID]
		}
		if ok {
			extra = append(extra, n)
		}
	}
	if len(extra) == 0 {
		return chain
	}
	slices.SortFunc(extra, func(a, b *claudeCodeNode) int { return a.line - b.line })
	out := make([]*claudeCodeNode, 0, len(chain)+len(extra))
	j := 0
	for i, n := range chain {
		out = append(out, n)
		// The extras read after this entry and before the next one.
		for j < len(extra) && extra[j].line > n.line && (i+1 == len(chain) || extra[j].line < chain[i+1].line) {
			out = append(out, extra[j])
			j++
		}
		for j < len(extra) && extra[j].line < n.line {
			j++ // before the chain's place in the file: not placed
		}
	}
	return out
}

// claudeCodeMsg is a message being assembled from consecutive entries.
type claudeCodeMsg struct {
	role    string
	msgID   string
	model   string
	entries []*claudeCodeNode // its entries, in order: their blocks are the message's
	usage   jsontext.Value
	diag    jsontext.Value
}

func (c *claudeCode) End(d Sink) {
	defer c.release()
	if !c.known {
		d.Fail(0, "not a Claude Code session (no user, assistant, system or summary entries)")
		return
	}
	chain, lost := c.branch()
	off := c.offBranch(chain)
	var seq transcript
	seq.init(d.Interner())
	seq.builder.Cwd = c.cwd // the session's working directory, for its skills
	names := body.NewToolNames()
	msgs, compactions, synthetic, system := 0, 0, 0, 0
	micro, cleared := 0, 0
	var other kindCounts // entries of other types on the chain
	var cur *claudeCodeMsg
	var scratch claudeCodeMsg // what cur points at: one message at a time
	var parts []wire.Part
	add := func(p wire.Part) { parts = append(parts, p) }
	var pending *wire.Request
	pendingCompactions, pendingMicro, pendingCleared := 0, 0, 0
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
			pending.Verdict = body.AnthropicVerdict(m.diag)
		}
		id := body.IndexPath("messages", msgs)
		msgs++
		if len(m.entries) == 1 && m.entries[0].content.IsStr {
			seq.add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: m.role, Type: "text", Text: m.entries[0].content.Str})
			return
		}
		// The entries' blocks in turn, a string content as a text block
		// (a message of several entries is a list of blocks). parts is
		// reused: seq.add copies what it keeps.
		parts = parts[:0]
		j := 0
		for _, n := range m.entries {
			if n.content.IsStr {
				text := body.AnthropicBlock{Type: "text", Text: n.content.Str}
				body.AnthropicBlockParts(add, body.IndexPath(id+".content", j), wire.ChannelMessages, m.role, &text, names)
				j++
				continue
			}
			for k := range n.content.Blocks {
				body.AnthropicBlockParts(add, body.IndexPath(id+".content", j), wire.ChannelMessages, m.role, &n.content.Blocks[k], names)
				j++
			}
		}
		seq.add(parts...)
	}
	emit := func() {
		if pending == nil {
			return
		}
		req := pending
		pending = nil
		req.Notes = append([]string{headerNote(wire.FormatClaudeCode, c.version, c.unknown.note("unknown entries"), c.skippedNote(off, synthetic, system),
			other.note("entries on the active branch that are no messages"))},
			"system prompt not recorded", "tool schemas not recorded")
		if split > 0 {
			req.Notes = append(req.Notes, strconv.Itoa(split)+" responses were recorded around their own tool results: their blocks are shown in recorded order")
		}
		if pendingCompactions > 0 {
			req.Notes = append(req.Notes, "after "+strconv.Itoa(pendingCompactions)+" compactions: a compaction starts a new context, the messages before the last compact boundary are not sent")
		}
		if lost > 0 {
			req.Notes = append(req.Notes, strconv.Itoa(lost)+" compact boundaries point back to entries not in the file: the chain before each goes on from the last message read before it")
		}
		if pendingMicro > 0 {
			req.Notes = append(req.Notes, "after "+strconv.Itoa(pendingMicro)+" microcompactions: "+strconv.Itoa(pendingCleared)+" older tool results were cleared before they were sent; they are shown as recorded")
		}
		if req.Usage == nil {
			req.Notes = append(req.Notes, "usage not recorded for this request")
		}
		d.Emit(*req)
	}

	// last is the time of the latest entry on the chain read so far: the
	// request an assistant entry answers was sent after the entry before it
	// (a user message, a tool result, a hook's progress).
	var last int64
	for _, n := range chain {
		if d.Stopped() {
			return
		}
		before := last
		if n.at > last {
			last = n.at
		}
		switch n.kind {
		case "boundary":
			finish()
			emit()
			pendingID = ""
			seq.reset()
			msgs = 0
			compactions++
			micro, cleared = 0, 0
			continue
		case "micro":
			micro++
			cleared += n.cleared
			continue
		case "system":
			system++
			continue
		case "other":
			other.add(n.typ)
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
			if before == 0 {
				before = n.at
			}
			if before != 0 {
				pending.At = time.Unix(0, before).UTC()
			}
			seq.snapshot(pending)
			pendingCompactions, pendingMicro, pendingCleared = compactions, micro, cleared
		}
		scratch = claudeCodeMsg{role: n.role, msgID: n.msgID, model: n.model, entries: scratch.entries[:0]}
		cur = &scratch
		cur.merge(n)
	}
	finish()
	emit()
}

// merge adds an entry to the message (its content is read in finish: a
// string content is a text block once the message holds more than one
// entry), and takes its usage and diagnostics when it has them.
func (m *claudeCodeMsg) merge(n *claudeCodeNode) {
	if len(n.usage) > 0 {
		m.usage = n.usage
	}
	if len(n.diagnostics) > 0 {
		m.diag = n.diagnostics
	}
	m.entries = append(m.entries, n)
}

// offBranch counts the messages off the active branch: progress and other
// entries hang off it on side branches of their own in every session, and
// are not counted. Counted once a file (every request's note says it).
func (c *claudeCode) offBranch(chain []*claudeCodeNode) int {
	off := 0
	for _, n := range c.nodes {
		if n.kind == "user" || n.kind == "assistant" {
			off++
		}
	}
	for _, n := range chain {
		if n.kind == "user" || n.kind == "assistant" {
			off--
		}
	}
	return off
}

// skippedNote counts what was left out of the requests: off messages off
// the active branch (offBranch), and the rest.
func (c *claudeCode) skippedNote(off, synthetic, system int) string {
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
	add(off, "messages off the active branch skipped")
	add(c.side, "sidechain (subagent) entries skipped")
	add(synthetic, "synthetic assistant messages skipped")
	add(system, "system entries skipped (not sent to the model)")
	add(c.nodeless, "entries without a uuid skipped")
	return s
}
