package recording

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/scan"
)

// kimi-cli, ~/.kimi/sessions/<hash>/<session>/context.jsonl: the rendered
// system prompt ({"role":"_system_prompt"}), then the messages of the
// conversation in OpenAI Chat shape, with bookkeeping lines (_usage,
// _checkpoint). Each assistant message is the answer to one request made of
// the system prompt and every message before it. The wire.jsonl beside it,
// when present, records the usage of each step; for a step it gives none,
// the _usage lines around the answer give its input and output tokens.

type kimiCLI struct {
	seq      transcript
	sysN     int  // segments of the system prompt at the start of seq
	sysSeen  bool // a _system_prompt line was read
	msgs     int  // messages so far
	names    map[string]string
	unknown  kindCounts
	bookkeep int // _usage and _checkpoint lines

	wireLoaded bool
	usages     []*wire.Usage
	stepAt     []int64 // when each step of wire.jsonl began (Unix nanoseconds)
	wireNote   string  // why usage is missing
	wireBad    string  // unreadable lines of wire.jsonl
	wireStop   string  // why wire.jsonl was not read to its end
	compacted  bool    // wire.jsonl records a compaction
	version    string
	steps      int

	// The _usage lines of context.jsonl, for the steps wire.jsonl gives no
	// usage for: kimi-cli writes the step's input tokens just before its
	// assistant message and the step's total (input and output) just after.
	ctxInput *int          // a _usage since the last message
	pending  *wire.Request // the last request, held for the _usage after its answer
	outputOf *wire.Usage   // the pending request's usage from _usage, awaiting its total
}

func newKimiCLI() *kimiCLI { return &kimiCLI{names: map[string]string{}} }

type kimiCLIRecord struct {
	Role       string           `json:"role"`
	Content    jsontext.Value   `json:"content"`
	ToolCalls  []kimiCLIToolUse `json:"tool_calls"`
	ToolCallID string           `json:"tool_call_id"`
	Name       string           `json:"name"`
	TokenCount *int             `json:"token_count"` // _usage
}

type kimiCLIToolUse struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments body.ChatString `json:"arguments"`
	} `json:"function"`
}

// kimiPart is one content part of kosong (kimi-cli and kimi-code), in
// both the snake_case of Python and the camelCase of TypeScript.
type kimiPart struct {
	Type      string         `json:"type"`
	Text      string         `json:"text"`
	Think     string         `json:"think"`
	Encrypted string         `json:"encrypted"`
	ImageURL  *kimiMedia     `json:"image_url"`
	ImageURL2 *kimiMedia     `json:"imageUrl"`
	AudioURL  *kimiMedia     `json:"audio_url"`
	AudioURL2 *kimiMedia     `json:"audioUrl"`
	VideoURL  *kimiMedia     `json:"video_url"`
	VideoURL2 *kimiMedia     `json:"videoUrl"`
	Raw       jsontext.Value `json:"-"`
}

type kimiMedia struct {
	URL string `json:"url"`
	ID  string `json:"id"`
}

// kimiContent reads a content value (a string, or a list of parts) into
// parts with ids id or id.content[j]. It reports false for another JSON kind.
func kimiContent(v jsontext.Value, id string, ch wire.Channel, role, name string) ([]wire.Part, bool) {
	if len(v) == 0 || v.Kind() == 'n' {
		return nil, true
	}
	switch v.Kind() {
	case '"':
		var s string
		if body.Unmarshal(v, &s) != nil {
			return nil, false
		}
		return []wire.Part{{ID: id, Channel: ch, Role: role, Type: "text", Name: name, Text: s}}, true
	case '[':
		var raws []jsontext.Value
		if body.Unmarshal(v, &raws) != nil {
			return nil, false
		}
		parts := make([]wire.Part, 0, len(raws))
		for j, raw := range raws {
			p := wire.Part{ID: body.IndexPath(id+".content", j), Channel: ch, Role: role, Name: name}
			var kp kimiPart
			if raw.Kind() != '{' || body.Unmarshal(raw, &kp) != nil {
				p.Type, p.Text = "unknown", body.Compact(raw)
				parts = append(parts, p)
				continue
			}
			p.Type = kp.Type
			switch kp.Type {
			case "text":
				p.Text = kp.Text
			case "think":
				p.Type, p.Text = "thinking", kp.Think
				if p.Text == "" && kp.Encrypted != "" {
					p.Text = "[encrypted thinking: " + strconv.Itoa(len(kp.Encrypted)) + " bytes]"
				}
			case "image_url":
				p.Text = body.DataURLText("image", firstMedia(kp.ImageURL, kp.ImageURL2))
			case "audio_url":
				p.Text = body.DataURLText("audio", firstMedia(kp.AudioURL, kp.AudioURL2))
			case "video_url":
				p.Text = body.DataURLText("video", firstMedia(kp.VideoURL, kp.VideoURL2))
			default:
				p.Text = body.Compact(raw)
			}
			parts = append(parts, p)
		}
		return parts, true
	}
	return nil, false
}

func firstMedia(a, b *kimiMedia) string {
	if a != nil {
		return a.URL
	}
	if b != nil {
		return b.URL
	}
	return ""
}

func (k *kimiCLI) Line(d Sink, raw []byte, line int, off int64) {
	if !k.seq.ready() {
		k.seq.init(d.Interner())
	}
	var r kimiCLIRecord
	if !unmarshalLine(d, raw, line, &r) {
		return
	}
	if r.Role != "_usage" && r.Role != "_checkpoint" {
		k.flush(d)
	}
	switch r.Role {
	case "_system_prompt":
		parts, ok := kimiContent(r.Content, "system[0]", wire.ChannelSystem, "system", "")
		if !ok {
			d.Fail(line, "kimi-cli _system_prompt: content is a JSON %s, want a string", body.KindName(r.Content.Kind()))
			return
		}
		for i := range parts {
			parts[i].ID = "system[0]"
			if len(parts) > 1 {
				parts[i].ID = body.IndexPath("system[0].content", i)
			}
		}
		sys := k.seq.build(parts...)
		rest := k.seq.segs[k.sysN:]
		k.seq.reset()
		k.seq.addSegs(sys)
		k.seq.addSegs(rest)
		k.sysN, k.sysSeen = len(sys), true
	case "_usage":
		k.bookkeep++
		if r.TokenCount == nil {
			break
		}
		if u := k.outputOf; u != nil {
			// The step's total, just after its answer.
			if *r.TokenCount >= u.InputTokens {
				u.OutputTokens = *r.TokenCount - u.InputTokens
			}
			k.outputOf = nil
			break
		}
		n := *r.TokenCount
		k.ctxInput = &n
	case "_checkpoint":
		k.bookkeep++
	case "user", "assistant", "tool", "system":
		if r.Role == "assistant" {
			k.request(d, line, off, int64(len(raw)))
		}
		k.ctxInput = nil
		k.message(d, line, &r)
	default:
		k.unknown.add(r.Role)
	}
}

// message adds one message of the conversation.
func (k *kimiCLI) message(d Sink, line int, r *kimiCLIRecord) {
	id := body.IndexPath("messages", k.msgs)
	k.msgs++
	ch := wire.ChannelMessages
	if r.Role == "system" {
		ch = wire.ChannelSystem
	}
	name := ""
	if r.Role == "tool" {
		name = k.names[r.ToolCallID]
	}
	parts, ok := kimiContent(r.Content, id, ch, r.Role, name)
	if !ok {
		d.Fail(line, "kimi-cli %s message: content is a JSON %s, want a string or a list of parts", r.Role, body.KindName(r.Content.Kind()))
	}
	if r.Role == "tool" && r.Content.Kind() == '[' {
		markHostNote(parts)
	}
	for j, tc := range r.ToolCalls {
		k.names[tc.ID] = tc.Function.Name
		parts = append(parts, wire.Part{ID: body.IndexPath(id+".tool_calls", j), Channel: ch, Role: r.Role,
			Type: "tool_call", Name: tc.Function.Name, Text: string(tc.Function.Arguments)})
	}
	k.seq.add(parts...)
}

// markHostNote marks the first part of a tool message's parts as the host's
// note when it is one. kimi-cli (soul/message.py, tool_result_to_message)
// puts the tool's message before its output as a text part of its own,
// "<system>" + message + "</system>": "Command executed successfully.",
// "ERROR: Command failed with exit code: 1.", "Tool output is empty.",
// "Tool returned non-text content.". Only the first part can be one, and
// only when it is exactly one such note: no other reserved tag, no hazard
// inside it (a note that quotes a hostile path stays untrusted, for the
// audit to see). A tool that returns no message and whose own output's
// first part is such a note (an MCP server's) looks the same: kimi-cli
// sends both alike, so the model cannot tell them apart either.
func markHostNote(parts []wire.Part) {
	if len(parts) > 0 && parts[0].Type == "text" && isHostNote(parts[0].Text) {
		parts[0].Type = wire.PartHostNote
	}
}

// isHostNote reports whether text is exactly "<system>NOTE</system>", as
// kimi-cli writes its notes, with nothing reserved or hazardous in NOTE.
func isHostNote(text string) bool {
	const open, close = "<system>", "</system>"
	if len(text) < len(open)+len(close) || !strings.HasPrefix(text, open) || !strings.HasSuffix(text, close) {
		return false
	}
	note := text[len(open) : len(text)-len(close)]
	if strings.TrimSpace(note) == "" || !utf8.ValidString(note) || scan.HasHazards(text) {
		return false
	}
	tags := scan.FindReservedTags(text)
	return len(tags) == 2 && tags[0].Offset == 0 && tags[1].Offset == len(text)-len(close) &&
		!tags[0].Confusable && !tags[1].Confusable && !tags[0].Obfuscated && !tags[1].Obfuscated
}

// request emits the request that the assistant message on this line answers.
func (k *kimiCLI) request(d Sink, line int, off, length int64) {
	if !k.wireLoaded {
		k.loadWire(d.Source())
	}
	req := d.Builder(wire.FormatKimiCLI, line, off, length).Req
	k.seq.snapshot(req)
	req.Notes = append(req.Notes, headerNote(wire.FormatKimiCLI, k.version, k.unknown.note("unknown records")))
	if !k.sysSeen {
		req.Notes = append(req.Notes, "system prompt not recorded")
	}
	req.Notes = append(req.Notes, "tool schemas not recorded", "model not recorded")
	if k.steps < len(k.stepAt) && k.stepAt[k.steps] != 0 {
		req.At = time.Unix(0, k.stepAt[k.steps]).UTC()
	}
	switch {
	case k.steps < len(k.usages):
		req.Usage = k.usages[k.steps]
	case k.ctxInput != nil:
		// The input tokens kimi-cli wrote for this step; its total, on the
		// _usage line after the answer, gives the output.
		req.Usage = &wire.Usage{InputTokens: *k.ctxInput, CachedUnknown: true}
		k.outputOf = req.Usage
		if k.wireNote != "" {
			req.Notes = append(req.Notes, k.wireNote)
		}
		req.Notes = append(req.Notes, "usage from context.jsonl's _usage lines (none from wire.jsonl for this step): input and output tokens, cached tokens not recorded")
	case k.wireNote != "":
		req.Notes = append(req.Notes, k.wireNote)
	default:
		req.Notes = append(req.Notes, "usage not recorded for this step in wire.jsonl")
	}
	if k.wireBad != "" {
		req.Notes = append(req.Notes, k.wireBad)
	}
	if k.wireStop != "" {
		req.Notes = append(req.Notes, k.wireStop)
	}
	if k.compacted && req.Usage != nil {
		req.Notes = append(req.Notes, "usage matched in order to the steps wire.jsonl records after its last compaction")
	}
	k.steps++
	k.pending = req
}

// flush emits the request held for the _usage after its answer.
func (k *kimiCLI) flush(d Sink) {
	if k.pending == nil {
		return
	}
	req := k.pending
	k.pending, k.outputOf = nil, nil
	d.Emit(*req)
}

func (k *kimiCLI) End(d Sink) {
	k.flush(d)
	if k.msgs == 0 && !k.sysSeen && k.bookkeep == 0 {
		d.Fail(0, "not a kimi-cli context.jsonl (no _system_prompt line and no messages)")
	}
}

// kimiCLIWireRecord is a line of kimi-cli's wire.jsonl.
type kimiCLIWireRecord struct {
	Timestamp       float64 `json:"timestamp"`
	Type            string  `json:"type"`
	ProtocolVersion string  `json:"protocol_version"`
	Message         struct {
		Type    string `json:"type"`
		Payload struct {
			TokenUsage *struct {
				InputOther         int `json:"input_other"`
				Output             int `json:"output"`
				InputCacheRead     int `json:"input_cache_read"`
				InputCacheCreation int `json:"input_cache_creation"`
			} `json:"token_usage"`
		} `json:"payload"`
	} `json:"message"`
}

// loadWire reads the usage of each step from the wire.jsonl beside the
// context file. Steps before the last compaction belong to a context that was
// rewritten, so only the usage after it is matched to the messages.
func (k *kimiCLI) loadWire(source string) {
	k.wireLoaded = true
	if source == "" || source == "-" {
		k.wireNote = "usage not recorded (read from standard input: no wire.jsonl beside it)"
		return
	}
	if filepath.Base(source) != "context.jsonl" {
		// kimi-cli keeps the context it rotated away (context_1.jsonl, ...)
		// beside the live one; wire.jsonl's steps follow the live one.
		k.wireNote = "usage not matched (only context.jsonl's steps are matched to wire.jsonl)"
		return
	}
	path := filepath.Join(filepath.Dir(source), "wire.jsonl")
	f, err := wire.OpenInput(path, wire.MaxInputBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		k.wireNote = "usage not recorded (no wire.jsonl beside context.jsonl)"
		return
	case errors.As(err, new(*wire.NotRegularError)):
		// A pipe or a device in its place is refused, not read: it would
		// hang the read or never end.
		k.wireNote = "usage not recorded (the wire.jsonl beside context.jsonl " + osReason(err) + ": not read)"
		return
	case err != nil:
		k.wireNote = "usage not recorded (the wire.jsonl beside context.jsonl could not be read: " + osReason(err) + ")"
		return
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	bad, line := 0, 0
	for {
		b, err := body.ReadLine(br)
		line++
		if err != nil && err != io.EOF {
			k.wireStop = "wire.jsonl: read stopped at line " + strconv.Itoa(line) + ": " + err.Error()
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			var r kimiCLIWireRecord
			if body.Unmarshal(t, &r) != nil {
				bad++
			} else {
				switch {
				case r.Type == "metadata":
					k.version = "wire protocol " + r.ProtocolVersion
				case r.Message.Type == "CompactionEnd":
					k.usages = k.usages[:0]
					k.stepAt = k.stepAt[:0]
					k.compacted = true
				case r.Message.Type == "StepBegin":
					var at int64
					if r.Timestamp > 0 && r.Timestamp < 1e11 {
						at = int64(r.Timestamp * 1e9)
					}
					k.stepAt = append(k.stepAt, at)
				case r.Message.Type == "StatusUpdate" && r.Message.Payload.TokenUsage != nil:
					u := r.Message.Payload.TokenUsage
					k.usages = append(k.usages, usageOf(u.InputOther+u.InputCacheRead+u.InputCacheCreation,
						u.InputCacheRead, u.InputCacheCreation, u.Output))
				}
			}
		}
		if err != nil {
			break
		}
	}
	if bad > 0 {
		k.wireBad = "wire.jsonl: " + strconv.Itoa(bad) + " unreadable lines skipped"
	}
}
