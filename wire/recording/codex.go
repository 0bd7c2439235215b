package recording

import (
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// Codex, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl: lines of
// {"timestamp", "type", "payload"}. session_meta carries the base
// instructions (the system channel); response_item the items of the
// conversation in Responses API shape; turn_context the cwd, model and
// approval policy of the turn after it; event_msg token_count the usage of
// the response just received; compacted replaces the history; world_state
// is Codex's own snapshot of the environment, skipped. A request is implied
// wherever the model's output begins after input: it held the instructions
// and every item before that output.
//
// The header's "instructions" is not the system prompt. Codex wrote
// SessionMeta{id, timestamp, instructions} from May 2025 (codex-rs
// rollout.rs) and kept the member until base_instructions replaced it, and
// it was always the user's instructions (~/.codex/AGENTS.md and the
// project's AGENTS.md: RolloutRecorderParams::new(conversation_id,
// user_instructions)). Codex's own prompt was not recorded at all. Up to
// mid-2025 Codex appended the user's instructions to its prompt; then it sent
// them as a "<user_instructions>" user message, put in at request time
// (Prompt::get_formatted_input) and later recorded as a response item. So
// the header's text is the user's, untrusted: it is not repeated when a
// recorded message carries it, and otherwise it stands where Codex's
// get_formatted_input puts it for an old rollout, a <user_instructions>
// message before the history.

type codex struct {
	seq     transcript
	sysN    int
	sysSeen bool
	version string
	model   string
	items   int  // history items so far
	lastOut bool // the last item was the model's output
	pending *wire.Request
	names   map[string]string // call_id -> tool name
	unknown kindCounts        // record types not known
	skipped kindCounts        // response items not sent to the model, or not known
	known   bool              // a Codex record was seen
	compact int               // compactions seen
	total   codexTokens       // the last running total of a token_count
	world   int               // world_state records skipped

	// The user's instructions from the header, and whether a recorded
	// message carries them; preN counts the segments before the history
	// (the system prompt and the header's instructions once placed).
	userInstr string
	uiSeen    bool
	uiPlaced  bool
	preN      int
	turn      string // the last turn_context, as a note
	// lineAt is the timestamp of the line read last, sentAt that of the
	// line before it (Unix nanoseconds, 0 when none).
	lineAt, sentAt int64
}

func newCodex() *codex { return &codex{names: map[string]string{}} }

type codexLine struct {
	Timestamp string        `json:"timestamp"`
	Type      string        `json:"type"`
	Payload   *codexPayload `json:"payload"`
	// Rollouts of early 2025 had no envelope: a first line of session meta,
	// response items at the top level, and {"record_type":"state"} lines.
	RecordType   string         `json:"record_type"`
	ID           string         `json:"id"`
	Instructions jsontext.Value `json:"instructions"`
	CLIVersion   string         `json:"cli_version"`
}

// codexPayload is the union of the payloads this reader uses; members of
// other payloads and unknown members are ignored.
type codexPayload struct {
	Type string `json:"type"`
	// session_meta
	CLIVersion       string         `json:"cli_version"`
	Instructions     jsontext.Value `json:"instructions"`
	BaseInstructions struct {
		Text string `json:"text"`
	} `json:"base_instructions"`
	// turn_context
	Model          string         `json:"model"`
	Cwd            string         `json:"cwd"`
	ApprovalPolicy jsontext.Value `json:"approval_policy"`
	// response_item
	Role      string          `json:"role"`
	Content   jsontext.Value  `json:"content"`
	Name      string          `json:"name"`
	Arguments body.ChatString `json:"arguments"`
	Input     body.ChatString `json:"input"`
	CallID    string          `json:"call_id"`
	Output    jsontext.Value  `json:"output"`
	Summary   jsontext.Value  `json:"summary"`
	Action    jsontext.Value  `json:"action"`
	// event_msg token_count: info.last_token_usage, or flat in early versions
	Info              *codexInfo `json:"info"`
	InputTokens       *int       `json:"input_tokens"`
	CachedInputTokens int        `json:"cached_input_tokens"`
	OutputTokens      int        `json:"output_tokens"`
	// compacted
	Message            jsontext.Value   `json:"message"`
	ReplacementHistory []jsontext.Value `json:"replacement_history"`
}

type codexInfo struct {
	LastTokenUsage  *codexTokens `json:"last_token_usage"`
	TotalTokenUsage *codexTokens `json:"total_token_usage"`
}

type codexTokens struct {
	InputTokens       int `json:"input_tokens"`
	CachedInputTokens int `json:"cached_input_tokens"`
	OutputTokens      int `json:"output_tokens"`
}

type codexText struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
}

func (c *codex) Line(d Sink, raw []byte, line int, off int64) {
	if !c.seq.ready() {
		c.seq.init(d.Interner())
	}
	var r codexLine
	fast := func(raw []byte) (bool, bool) {
		if ok, ascii := r.readASCII(raw); ok {
			return true, ascii
		}
		r = codexLine{}
		return false, false
	}
	if !readLine(d, raw, line, &r, fast) {
		return
	}
	// A request starts at the first line of its response: it was sent
	// after the line before.
	c.sentAt = c.lineAt
	if t := unixNano(r.Timestamp); t != 0 {
		c.lineAt = t
	}
	if r.Payload == nil {
		c.legacy(d, &r, raw, line, off)
		return
	}
	p := r.Payload
	switch r.Type {
	case "session_meta":
		c.known = true
		if p.CLIVersion != "" {
			c.version = p.CLIVersion
		}
		if p.Cwd != "" {
			// The session's working directory tells the workspace's skills
			// from the others (classify.Builder.Cwd).
			c.seq.builder.Cwd = p.Cwd
		}
		if p.BaseInstructions.Text != "" {
			c.setSystem(p.BaseInstructions.Text)
		}
		c.headerInstructions(p.Instructions)
	case "turn_context":
		c.known = true
		c.turnContext(p)
	case "response_item":
		c.known = true
		c.item(d, p, line, off, int64(len(raw)))
	case "event_msg":
		c.known = true
		if p.Type == "token_count" {
			c.usage(p)
		}
	case "compacted":
		c.known = true
		c.compacted(d, p, line, off, int64(len(raw)))
	case "world_state":
		c.known = true
		c.world++
	default:
		c.unknown.add(r.Type)
	}
}

// legacy reads a line of a rollout without the envelope.
func (c *codex) legacy(d Sink, r *codexLine, raw []byte, line int, off int64) {
	switch {
	case r.Type == "" && r.RecordType != "":
		c.known = true
	case r.Type == "" && r.ID != "" && !c.known:
		c.known = true
		c.version = "(2025, no envelope)"
		if r.CLIVersion != "" {
			c.version = r.CLIVersion + " (no envelope)"
		}
		c.headerInstructions(r.Instructions)
	case r.Type != "":
		var p codexPayload
		if !unmarshalPayload(raw, &p) {
			c.skipped.add(r.Type)
			return
		}
		parts, out, ok := c.parts(&p, body.IndexPath("messages", c.items))
		if !ok {
			c.unknown.add(r.Type)
			return
		}
		c.known = true
		c.add(d, parts, out, line, off, int64(len(raw)))
	default:
		c.unknown.add("")
	}
}

// setSystem puts the base instructions at the start of the sequence.
func (c *codex) setSystem(text string) {
	sys := c.seq.build(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text})
	rest := append([]wire.Segment(nil), c.seq.segs[c.sysN:]...)
	c.seq.reset()
	c.seq.addSegs(sys)
	c.seq.addSegs(rest)
	c.preN += len(sys) - c.sysN
	c.sysN, c.sysSeen = len(sys), true
}

// headerInstructions keeps the header's "instructions", the user's
// instructions (see the top of this file).
func (c *codex) headerInstructions(v jsontext.Value) {
	var text string
	if len(v) > 0 && v.Kind() == '"' && body.Unmarshal(v, &text) == nil && strings.TrimSpace(text) != "" {
		c.userInstr = text
	}
}

// placeUserInstructions puts the header's instructions after the system
// prompt, as the <user_instructions> message Codex made of them, unless a
// recorded message carries them.
func (c *codex) placeUserInstructions() {
	if c.userInstr == "" || c.uiSeen || c.uiPlaced {
		return
	}
	c.uiPlaced = true
	ui := c.seq.build(wire.Part{ID: "session_meta.instructions", Channel: wire.ChannelMessages, Role: "user", Type: "text",
		Text: "<user_instructions>\n\n" + c.userInstr + "\n\n</user_instructions>"})
	pre := append([]wire.Segment(nil), c.seq.segs[:c.preN]...)
	rest := append([]wire.Segment(nil), c.seq.segs[c.preN:]...)
	c.seq.reset()
	c.seq.addSegs(pre)
	c.seq.addSegs(ui)
	c.seq.addSegs(rest)
	c.preN += len(ui)
}

// seeUserInstructions notes a recorded message that carries the header's
// instructions.
func (c *codex) seeUserInstructions(text string) {
	if c.userInstr != "" && strings.Contains(text, strings.TrimSpace(c.userInstr)) {
		c.uiSeen = true
	}
}

// turnContext reads a turn_context: the model, cwd and approval policy of
// the requests after it.
func (c *codex) turnContext(p *codexPayload) {
	if p.Model != "" {
		c.model = p.Model
	}
	var parts []string
	if p.Model != "" {
		parts = append(parts, "model "+p.Model)
	}
	if p.Cwd != "" {
		parts = append(parts, "cwd "+p.Cwd)
		c.seq.builder.Cwd = p.Cwd
	}
	if len(p.ApprovalPolicy) > 0 && p.ApprovalPolicy.Kind() != 'n' {
		policy := body.Compact(p.ApprovalPolicy)
		if p.ApprovalPolicy.Kind() == '"' {
			_ = body.Unmarshal(p.ApprovalPolicy, &policy)
		}
		parts = append(parts, "approval "+policy)
	}
	if len(parts) > 0 {
		c.turn = "turn context: " + strings.Join(parts, ", ")
	}
}

// item adds one response item; the first output after input starts a request.
func (c *codex) item(d Sink, p *codexPayload, line int, off, length int64) {
	parts, out, ok := c.parts(p, body.IndexPath("messages", c.items))
	if !ok {
		c.skipped.add(p.Type)
		return
	}
	c.add(d, parts, out, line, off, length)
}

// add adds the parts of one response item, out when it is the model's.
func (c *codex) add(d Sink, parts []wire.Part, out bool, line int, off, length int64) {
	if out && !c.lastOut {
		c.start(d, line, off, length)
	}
	c.lastOut = out
	c.items++
	c.seq.add(parts...)
}

// parts are the parts of one response item, whether it is the model's output,
// and false for an item that is not sent to the model or not known.
func (c *codex) parts(p *codexPayload, id string) ([]wire.Part, bool, bool) {
	switch p.Type {
	case "message":
		ch := wire.ChannelMessages
		if p.Role == "developer" || p.Role == "system" {
			ch = wire.ChannelSystem
		}
		var texts []codexText
		var parts []wire.Part
		if len(p.Content) > 0 && p.Content.Kind() == '"' {
			var s string
			_ = body.Unmarshal(p.Content, &s)
			parts = append(parts, wire.Part{ID: id, Channel: ch, Role: p.Role, Type: "text", Text: s})
		} else if len(p.Content) > 0 && codexTexts(p.Content, &texts) {
			for j, t := range texts {
				text := t.Text
				if t.Type == "input_image" {
					text = body.DataURLText("image", t.ImageURL)
				}
				parts = append(parts, wire.Part{ID: body.IndexPath(id+".content", j), Channel: ch, Role: p.Role, Type: t.Type, Text: text})
			}
		}
		if p.Role == "user" {
			for _, part := range parts {
				c.seeUserInstructions(part.Text)
			}
		}
		return parts, p.Role == "assistant", true
	case "reasoning":
		var texts []string
		for _, v := range []jsontext.Value{p.Summary, p.Content} {
			var ts []codexText
			if len(v) > 0 && codexTexts(v, &ts) {
				for _, t := range ts {
					texts = append(texts, t.Text)
				}
			}
		}
		return []wire.Part{{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "reasoning", Text: strings.Join(texts, "\n\n")}}, true, true
	case "function_call":
		c.names[p.CallID] = p.Name
		return []wire.Part{{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "function_call", Name: p.Name, Text: string(p.Arguments)}}, true, true
	case "custom_tool_call":
		c.names[p.CallID] = p.Name
		return []wire.Part{{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "function_call", Name: p.Name, Text: string(p.Input)}}, true, true
	case "local_shell_call", "web_search_call", "image_generation_call":
		name := strings.TrimSuffix(p.Type, "_call")
		c.names[p.CallID] = name
		return []wire.Part{{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "function_call", Name: name, Text: body.Compact(p.Action)}}, true, true
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		return []wire.Part{{ID: id, Channel: wire.ChannelMessages, Role: "tool", Type: "function_call_output",
			Name: c.names[p.CallID], Text: codexOutput(p.Output)}}, false, true
	}
	return nil, false, false
}

// codexOutput is a tool output: a string, {"content": ...}, or a list of
// content items.
func codexOutput(v jsontext.Value) string {
	if len(v) == 0 || v.Kind() == 'n' {
		return ""
	}
	switch v.Kind() {
	case '"':
		var s string
		_ = body.Unmarshal(v, &s)
		return s
	case '{':
		var o struct {
			Content jsontext.Value `json:"content"`
		}
		if body.Unmarshal(v, &o) == nil && len(o.Content) > 0 {
			return codexOutput(o.Content)
		}
	case '[':
		var ts []codexText
		if codexTexts(v, &ts) {
			var texts []string
			for _, t := range ts {
				if t.Type == "input_image" {
					texts = append(texts, body.DataURLText("image", t.ImageURL))
				} else {
					texts = append(texts, t.Text)
				}
			}
			return strings.Join(texts, "\n")
		}
	}
	return body.Compact(v)
}

// start emits the pending request and begins the one whose output starts on
// this line.
func (c *codex) start(d Sink, line int, off, length int64) {
	c.flush(d)
	c.placeUserInstructions()
	req := d.Builder(wire.FormatCodex, line, off, length).Req
	req.Model = c.model
	if at := c.sentAt; at != 0 || c.lineAt != 0 {
		if at == 0 {
			at = c.lineAt
		}
		req.At = time.Unix(0, at).UTC()
	}
	c.seq.snapshot(req)
	// The notes count what was read up to this request.
	req.Notes = append(req.Notes, headerNote(wire.FormatCodex, c.version,
		c.unknown.note("unknown records"), c.skipped.note("response items not sent or not known")))
	if !c.sysSeen {
		req.Notes = append(req.Notes, "system prompt not recorded (session_meta has no base instructions)")
	}
	switch {
	case c.uiPlaced:
		req.Notes = append(req.Notes, "the header's instructions are the user's (AGENTS.md), not the system prompt: shown as the <user_instructions> message Codex made of them")
	case c.userInstr != "":
		req.Notes = append(req.Notes, "the header's instructions are the user's (AGENTS.md), not the system prompt: the recorded <user_instructions> message carries them")
	}
	if c.turn != "" {
		req.Notes = append(req.Notes, c.turn)
	}
	if c.world > 0 {
		req.Notes = append(req.Notes, strconv.Itoa(c.world)+" world_state records (Codex's own snapshots of the environment) skipped: what the model saw of them is in the recorded messages")
	}
	req.Notes = append(req.Notes, "tool schemas not recorded")
	if c.compact > 0 {
		req.Notes = append(req.Notes, "history compacted "+strconv.Itoa(c.compact)+" times before this request: what the compaction kept is shown as recorded")
	}
	c.pending = req
}

// usage attaches a token_count to the request whose response it counts.
func (c *codex) usage(p *codexPayload) {
	if p.Info != nil && p.Info.TotalTokenUsage != nil {
		defer func(t codexTokens) { c.total = t }(*p.Info.TotalTokenUsage)
	}
	if c.pending == nil || c.pending.Usage != nil {
		return
	}
	switch {
	case p.Info != nil && p.Info.LastTokenUsage != nil:
		t := p.Info.LastTokenUsage
		c.pending.Usage = usageOf(t.InputTokens, t.CachedInputTokens, 0, t.OutputTokens)
	case p.Info != nil && p.Info.TotalTokenUsage != nil:
		// Only the running total: this response is what it grew by.
		t, prev := *p.Info.TotalTokenUsage, c.total
		c.pending.Usage = usageOf(t.InputTokens-prev.InputTokens, t.CachedInputTokens-prev.CachedInputTokens, 0, t.OutputTokens-prev.OutputTokens)
	case p.InputTokens != nil:
		c.pending.Usage = usageOf(*p.InputTokens, p.CachedInputTokens, 0, p.OutputTokens)
	}
}

// compacted replaces the history with what the compaction kept.
func (c *codex) compacted(d Sink, p *codexPayload, line int, off, length int64) {
	c.compact++
	sys := append([]wire.Segment(nil), c.seq.segs[:c.preN]...)
	c.seq.reset()
	c.seq.addSegs(sys)
	c.items, c.lastOut = 0, false
	if len(p.ReplacementHistory) > 0 {
		for _, raw := range p.ReplacementHistory {
			var it codexPayload
			if body.Unmarshal(raw, &it) != nil {
				c.skipped.add("unreadable replacement_history item")
				continue
			}
			parts, _, ok := c.parts(&it, body.IndexPath("messages", c.items))
			if !ok {
				c.skipped.add(it.Type)
				continue
			}
			c.items++
			c.seq.add(parts...)
		}
		return
	}
	var summary string
	if len(p.Message) > 0 && p.Message.Kind() == '"' {
		_ = body.Unmarshal(p.Message, &summary)
	}
	c.seq.add(wire.Part{ID: body.IndexPath("messages", c.items), Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: summary})
	c.items++
}

// flush emits the pending request with its notes.
func (c *codex) flush(d Sink) {
	if c.pending == nil {
		return
	}
	req := c.pending
	c.pending = nil
	if req.Usage == nil {
		req.Notes = append(req.Notes, "usage not recorded for this request (no token_count after it)")
	}
	d.Emit(*req)
}

func (c *codex) End(d Sink) {
	c.flush(d)
	if !c.known {
		d.Fail(0, "not a Codex rollout (no session_meta, response_item, event_msg or turn_context records)")
	}
}
