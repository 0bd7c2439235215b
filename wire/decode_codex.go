package wire

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Codex, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl: lines of
// {"timestamp", "type", "payload"}. session_meta carries the base
// instructions (the system channel); response_item the items of the
// conversation in Responses API shape; turn_context the model; event_msg
// token_count the usage of the response just received; compacted replaces
// the history. A request is implied wherever the model's output begins after
// input: it held the instructions and every item before that output.

func init() { recRegister(FormatCodex, func() sessionDecoder { return newRecCodex() }) }

type recCodex struct {
	seq     recSeq
	sysN    int
	sysSeen bool
	version string
	model   string
	items   int  // history items so far
	lastOut bool // the last item was the model's output
	pending *Request
	names   map[string]string // call_id -> tool name
	unknown recCounts         // record types not known
	skipped recCounts         // response items not sent to the model, or not known
	known   bool              // a Codex record was seen
	compact int               // compactions seen
	total   recCodexTokens    // the last running total of a token_count
}

func newRecCodex() *recCodex { return &recCodex{names: map[string]string{}} }

type recCodexLine struct {
	Type    string           `json:"type"`
	Payload *recCodexPayload `json:"payload"`
	// Rollouts of early 2025 had no envelope: a first line of session meta,
	// response items at the top level, and {"record_type":"state"} lines.
	RecordType   string         `json:"record_type"`
	ID           string         `json:"id"`
	Instructions jsontext.Value `json:"instructions"`
}

// recCodexPayload is the union of the payloads this reader uses; members of
// other payloads and unknown members are ignored.
type recCodexPayload struct {
	Type string `json:"type"`
	// session_meta
	CLIVersion       string         `json:"cli_version"`
	Instructions     jsontext.Value `json:"instructions"`
	BaseInstructions struct {
		Text string `json:"text"`
	} `json:"base_instructions"`
	// turn_context
	Model string `json:"model"`
	// response_item
	Role      string         `json:"role"`
	Content   jsontext.Value `json:"content"`
	Name      string         `json:"name"`
	Arguments decChatString  `json:"arguments"`
	Input     decChatString  `json:"input"`
	CallID    string         `json:"call_id"`
	Output    jsontext.Value `json:"output"`
	Summary   jsontext.Value `json:"summary"`
	Action    jsontext.Value `json:"action"`
	// event_msg token_count: info.last_token_usage, or flat in early versions
	Info              *recCodexInfo `json:"info"`
	InputTokens       *int          `json:"input_tokens"`
	CachedInputTokens int           `json:"cached_input_tokens"`
	OutputTokens      int           `json:"output_tokens"`
	// compacted
	Message            jsontext.Value   `json:"message"`
	ReplacementHistory []jsontext.Value `json:"replacement_history"`
}

type recCodexInfo struct {
	LastTokenUsage  *recCodexTokens `json:"last_token_usage"`
	TotalTokenUsage *recCodexTokens `json:"total_token_usage"`
}

type recCodexTokens struct {
	InputTokens       int `json:"input_tokens"`
	CachedInputTokens int `json:"cached_input_tokens"`
	OutputTokens      int `json:"output_tokens"`
}

type recCodexText struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
}

func (c *recCodex) line(d *decoder, raw []byte, line int, off int64) {
	if c.seq.scratch.In == nil {
		c.seq.init(d.opts.Interner)
	}
	var r recCodexLine
	if !recLine(d, raw, line, &r) {
		return
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
		text := p.BaseInstructions.Text
		if text == "" && len(p.Instructions) > 0 && p.Instructions.Kind() == '"' {
			_ = unmarshal(p.Instructions, &text)
		}
		if text != "" {
			c.setSystem(text)
		}
	case "turn_context":
		c.known = true
		if p.Model != "" {
			c.model = p.Model
		}
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
	default:
		c.unknown.add(r.Type)
	}
}

// legacy reads a line of a rollout without the envelope.
func (c *recCodex) legacy(d *decoder, r *recCodexLine, raw []byte, line int, off int64) {
	switch {
	case r.Type == "" && r.RecordType != "":
		c.known = true
	case r.Type == "" && r.ID != "" && !c.known:
		c.known = true
		c.version = "(early 2025, no envelope)"
		var text string
		if len(r.Instructions) > 0 && r.Instructions.Kind() == '"' && unmarshal(r.Instructions, &text) == nil && text != "" {
			c.setSystem(text)
		}
	case r.Type != "":
		var p recCodexPayload
		if unmarshal(raw, &p) != nil {
			c.skipped.add(r.Type)
			return
		}
		parts, out, ok := c.parts(&p, decIndex("messages", c.items))
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
func (c *recCodex) setSystem(text string) {
	sys := c.seq.build(Part{ID: "system[0]", Channel: ChannelSystem, Role: "system", Type: "text", Text: text})
	rest := c.seq.segs[c.sysN:]
	c.seq.reset()
	c.seq.addSegs(sys)
	c.seq.addSegs(rest)
	c.sysN, c.sysSeen = len(sys), true
}

// item adds one response item; the first output after input starts a request.
func (c *recCodex) item(d *decoder, p *recCodexPayload, line int, off, length int64) {
	parts, out, ok := c.parts(p, decIndex("messages", c.items))
	if !ok {
		c.skipped.add(p.Type)
		return
	}
	c.add(d, parts, out, line, off, length)
}

// add adds the parts of one response item, out when it is the model's.
func (c *recCodex) add(d *decoder, parts []Part, out bool, line int, off, length int64) {
	if out && !c.lastOut {
		c.start(d, line, off, length)
	}
	c.lastOut = out
	c.items++
	c.seq.add(parts...)
}

// parts are the parts of one response item, whether it is the model's output,
// and false for an item that is not sent to the model or not known.
func (c *recCodex) parts(p *recCodexPayload, id string) ([]Part, bool, bool) {
	switch p.Type {
	case "message":
		ch := ChannelMessages
		if p.Role == "developer" || p.Role == "system" {
			ch = ChannelSystem
		}
		var texts []recCodexText
		var parts []Part
		if len(p.Content) > 0 && p.Content.Kind() == '"' {
			var s string
			_ = unmarshal(p.Content, &s)
			parts = append(parts, Part{ID: id, Channel: ch, Role: p.Role, Type: "text", Text: s})
		} else if len(p.Content) > 0 && unmarshal(p.Content, &texts) == nil {
			for j, t := range texts {
				text := t.Text
				if t.Type == "input_image" {
					text = decDataURL("image", t.ImageURL)
				}
				parts = append(parts, Part{ID: decIndex(id+".content", j), Channel: ch, Role: p.Role, Type: t.Type, Text: text})
			}
		}
		return parts, p.Role == "assistant", true
	case "reasoning":
		var texts []string
		for _, v := range []jsontext.Value{p.Summary, p.Content} {
			var ts []recCodexText
			if len(v) > 0 && unmarshal(v, &ts) == nil {
				for _, t := range ts {
					texts = append(texts, t.Text)
				}
			}
		}
		return []Part{{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "reasoning", Text: strings.Join(texts, "\n\n")}}, true, true
	case "function_call":
		c.names[p.CallID] = p.Name
		return []Part{{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "function_call", Name: p.Name, Text: string(p.Arguments)}}, true, true
	case "custom_tool_call":
		c.names[p.CallID] = p.Name
		return []Part{{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "function_call", Name: p.Name, Text: string(p.Input)}}, true, true
	case "local_shell_call", "web_search_call", "image_generation_call":
		name := strings.TrimSuffix(p.Type, "_call")
		c.names[p.CallID] = name
		return []Part{{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "function_call", Name: name, Text: decCompact(p.Action)}}, true, true
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		return []Part{{ID: id, Channel: ChannelMessages, Role: "tool", Type: "function_call_output",
			Name: c.names[p.CallID], Text: recCodexOutput(p.Output)}}, false, true
	}
	return nil, false, false
}

// recCodexOutput is a tool output: a string, {"content": ...}, or a list of
// content items.
func recCodexOutput(v jsontext.Value) string {
	if len(v) == 0 || v.Kind() == 'n' {
		return ""
	}
	switch v.Kind() {
	case '"':
		var s string
		_ = unmarshal(v, &s)
		return s
	case '{':
		var o struct {
			Content jsontext.Value `json:"content"`
		}
		if unmarshal(v, &o) == nil && len(o.Content) > 0 {
			return recCodexOutput(o.Content)
		}
	case '[':
		var ts []recCodexText
		if unmarshal(v, &ts) == nil {
			var texts []string
			for _, t := range ts {
				if t.Type == "input_image" {
					texts = append(texts, decDataURL("image", t.ImageURL))
				} else {
					texts = append(texts, t.Text)
				}
			}
			return strings.Join(texts, "\n")
		}
	}
	return decCompact(v)
}

// start emits the pending request and begins the one whose output starts on
// this line.
func (c *recCodex) start(d *decoder, line int, off, length int64) {
	c.flush(d)
	req := d.builder(FormatCodex, line, off, length).Req
	req.Model = c.model
	req.Segments = c.seq.snapshot()
	// The notes count what was read up to this request.
	req.Notes = append(req.Notes, recHeader(FormatCodex, c.version,
		c.unknown.note("unknown records"), c.skipped.note("response items not sent or not known")))
	if !c.sysSeen {
		req.Notes = append(req.Notes, "system prompt not recorded (session_meta has no base instructions)")
	}
	req.Notes = append(req.Notes, "tool schemas not recorded")
	if c.compact > 0 {
		req.Notes = append(req.Notes, "history compacted "+itoa(c.compact)+" times before this request: what the compaction kept is shown as recorded")
	}
	c.pending = req
}

// usage attaches a token_count to the request whose response it counts.
func (c *recCodex) usage(p *recCodexPayload) {
	if p.Info != nil && p.Info.TotalTokenUsage != nil {
		defer func(t recCodexTokens) { c.total = t }(*p.Info.TotalTokenUsage)
	}
	if c.pending == nil || c.pending.Usage != nil {
		return
	}
	switch {
	case p.Info != nil && p.Info.LastTokenUsage != nil:
		t := p.Info.LastTokenUsage
		c.pending.Usage = recUsage(t.InputTokens, t.CachedInputTokens, 0, t.OutputTokens)
	case p.Info != nil && p.Info.TotalTokenUsage != nil:
		// Only the running total: this response is what it grew by.
		t, prev := *p.Info.TotalTokenUsage, c.total
		c.pending.Usage = recUsage(t.InputTokens-prev.InputTokens, t.CachedInputTokens-prev.CachedInputTokens, 0, t.OutputTokens-prev.OutputTokens)
	case p.InputTokens != nil:
		c.pending.Usage = recUsage(*p.InputTokens, p.CachedInputTokens, 0, p.OutputTokens)
	}
}

// compacted replaces the history with what the compaction kept.
func (c *recCodex) compacted(d *decoder, p *recCodexPayload, line int, off, length int64) {
	c.compact++
	sys := append([]Segment(nil), c.seq.segs[:c.sysN]...)
	c.seq.reset()
	c.seq.addSegs(sys)
	c.items, c.lastOut = 0, false
	if len(p.ReplacementHistory) > 0 {
		for _, raw := range p.ReplacementHistory {
			var it recCodexPayload
			if unmarshal(raw, &it) != nil {
				c.skipped.add("unreadable replacement_history item")
				continue
			}
			parts, _, ok := c.parts(&it, decIndex("messages", c.items))
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
		_ = unmarshal(p.Message, &summary)
	}
	c.seq.add(Part{ID: decIndex("messages", c.items), Channel: ChannelMessages, Role: "user", Type: "text", Text: summary})
	c.items++
}

// flush emits the pending request with its notes.
func (c *recCodex) flush(d *decoder) {
	if c.pending == nil {
		return
	}
	req := c.pending
	c.pending = nil
	if req.Usage == nil {
		req.Notes = append(req.Notes, "usage not recorded for this request (no token_count after it)")
	}
	d.emit(*req)
}

func (c *recCodex) end(d *decoder) {
	c.flush(d)
	if !c.known {
		d.fail(0, "not a Codex rollout (no session_meta, response_item, event_msg or turn_context records)")
	}
}
