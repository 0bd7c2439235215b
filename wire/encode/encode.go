package encode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/scan"
)

// Draft is a request of text blocks before it is put on the wire: system
// blocks and messages. The assemble package builds one and turns it into a
// Request with Draft.Request, so that its parts get exactly the ids a decode.Decoder
// of the chosen format gives the encoded body.
type Draft struct {
	Model    string
	System   []DraftBlock
	Messages []DraftMessage
}

// DraftMessage is one message of text blocks.
type DraftMessage struct {
	Role   string // user or assistant
	Blocks []DraftBlock
}

// DraftBlock is one text block.
type DraftBlock struct {
	Text string
	// CacheBreakpoint asks for an explicit cache breakpoint after the block
	// (Anthropic cache_control; other formats have none).
	CacheBreakpoint bool
}

// Formats are the formats Encode writes.
var Formats = []wire.Format{wire.FormatAnthropic, wire.FormatOpenAIChat, wire.FormatOpenAIResponses, wire.FormatGemini}

// encoder writes one format.
type encoder struct {
	// normalise, when set, reshapes a draft to what the format can carry.
	normalise func(d Draft) Draft
	// ids names the parts of a draft as the format's decode.Decoder names them.
	ids func(d *Draft) (system []string, messages [][]string)
	// body is the JSON value of the request.
	body func(d *Draft) any
}

var encoders = map[wire.Format]encoder{}

// For returns d as the format api can carry it (Responses joins the system
// blocks into one instructions string; the others keep d as it is).
func (d Draft) For(api wire.Format) (Draft, error) {
	enc, ok := encoders[api]
	if !ok {
		return Draft{}, unknownAPI(api)
	}
	if enc.normalise != nil {
		d = enc.normalise(d)
	}
	return d, nil
}

// PartIDs returns the ids the parts of d.For(api) get on the wire of api:
// one per system block, and one per block of each message.
func (d Draft) PartIDs(api wire.Format) (system []string, messages [][]string, err error) {
	d, err = d.For(api)
	if err != nil {
		return nil, nil, err
	}
	system, messages = encoders[api].ids(&d)
	return system, messages, nil
}

// Request builds the Request of d.For(api) for api through a Builder, so
// that its segments are classified exactly like decoded ones.
func (d Draft) Request(api wire.Format, in *wire.Interner) (wire.Request, error) {
	d, err := d.For(api)
	if err != nil {
		return wire.Request{}, err
	}
	sys, msgs, _ := d.PartIDs(api)
	b := &classify.Builder{Req: &wire.Request{Format: api, Model: d.Model, Offset: -1}, In: in}
	for i, blk := range d.System {
		b.Add(wire.Part{ID: sys[i], Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: blk.Text,
			CacheBreakpoint: blk.CacheBreakpoint && api == wire.FormatAnthropic})
	}
	for i, m := range d.Messages {
		role := roleFor(api, m.Role)
		for j, blk := range m.Blocks {
			b.Add(wire.Part{ID: msgs[i][j], Channel: wire.ChannelMessages, Role: role, Type: "text", Text: blk.Text,
				CacheBreakpoint: blk.CacheBreakpoint && api == wire.FormatAnthropic})
		}
	}
	return *b.Req, nil
}

// roleFor is the wire name of a role in api.
func roleFor(api wire.Format, role string) string {
	if api == wire.FormatGemini && role == "assistant" {
		return "model"
	}
	if api != wire.FormatGemini && role == "model" {
		return "assistant"
	}
	return role
}

// Encode writes r as the JSON body of api: indented, deterministic (the same
// request gives the same bytes), and safe to print: every hazardous code
// point wire.scan.Hazards finds is written as a \u escape, never raw.
//
// It encodes text: system text and user and assistant messages. Tool
// definitions, tool calls and results, reasoning and media are not encoded
// (an error says so).
func Encode(r wire.Request, api wire.Format) ([]byte, error) {
	enc, ok := encoders[api]
	if !ok {
		return nil, unknownAPI(api)
	}
	d, err := DraftOf(r)
	if err != nil {
		return nil, err
	}
	if d, err = d.For(api); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetIndent("", "  ")
	e.SetEscapeHTML(false)
	if err := e.Encode(enc.body(&d)); err != nil {
		return nil, err
	}
	return scan.SafeJSON(buf.Bytes()), nil
}

func unknownAPI(api wire.Format) error {
	var names []string
	for _, f := range Formats {
		names = append(names, string(f))
	}
	return fmt.Errorf("cannot encode %q (known: %s)", api, strings.Join(names, ", "))
}

// DraftOf regroups a request's segments into a draft: the segments of one
// part are joined back into its text, system-channel parts become system
// blocks, and message parts are grouped into messages by the id they share
// before the first "." ("messages[3]" of "messages[3].content[1]").
func DraftOf(r wire.Request) (Draft, error) {
	d := Draft{Model: r.Model}
	lastMsg := ""
	for i := 0; i < len(r.Segments); {
		s := r.Segments[i]
		var text strings.Builder
		bp := false
		j := i
		for ; j < len(r.Segments) && r.Segments[j].Part == s.Part && r.Segments[j].Channel == s.Channel; j++ {
			text.WriteString(r.Segments[j].Text)
			bp = bp || r.Breakpoint(j)
		}
		i = j
		switch s.Kind {
		case wire.KindToolSchema, wire.KindToolCall, wire.KindToolResult:
			return Draft{}, fmt.Errorf("%s: cannot encode a %s segment (only text is encoded)", s.ID, s.Kind)
		}
		blk := DraftBlock{Text: text.String(), CacheBreakpoint: bp}
		if s.Channel == wire.ChannelTools {
			return Draft{}, fmt.Errorf("%s: cannot encode tool definitions (only text is encoded)", s.ID)
		}
		if s.Channel == wire.ChannelSystem {
			d.System = append(d.System, blk)
			lastMsg = ""
			continue
		}
		key, _, _ := strings.Cut(s.Part, ".")
		role := s.Role
		if role == "model" {
			role = "assistant"
		}
		if role != "user" && role != "assistant" {
			return Draft{}, fmt.Errorf("%s: cannot encode a message of role %q (only user and assistant text)", s.ID, s.Role)
		}
		if key != lastMsg || len(d.Messages) == 0 || d.Messages[len(d.Messages)-1].Role != role {
			d.Messages = append(d.Messages, DraftMessage{Role: role})
			lastMsg = key
		}
		m := &d.Messages[len(d.Messages)-1]
		m.Blocks = append(m.Blocks, blk)
	}
	return d, nil
}
