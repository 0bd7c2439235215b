package recording

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// kimi-code, ~/.kimi-code/sessions/<workdir-key>/<session>/agents/<agent>/wire.jsonl:
// an append-only log of records {"type": ..., "time": ms}, first a metadata
// record. config.update and profile.bind carry the system prompt;
// context.append_message and context.append_loop_event (step.begin,
// content.part, tool.call, tool.result, step.end) build the history;
// llm.tools_snapshot holds each distinct tool table by its hash; llm.request
// marks every outbound request with the hashes of its system prompt and
// tools and its message count; step.end and usage.record carry usage.
//
// Each llm.request is rebuilt from the system prompt, the snapshot with its
// tools hash and the first messageCount messages of the history as the agent
// projects it for the wire (empty messages dropped, consecutive user prompts
// merged). Both hashes (sha256 hex of the system prompt text and of the tools
// JSON) are verified. Fragments the agent adds at request time are counted in
// messageCount but not recorded: the gap is noted, never invented.

type kimiCode struct {
	segmenter transcript
	version   string
	agent     string // the agent whose records these are; others' are skipped

	system     string
	systemSeen bool
	sysHash    struct{ text, hash string } // the last hash computed
	sysSegs    []wire.Segment
	sysSegsFor string

	snapshots map[string]*kimiCodeSnapshot
	latest    *kimiCodeSnapshot // the last llm.tools_snapshot read
	latestKey string            // its hash

	history  []*kimiCodeMsg
	open     map[string]*kimiCodeMsg // open steps by uuid
	waiting  map[string]bool         // tool calls awaiting their result
	deferred []*kimiCodeMsg          // messages appended during a tool exchange
	names    map[string]string       // tool call id -> name

	// The requests share one sequence of segments while each one's messages
	// begin with the last one's: layout lists the messages laid out after
	// the head (tools and system) and where each ends.
	seq     transcript
	headKey [2]string // the tools hash and the system prompt of the head
	layout  []kimiCodeLaid
	merged  map[*kimiCodeMsg]*kimiCodeMerged // by the first prompt merged

	// hashes holds, per model, the tools and system prompt hashes the last
	// request of the model recorded: the next one's are judged against them.
	hashes map[string][2]string

	pending *wire.Request
	unknown kindCounts
	others  int // records of other agents
	events  kindCounts
	notes   []string // said once on every later request (micro compaction, undo)
	known   bool
}

func newKimiCode() *kimiCode {
	return &kimiCode{snapshots: map[string]*kimiCodeSnapshot{}, open: map[string]*kimiCodeMsg{},
		waiting: map[string]bool{}, names: map[string]string{}, merged: map[*kimiCodeMsg]*kimiCodeMerged{}}
}

// kimiCodeLaid is a message laid out in the shared sequence.
type kimiCodeLaid struct {
	msg *kimiCodeMsg
	ver int
	end int // segments of the sequence up to and including this message
}

// kimiCodeMerged is user prompts merged into one message.
type kimiCodeMerged struct {
	srcs []*kimiCodeMsg
	msg  *kimiCodeMsg
}

type kimiCodeSnapshot struct {
	segs []wire.Segment
	note string // a hash mismatch, or ""
}

// kimiCodeMsg is one message of the history, and the segments it was last
// built into (at index idx), reused while it does not change.
type kimiCodeMsg struct {
	role      string
	origin    string
	parts     []wire.Part // ID unset: set when the message gets its index
	calls     []wire.Part
	partial   bool
	segs      []wire.Segment
	idx       int
	ver       int          // bumped when the message changes (a streamed step)
	clean     *kimiCodeMsg // the message without blank text parts, for ver cleanVer
	cleanVer  int
	mergeable bool
	str       bool // the content was a string, not a list of parts
}

type kimiCodeRecord struct {
	Type            string           `json:"type"`
	AgentID         string           `json:"agentId"`
	ProtocolVersion string           `json:"protocol_version"`
	SystemPrompt    *string          `json:"systemPrompt"`
	Message         *kimiCodeMessage `json:"message"`
	Event           *kimiCodeEvent   `json:"event"`
	Hash            string           `json:"hash"`
	Tools           jsontext.Value   `json:"tools"`
	// llm.request
	Kind             string `json:"kind"`
	Model            string `json:"model"`
	SystemPromptHash string `json:"systemPromptHash"`
	ToolsHash        string `json:"toolsHash"`
	MessageCount     *int   `json:"messageCount"`
	// Time is when the request was sent, Unix milliseconds.
	Time int64 `json:"time"`
	// usage.record
	Usage *kimiCodeUsage `json:"usage"`
	// context.apply_compaction, context.undo, micro_compaction.apply
	Summary        string  `json:"summary"`
	ContextSummary *string `json:"contextSummary"`
	CompactedCount int     `json:"compactedCount"`
	KeptUsers      *int    `json:"keptUserMessageCount"`
	KeptHeadUsers  *int    `json:"keptHeadUserMessageCount"`
	Count          int     `json:"count"`
}

type kimiCodeMessage struct {
	Role        string             `json:"role"`
	Content     jsontext.Value     `json:"content"`
	ToolCalls   []kimiCodeToolCall `json:"toolCalls"`
	ToolCalls2  []kimiCodeToolCall `json:"tool_calls"`
	ToolCallID  string             `json:"toolCallId"`
	ToolCallID2 string             `json:"tool_call_id"`
	Origin      *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
	Partial bool `json:"partial"`
	IsError bool `json:"isError"`
}

type kimiCodeToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments body.ChatString `json:"arguments"`
	Function  *struct {
		Name      string          `json:"name"`
		Arguments body.ChatString `json:"arguments"`
	} `json:"function"`
}

type kimiCodeEvent struct {
	Type       string         `json:"type"`
	UUID       string         `json:"uuid"`
	StepUUID   string         `json:"stepUuid"`
	Part       jsontext.Value `json:"part"`
	ToolCallID string         `json:"toolCallId"`
	Name       string         `json:"name"`
	Args       jsontext.Value `json:"args"`
	Result     *struct {
		Output  jsontext.Value `json:"output"`
		IsError bool           `json:"isError"`
	} `json:"result"`
	Usage *kimiCodeUsage `json:"usage"`
}

type kimiCodeUsage struct {
	InputOther         int `json:"inputOther"`
	Output             int `json:"output"`
	InputCacheRead     int `json:"inputCacheRead"`
	InputCacheCreation int `json:"inputCacheCreation"`
}

func (u *kimiCodeUsage) usage() *wire.Usage {
	return usageOf(u.InputOther+u.InputCacheRead+u.InputCacheCreation, u.InputCacheRead, u.InputCacheCreation, u.Output)
}

// Tool result texts the agent puts on the wire for errors and empty output.
const (
	kimiCodeToolError      = "<system>ERROR: Tool execution failed.</system>"
	kimiCodeToolEmpty      = "<system>Tool output is empty.</system>"
	kimiCodeToolEmptyError = "<system>ERROR: Tool execution failed. Tool output is empty.</system>"
)

// Record families that change nothing a request holds.
var kimiCodeQuiet = []string{"turn.", "permission.", "tools.", "goal.", "plan_mode.", "swarm_mode.",
	"full_compaction.", "mcp.", "cron.", "skill.", "plugin.", "context_size.", "monitor.", "background."}

func (k *kimiCode) Line(d Sink, raw []byte, line int, off int64) {
	if !k.segmenter.ready() {
		k.segmenter.init(d.Interner())
	}
	var r kimiCodeRecord
	if !unmarshalLine(d, raw, line, &r) {
		return
	}
	if r.AgentID != "" {
		if k.agent == "" {
			k.agent = r.AgentID
		} else if r.AgentID != k.agent {
			k.others++
			return
		}
	}
	switch r.Type {
	case "metadata":
		k.known = true
		k.version = r.ProtocolVersion
	case "config.update", "profile.bind":
		k.known = true
		if r.SystemPrompt != nil {
			k.system, k.systemSeen = *r.SystemPrompt, true
		}
	case "context.append_message":
		k.known = true
		if r.Message != nil {
			k.appendMessage(k.message(r.Message))
		}
	case "context.append_loop_event":
		k.known = true
		if r.Event != nil {
			k.loopEvent(r.Event)
		}
	case "context.clear":
		k.known = true
		k.history, k.deferred = nil, nil
		clear(k.open)
		clear(k.waiting)
	case "context.apply_compaction":
		k.known = true
		k.compaction(&r)
	case "context.undo":
		k.known = true
		k.undo(r.Count)
	case "micro_compaction.apply":
		k.known = true
		k.addNote("micro compaction was applied: older tool results went on the wire shortened, shown here as recorded")
	case "llm.tools_snapshot":
		k.known = true
		k.snapshot(&r)
	case "llm.request":
		k.known = true
		k.request(d, &r, line, off, int64(len(raw)))
	case "usage.record":
		k.known = true
		if r.Usage != nil && k.pending != nil && k.pending.Usage == nil {
			k.pending.Usage = r.Usage.usage()
		}
	case "forked", "turn.ended":
		k.known = true
	default:
		for _, p := range kimiCodeQuiet {
			if strings.HasPrefix(r.Type, p) {
				k.known = true
				return
			}
		}
		k.unknown.add(r.Type)
	}
}

func (k *kimiCode) addNote(n string) {
	for _, have := range k.notes {
		if have == n {
			return
		}
	}
	k.notes = append(k.notes, n)
}

// compaction replaces the history as the agent does: the user prompts it
// keeps, then the summary as a user message; a record of an older version
// (no keptUserMessageCount) puts the summary before the messages after
// compactedCount.
func (k *kimiCode) compaction(r *kimiCodeRecord) {
	text := r.Summary
	if r.ContextSummary != nil {
		text = *r.ContextSummary
	}
	summary := &kimiCodeMsg{role: "user", origin: "compaction_summary",
		parts: []wire.Part{{Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: text}}}
	if r.KeptUsers == nil {
		n := min(max(r.CompactedCount, 0), len(k.history))
		k.history = append([]*kimiCodeMsg{summary}, k.history[n:]...)
	} else {
		var users []*kimiCodeMsg
		for _, m := range k.history {
			if kimiCodeRealUser(m) {
				users = append(users, m)
			}
		}
		keep := min(max(*r.KeptUsers, 0), len(users))
		head := 0
		if r.KeptHeadUsers != nil {
			head = min(max(*r.KeptHeadUsers, 0), keep)
		}
		kept := append(append([]*kimiCodeMsg(nil), users[:head]...), users[len(users)-(keep-head):]...)
		if head > 0 && keep-head > 0 && len(users) > keep {
			k.addNote("a compaction elided user prompts between the ones it kept: its elision marker is not recorded")
		}
		k.history = append(kept, summary)
	}
	clear(k.open)
	clear(k.waiting)
	k.deferred = nil
}

// kimiCodeRealUser reports whether a message is the person's own prompt.
func kimiCodeRealUser(m *kimiCodeMsg) bool {
	return m.role == "user" && (m.origin == "user" || m.origin == "")
}

// undo removes the last count prompts and what followed them, as the agent
// does: injections stay, and a compaction summary is a wall.
func (k *kimiCode) undo(count int) {
	removed := 0
	for i := len(k.history) - 1; i >= 0 && count > 0; i-- {
		m := k.history[i]
		if m.origin == "injection" {
			continue
		}
		if m.origin == "compaction_summary" {
			break
		}
		k.history = append(k.history[:i], k.history[i+1:]...)
		if kimiCodeRealUser(m) {
			if removed++; removed >= count {
				break
			}
		}
	}
	clear(k.open)
	clear(k.waiting)
	k.deferred = nil
}

// message turns a recorded message into a history message.
func (k *kimiCode) message(m *kimiCodeMessage) *kimiCodeMsg {
	msg := &kimiCodeMsg{role: m.Role, partial: m.Partial}
	if m.Origin != nil {
		msg.origin = m.Origin.Kind
	}
	ch := wire.ChannelMessages
	if m.Role == "system" {
		ch = wire.ChannelSystem
	}
	callID := m.ToolCallID + m.ToolCallID2
	name := ""
	if m.Role == "tool" {
		name = k.names[callID]
	}
	parts, ok := kimiContent(m.Content, "", ch, m.Role, name)
	if !ok {
		parts = []wire.Part{{Channel: ch, Role: m.Role, Type: "unknown", Name: name, Text: body.Compact(m.Content)}}
	}
	msg.str = len(m.Content) > 0 && m.Content.Kind() == '"'
	msg.parts = parts
	if m.Role == "user" && m.Origin == nil && kimiCodeReminderOnly(parts) {
		// The agent writes its reminders as user messages of origin
		// injection; one recorded without an origin is still the host's,
		// not a prompt of the person's (undo passes over it, a compaction
		// does not keep it as a prompt).
		msg.origin = "injection"
	}
	for _, tc := range append(m.ToolCalls, m.ToolCalls2...) {
		name, args := tc.Name, tc.Arguments
		if tc.Function != nil {
			name, args = tc.Function.Name, tc.Function.Arguments
		}
		k.names[tc.ID] = name
		msg.calls = append(msg.calls, wire.Part{Channel: ch, Role: m.Role, Type: "tool_call", Name: name, Text: string(args)})
	}
	msg.mergeable = m.Role == "user" && msg.origin == "user"
	return msg
}

// kimiCodeReminderOnly reports whether parts are text and nothing but
// <system-reminder> blocks, as the agent's appendSystemReminder writes them.
func kimiCodeReminderOnly(parts []wire.Part) bool {
	for _, p := range parts {
		t := strings.TrimSpace(p.Text)
		if p.Type != "text" || !strings.HasPrefix(t, "<system-reminder>") || !strings.HasSuffix(t, "</system-reminder>") {
			return false
		}
	}
	return len(parts) > 0
}

// appendMessage adds a message, or holds it back while a tool exchange is
// open, as the agent does.
func (k *kimiCode) appendMessage(m *kimiCodeMsg) {
	if len(k.waiting) > 0 {
		k.deferred = append(k.deferred, m)
		return
	}
	k.history = append(k.history, m)
}

func (k *kimiCode) flushDeferred() {
	if len(k.waiting) > 0 || len(k.deferred) == 0 {
		return
	}
	k.history = append(k.history, k.deferred...)
	k.deferred = nil
}

func (k *kimiCode) loopEvent(e *kimiCodeEvent) {
	switch e.Type {
	case "step.begin":
		m := &kimiCodeMsg{role: "assistant"}
		k.history = append(k.history, m)
		k.open[e.UUID] = m
	case "step.end":
		delete(k.open, e.UUID)
		if e.Usage != nil && k.pending != nil && k.pending.Usage == nil {
			k.pending.Usage = e.Usage.usage()
		}
		k.flushDeferred()
	case "content.part":
		m := k.open[e.StepUUID]
		if m == nil {
			k.events.add("content.part of an unknown step")
			return
		}
		parts, _ := kimiContent(jsontext.Value("["+string(e.Part)+"]"), "", wire.ChannelMessages, "assistant", "")
		m.parts = append(m.parts, parts...)
		m.segs = nil
		m.ver++
	case "tool.call":
		m := k.open[e.StepUUID]
		if m == nil {
			k.events.add("tool.call of an unknown step")
			return
		}
		args := ""
		if len(e.Args) > 0 && e.Args.Kind() != 'n' {
			args = body.Compact(e.Args)
		}
		k.names[e.ToolCallID] = e.Name
		m.calls = append(m.calls, wire.Part{Channel: wire.ChannelMessages, Role: "assistant", Type: "tool_call", Name: e.Name, Text: args})
		m.segs = nil
		m.ver++
		k.waiting[e.ToolCallID] = true
	case "tool.result":
		m := &kimiCodeMsg{role: "tool"}
		var out jsontext.Value
		isErr := false
		if e.Result != nil {
			out, isErr = e.Result.Output, e.Result.IsError
		}
		m.parts = kimiCodeToolOutput(out, isErr, k.names[e.ToolCallID])
		k.history = append(k.history, m)
		delete(k.waiting, e.ToolCallID)
		k.flushDeferred()
	default:
		k.events.add(e.Type)
	}
}

// kimiCodeToolOutput is the tool message content the agent sends for a result.
// The notes the agent writes in a part of their own (an empty output, the
// error note before a list of parts) are host notes; one it prefixes to the
// output's text is part of the tool result.
func kimiCodeToolOutput(out jsontext.Value, isErr bool, name string) []wire.Part {
	text := func(s string) []wire.Part {
		return []wire.Part{{Channel: wire.ChannelMessages, Role: "tool", Type: "text", Name: name, Text: s}}
	}
	note := func(s string) []wire.Part {
		p := text(s)
		p[0].Type = wire.PartHostNote
		return p
	}
	if len(out) == 0 || out.Kind() == 'n' || out.Kind() == '"' {
		var s string
		if len(out) > 0 && out.Kind() == '"' {
			_ = body.Unmarshal(out, &s)
		}
		switch {
		case isErr && s == "":
			return note(kimiCodeToolEmptyError)
		case isErr && strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "<system>ERROR:"):
			return text(s)
		case isErr:
			return text(kimiCodeToolError + "\n" + s)
		case s == "" || strings.TrimSpace(s) == "Tool output is empty.":
			return note(kimiCodeToolEmpty)
		}
		return text(s)
	}
	parts, ok := kimiContent(out, "", wire.ChannelMessages, "tool", name)
	if !ok {
		return text(body.Compact(out))
	}
	if len(parts) == 0 {
		if isErr {
			return note(kimiCodeToolEmptyError)
		}
		return note(kimiCodeToolEmpty)
	}
	if isErr {
		return append(note(kimiCodeToolError), parts...)
	}
	return parts
}

// snapshot keeps a tool table by its hash, verifying the hash.
func (k *kimiCode) snapshot(r *kimiCodeRecord) {
	s := &kimiCodeSnapshot{}
	var tools []jsontext.Value
	if len(r.Tools) > 0 && body.Unmarshal(r.Tools, &tools) == nil {
		parts := make([]wire.Part, 0, len(tools))
		for i, t := range tools {
			var n struct {
				Name string `json:"name"`
			}
			_ = body.Unmarshal(t, &n)
			parts = append(parts, wire.Part{ID: body.IndexPath("tools", i), Channel: wire.ChannelTools, Role: "tool", Type: "tool",
				Name: n.Name, Text: body.Compact(t)})
		}
		s.segs = k.segmenter.build(parts...)
	}
	if got := sha256Hex(string(r.Tools)); got != r.Hash && sha256Hex(body.Compact(r.Tools)) != r.Hash {
		s.note = "tools snapshot hash mismatch: recorded " + shortHash(r.Hash) + ", its tools JSON hashes to " + shortHash(got)
	}
	k.snapshots[r.Hash] = s
	k.latest, k.latestKey = s, r.Hash
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// shortHash abbreviates a hash for a note.
func shortHash(h string) string {
	if h == "" {
		return `""`
	}
	if len(h) > 16 {
		return h[:16] + "..."
	}
	return h
}

// project is the history as the agent puts it on the wire: partial and empty
// messages and blank text parts dropped, consecutive user prompts merged.
// The messages it returns are the same values from one call to the next
// while the history they come from does not change.
func (k *kimiCode) project() []*kimiCodeMsg {
	out := make([]*kimiCodeMsg, 0, len(k.history))
	var srcs []*kimiCodeMsg // the prompts merged into the last message of out
	for _, m := range k.history {
		if m.partial {
			continue
		}
		if m.clean == nil || m.cleanVer != m.ver {
			// What the wire gets of this message, worked out once per version.
			c := m
			if kimiCodeBlank(m.parts) {
				c = &kimiCodeMsg{role: m.role, origin: m.origin, calls: m.calls, mergeable: m.mergeable, str: m.str, ver: m.ver}
				for _, part := range m.parts {
					if !(part.Type == "text" && strings.TrimSpace(part.Text) == "") {
						c.parts = append(c.parts, part)
					}
				}
			}
			if len(c.calls) == 0 && kimiCodeVacuous(c.parts) {
				c = kimiCodeDropped
			}
			m.clean, m.cleanVer = c, m.ver
		}
		p := m.clean
		if p == kimiCodeDropped {
			continue
		}
		if n := len(out); n > 0 && p.mergeable && out[n-1].mergeable && len(srcs) > 0 {
			srcs = append(srcs, p)
			c := k.merged[srcs[0]]
			if c == nil || !kimiCodeSame(c.srcs, srcs) {
				c = &kimiCodeMerged{srcs: append([]*kimiCodeMsg(nil), srcs...), msg: kimiCodeMerge(out[n-1], p)}
				k.merged[srcs[0]] = c
			}
			out[n-1] = c.msg
			continue
		}
		srcs = append(srcs[:0], p)
		out = append(out, p)
	}
	return out
}

// kimiCodeDropped stands for a message that does not go on the wire.
var kimiCodeDropped = &kimiCodeMsg{}

func kimiCodeSame(a, b []*kimiCodeMsg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// kimiCodeBlank reports whether some text part is blank.
func kimiCodeBlank(parts []wire.Part) bool {
	for _, p := range parts {
		if p.Type == "text" && strings.TrimSpace(p.Text) == "" {
			return true
		}
	}
	return false
}

// kimiCodeVacuous reports whether parts carry nothing for the wire.
func kimiCodeVacuous(parts []wire.Part) bool {
	for _, p := range parts {
		switch {
		case p.Type == "text" && strings.TrimSpace(p.Text) == "":
		case p.Type == "thinking" && strings.TrimSpace(p.Text) == "":
		default:
			return false
		}
	}
	return true
}

// kimiCodeMerge joins two user prompts the way the agent does: their texts
// joined by a blank line, then their other parts.
func kimiCodeMerge(a, b *kimiCodeMsg) *kimiCodeMsg {
	var texts []string
	var rest []wire.Part
	for _, m := range []*kimiCodeMsg{a, b} {
		var t strings.Builder
		for _, p := range m.parts {
			if p.Type == "text" {
				t.WriteString(p.Text)
			} else {
				rest = append(rest, p)
			}
		}
		texts = append(texts, t.String())
	}
	text := wire.Part{Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: strings.Join(texts, "\n\n")}
	return &kimiCodeMsg{role: "user", origin: a.origin, mergeable: true, parts: append([]wire.Part{text}, rest...)}
}

// segments are the message's segments at index i, built once per index.
func (k *kimiCode) segments(m *kimiCodeMsg, i int) []wire.Segment {
	if m.segs != nil && m.idx == i {
		return m.segs
	}
	id := body.IndexPath("messages", i)
	parts := make([]wire.Part, 0, len(m.parts)+len(m.calls))
	for j, p := range m.parts {
		if m.str && len(m.parts) == 1 {
			p.ID = id
		} else {
			p.ID = body.IndexPath(id+".content", j)
		}
		parts = append(parts, p)
	}
	for j, c := range m.calls {
		c.ID = body.IndexPath(id+".tool_calls", j)
		parts = append(parts, c)
	}
	m.segs, m.idx = k.segmenter.build(parts...), i
	return m.segs
}

// request rebuilds the request an llm.request record marks.
func (k *kimiCode) request(d Sink, r *kimiCodeRecord, line int, off, length int64) {
	k.flush(d)
	req := d.Builder(wire.FormatKimiCode, line, off, length).Req
	req.Model = r.Model
	if r.Time > 0 && r.Time < 1e14 {
		req.At = time.UnixMilli(r.Time).UTC()
	}
	req.Verdict = k.judge(r)
	var notes []string
	var segs []wire.Segment // the head: tools, then the system prompt

	// Tools. A request that names no toolsHash (as some recordings' do not)
	// went out with the tool table of the last snapshot before it: the agent
	// writes a snapshot whenever its table changes, before the request.
	toolsKey := r.ToolsHash
	if s := k.snapshots[r.ToolsHash]; s != nil && r.ToolsHash != "" {
		segs = append(segs, s.segs...)
		if s.note != "" {
			notes = append(notes, s.note)
		}
	} else if r.ToolsHash != "" {
		notes = append(notes, "tools snapshot "+shortHash(r.ToolsHash)+" not recorded")
	} else if k.latest != nil {
		segs = append(segs, k.latest.segs...)
		toolsKey = k.latestKey
		notes = append(notes, "tool schemas from the llm.tools_snapshot before this request ("+shortHash(k.latestKey)+"): the request names no toolsHash")
		if k.latest.note != "" {
			notes = append(notes, k.latest.note)
		}
	} else {
		notes = append(notes, "tool schemas not recorded (no toolsHash)")
	}

	// System prompt.
	system, have := k.system, k.systemSeen
	if r.SystemPrompt != nil {
		system, have = *r.SystemPrompt, true
	}
	if have {
		if k.sysSegs == nil || k.sysSegsFor != system {
			k.sysSegs = k.segmenter.build(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: system})
			k.sysSegsFor = system
		}
		segs = append(segs, k.sysSegs...)
		if r.SystemPromptHash != "" {
			if k.sysHash.text != system || k.sysHash.hash == "" {
				k.sysHash.text, k.sysHash.hash = system, sha256Hex(system)
			}
			if k.sysHash.hash != r.SystemPromptHash {
				notes = append(notes, "system prompt hash mismatch: the request recorded "+shortHash(r.SystemPromptHash)+
					", the latest recorded system prompt hashes to "+shortHash(k.sysHash.hash))
			}
		}
	} else {
		notes = append(notes, "system prompt not recorded")
	}

	// Messages.
	proj := k.project()
	n := len(proj)
	switch {
	case r.MessageCount == nil:
		notes = append(notes, "messageCount not recorded: every message of the history is shown")
	case *r.MessageCount > n:
		notes = append(notes, "request-time baseline fragments not recorded ("+strconv.Itoa(*r.MessageCount-n)+" messages)")
	case *r.MessageCount < n:
		notes = append(notes, "the request counted "+strconv.Itoa(*r.MessageCount)+" messages of the "+strconv.Itoa(n)+" recorded: the first "+strconv.Itoa(*r.MessageCount)+" are shown")
		n = max(*r.MessageCount, 0)
	}
	k.lay(segs, [2]string{toolsKey, system}, proj[:n])
	if r.Kind == "compaction" {
		notes = append(notes, "compaction request: the summarising instruction is not recorded")
	}
	others := ""
	if k.others > 0 {
		others = strconv.Itoa(k.others) + " records of other agents skipped"
	}
	head := headerNote(wire.FormatKimiCode, k.version, k.unknown.note("unknown records"), k.events.note("unknown loop events"), others)
	k.seq.snapshot(req)
	req.Notes = append(append([]string{head}, notes...), k.notes...)
	k.pending = req
}

// judge compares the hashes a request recorded with those of the last
// request of its model: the agent's own record of whether the tools or the
// system prompt changed, which a cache break before the messages needs.
// nil when there is nothing to compare (the first request of a model, or a
// hash not recorded on one side).
func (k *kimiCode) judge(r *kimiCodeRecord) *wire.CacheVerdict {
	cur := [2]string{r.ToolsHash, r.SystemPromptHash}
	if k.hashes == nil {
		k.hashes = map[string][2]string{}
	}
	prev, ok := k.hashes[r.Model]
	k.hashes[r.Model] = cur
	if !ok {
		return nil
	}
	both := func(i int) bool { return prev[i] != "" && cur[i] != "" }
	v := &wire.CacheVerdict{By: "kimi-code", MissedTokens: -1}
	switch {
	case both(0) && prev[0] != cur[0]:
		v.Reason = "tools_changed"
	case both(1) && prev[1] != cur[1]:
		v.Reason = "system_changed"
	case both(0) && both(1):
		v.Reason = "unchanged"
	default:
		return nil
	}
	return v
}

// lay lays the head and the messages out in the shared sequence, keeping
// what the last request laid out as far as it is the same.
func (k *kimiCode) lay(head []wire.Segment, key [2]string, msgs []*kimiCodeMsg) {
	if !k.seq.ready() {
		k.seq.init(k.segmenter.interner())
	}
	if key != k.headKey || k.seq.segs == nil {
		k.seq.reset()
		k.seq.addSegs(head)
		k.headKey, k.layout = key, k.layout[:0]
	}
	same := 0
	for same < len(k.layout) && same < len(msgs) && k.layout[same].msg == msgs[same] && k.layout[same].ver == msgs[same].ver {
		same++
	}
	if same < len(k.layout) {
		// The history changed under the last request (a compaction, a
		// merge): earlier requests keep their array, this one gets a copy.
		end := len(head)
		if same > 0 {
			end = k.layout[same-1].end
		}
		k.seq.segs = append([]wire.Segment(nil), k.seq.segs[:end]...)
		k.layout = k.layout[:same]
	}
	for i := same; i < len(msgs); i++ {
		k.seq.addSegs(k.segments(msgs[i], i))
		k.layout = append(k.layout, kimiCodeLaid{msg: msgs[i], ver: msgs[i].ver, end: len(k.seq.segs)})
	}
}

// flush emits the pending request.
func (k *kimiCode) flush(d Sink) {
	if k.pending == nil {
		return
	}
	req := k.pending
	k.pending = nil
	if req.Usage == nil {
		req.Notes = append(req.Notes, "usage not recorded for this request")
	}
	d.Emit(*req)
}

func (k *kimiCode) End(d Sink) {
	k.flush(d)
	if !k.known {
		d.Fail(0, "not a kimi-code wire.jsonl (no metadata, config.update, context or llm records)")
	}
}
