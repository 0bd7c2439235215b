package recording

import (
	"bytes"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// Gemini CLI, ~/.gemini/tmp/<project hash>/chats/session-*.json[l]
// (packages/core/src/services/chatRecordingService.ts, chatRecordingTypes.ts):
// one ConversationRecord, {sessionId, projectHash, startTime, lastUpdated,
// messages}, written whole as one pretty-printed JSON document (.json, the
// older form) or as JSONL (.jsonl, the newer): a metadata line, then one line
// for each message record (a message written again under its id replaces
// it), {"$set": {...}} updates (a $set of messages replaces them all) and
// {"$rewindTo": id} lines that drop a message and everything after it.
// A "gemini" message is the answer to one request: its contents are the
// user and model turns before it, with each model turn's tool calls and
// their recorded results. "info", "error" and "warning" messages are the
// CLI's own and are not sent.

type geminiCLI struct {
	lines []geminiLine
}

type geminiLine struct {
	raw  []byte
	line int
	off  int64
}

func newGeminiCLI() *geminiCLI { return &geminiCLI{} }

// WholeDocument marks the reader as one that also reads a JSON document
// spread over lines (DocumentReader).
func (*geminiCLI) WholeDocument() {}

// DocumentReader is a Reader that is given every line of one JSON document
// spread over lines as well as a file of one record a line, and tells them
// apart at End.
type DocumentReader interface {
	Reader
	WholeDocument()
}

type geminiRecord struct {
	// The metadata (the whole record in the older form).
	SessionID   string           `json:"sessionId"`
	ProjectHash string           `json:"projectHash"`
	Messages    *[]geminiMessage `json:"messages"`
	// Updates of the newer form.
	RewindTo *string `json:"$rewindTo"`
	Set      *struct {
		Messages *[]geminiMessage `json:"messages"`
	} `json:"$set"`
	geminiMessage
}

// geminiMessage is a MessageRecord.
type geminiMessage struct {
	ID        *string          `json:"id"`
	Type      string           `json:"type"`
	Content   jsontext.Value   `json:"content"`
	ToolCalls []geminiToolCall `json:"toolCalls"`
	Thoughts  []jsontext.Value `json:"thoughts"`
	Tokens    *geminiTokens    `json:"tokens"`
	Model     string           `json:"model"`
	Timestamp string           `json:"timestamp"`

	at geminiLine // where it was last written
}

// geminiToolCall is a ToolCallRecord.
type geminiToolCall struct {
	ID     string         `json:"id"`
	Name   string         `json:"name"`
	Args   jsontext.Value `json:"args"`
	Result jsontext.Value `json:"result"`
	// Timestamp is when the call ended (its result came).
	Timestamp string `json:"timestamp"`
}

// geminiTokens is a TokensSummary: the usageMetadata of the response, where
// input is promptTokenCount (cached content included), output is
// candidatesTokenCount (thoughts not included) and cached is
// cachedContentTokenCount.
type geminiTokens struct {
	Input    int `json:"input"`
	Output   int `json:"output"`
	Cached   int `json:"cached"`
	Thoughts int `json:"thoughts"`
	Tool     int `json:"tool"`
	Total    int `json:"total"`
}

func (g *geminiCLI) Line(d Sink, raw []byte, line int, off int64) {
	g.lines = append(g.lines, geminiLine{raw: raw, line: line, off: off})
}

func (g *geminiCLI) End(d Sink) {
	if len(g.lines) == 0 {
		d.Fail(0, "empty Gemini CLI session")
		return
	}
	var msgs []geminiMessage
	index := map[string]int{}
	put := func(m geminiMessage) {
		if m.ID == nil {
			return
		}
		if i, ok := index[*m.ID]; ok {
			msgs[i] = m
			return
		}
		index[*m.ID] = len(msgs)
		msgs = append(msgs, m)
	}
	replace := func(list []geminiMessage, at geminiLine) {
		msgs, index = nil, map[string]int{}
		for _, m := range list {
			m.at = at
			put(m)
		}
	}
	first := bytes.TrimPrefix(g.lines[0].raw, []byte("\xef\xbb\xbf"))
	if len(g.lines) > 1 && !jsontext.Value(first).IsValid() {
		// The older form: one document spread over lines. Its lines are
		// trimmed, which JSON allows between tokens and strings cannot hold.
		var doc []byte
		for i, l := range g.lines {
			if i > 0 {
				doc = append(doc, '\n')
			}
			doc = append(doc, l.raw...)
		}
		end := g.lines[len(g.lines)-1]
		at := geminiLine{line: 1}
		length := end.off + int64(len(end.raw))
		var r geminiRecord
		if !unmarshalLine(d, doc, 1, &r) {
			return
		}
		if r.SessionID == "" || r.Messages == nil {
			d.Fail(0, "not a Gemini CLI session (no sessionId or no messages)")
			return
		}
		replace(*r.Messages, at)
		g.emit(d, msgs, length)
		return
	}
	for _, l := range g.lines {
		var r geminiRecord
		if !unmarshalLine(d, l.raw, l.line, &r) {
			continue
		}
		switch {
		case r.RewindTo != nil:
			i, ok := index[*r.RewindTo]
			if !ok {
				i = 0
			}
			for _, m := range msgs[i:] {
				delete(index, *m.ID)
			}
			msgs = msgs[:i]
		case r.ID != nil:
			m := r.geminiMessage
			m.at = l
			put(m)
		case r.Set != nil:
			if r.Set.Messages != nil {
				replace(*r.Set.Messages, l)
			}
		case r.SessionID != "":
			if r.Messages != nil {
				for _, m := range *r.Messages {
					m.at = l
					put(m)
				}
			}
		}
	}
	g.emit(d, msgs, -1)
}

// emit hands over one request for each gemini message. length is the length
// of the whole document in the older form, or -1 when each message has a
// line of its own.
func (g *geminiCLI) emit(d Sink, msgs []geminiMessage, length int64) {
	var seq transcript
	seq.init(d.Interner())
	turn, thoughts, noResult := 0, 0, 0
	// last is the latest time recorded before the message read: a request
	// is sent after the message before it (and its tools' results).
	var last int64
	for _, m := range msgs {
		if d.Stopped() {
			return
		}
		sent, at := last, unixNano(m.Timestamp)
		last = max(last, at)
		for i := range m.ToolCalls {
			last = max(last, unixNano(m.ToolCalls[i].Timestamp))
		}
		switch m.Type {
		case "user":
			seq.add(geminiParts(m.Content, "contents["+strconv.Itoa(turn)+"]", "user", "text")...)
			turn++
		case "gemini":
			n := length
			if n < 0 {
				n = int64(len(m.at.raw))
			}
			req := d.Builder(wire.FormatGeminiCLI, m.at.line, m.at.off, n).Req
			seq.snapshot(req)
			req.Model = m.Model
			if sent == 0 {
				sent = at
			}
			if sent != 0 {
				req.At = time.Unix(0, sent).UTC()
			}
			req.Notes = append(req.Notes, headerNote(wire.FormatGeminiCLI, ""),
				"system instruction not recorded", "tool declarations not recorded")
			if m.Model == "" {
				req.Notes = append(req.Notes, "model not recorded")
			}
			if thoughts > 0 {
				req.Notes = append(req.Notes, "thoughts of earlier turns not resent (the CLI keeps them out of the history)")
			}
			if noResult > 0 {
				req.Notes = append(req.Notes, strconv.Itoa(noResult)+" tool calls without a recorded result")
			}
			if t := m.Tokens; t != nil {
				req.Usage = usageOf(t.Input, t.Cached, 0, t.Output)
				if t.Thoughts > 0 {
					req.Notes = append(req.Notes, strconv.Itoa(t.Thoughts)+" thought tokens, not counted in the output tokens")
				}
			} else {
				req.Notes = append(req.Notes, "usage not recorded")
			}
			d.Emit(*req)
			// The answer joins the history: its text, then its tool calls,
			// then their results in a user turn.
			id := "contents[" + strconv.Itoa(turn) + "]"
			parts := geminiParts(m.Content, id, "model", "text")
			for _, tc := range m.ToolCalls {
				parts = append(parts, wire.Part{ID: body.IndexPath(id+".parts", len(parts)), Channel: wire.ChannelMessages,
					Role: "model", Type: "functionCall", Name: tc.Name, Text: body.Compact(tc.Args)})
			}
			if len(m.Thoughts) > 0 {
				thoughts++
			}
			if len(parts) == 0 {
				continue
			}
			seq.add(parts...)
			turn++
			if len(m.ToolCalls) == 0 {
				continue
			}
			id = "contents[" + strconv.Itoa(turn) + "]"
			var results []wire.Part
			for _, tc := range m.ToolCalls {
				if k := tc.Result.Kind(); k == 0 || k == 'n' {
					noResult++
					continue
				}
				for _, p := range geminiParts(tc.Result, id, "user", "functionResponse") {
					p.ID = body.IndexPath(id+".parts", len(results))
					if p.Name == "" {
						p.Name = tc.Name
					}
					results = append(results, p)
				}
			}
			if len(results) > 0 {
				seq.add(results...)
				turn++
			}
		}
	}
}

// geminiParts are the parts of a PartListUnion (a string, a part, or a list
// of both) as parts of the content id. A bare string is of type text.
func geminiParts(v jsontext.Value, id, role, text string) []wire.Part {
	var list []jsontext.Value
	switch v.Kind() {
	case '[':
		if body.Unmarshal(v, &list) != nil {
			return nil
		}
	case '"', '{':
		list = []jsontext.Value{v}
	default:
		return nil
	}
	var out []wire.Part
	for _, el := range list {
		p := wire.Part{ID: body.IndexPath(id+".parts", len(out)), Channel: wire.ChannelMessages, Role: role, Type: "text"}
		if el.Kind() == '"' {
			var s string
			if body.Unmarshal(el, &s) != nil || s == "" {
				continue // an answer of tool calls only records ""
			}
			p.Type, p.Text = text, s
			if text == "functionResponse" {
				p.Type = "text"
			}
			out = append(out, p)
			continue
		}
		var gp body.GeminiPart
		if body.Unmarshal(el, &gp) != nil {
			continue
		}
		if gp.Thought {
			continue // a thought is not sent back
		}
		p = body.GeminiPartOf(p.ID, p.Channel, role, &gp)
		if p.Type == "text" && p.Text == "" && !bytes.Contains(el, []byte(`"text"`)) {
			p.Text = body.Compact(el) // a part of a shape the API does not name
		}
		out = append(out, p)
	}
	return out
}
