package body

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// Detection looks only at the top level of an object (and, when Anthropic
// and OpenAI Chat must be told apart, at the messages' roles and part
// types). It walks tokens over the bytes in place: no member value is copied.

// Shape is one pass over a body object: the top-level members a reader
// looks at (see memberName), each a slice of the body with its byte offset.
// Walking it validates the whole object; detection and the body decoders then
// work from it without validating the bytes again. Other members, and the
// elements of arrays, are not held: a line of ten million tiny members or
// elements holds no memory for each (elems reads an array's elements when
// they are needed).
type Shape struct {
	v       jsontext.Value
	members []member
	n       int  // top-level members, held or not
	dup     bool // a held member was repeated
}

// Value is the whole object walked.
func (s *Shape) Value() jsontext.Value { return s.v }

// Len is the number of its top-level members.
func (s *Shape) Len() int { return s.n }

type member struct {
	name string
	v    jsontext.Value
	off  int64
	// ord is the number of top-level members before this one.
	ord int
	// els are the member's elements when they are known without reading
	// it again: read once to the end by elems, or carried over from the
	// body before (see Walker.WalkAfter).
	els []shapeElem
	// ents are the element cache's entries of the elements decoded, by
	// index (see elements); same is how many leading elements are byte
	// for byte those of the same member of the body before, and prev that
	// body's entries for them.
	ents []*elementEntry
	same int
	prev []*elementEntry
}

type shapeElem struct {
	v   jsontext.Value
	off int64
}

// elems yields the elements of the member, when it is an array, with their
// byte offsets in the body. The walk validated them: they are read again in
// place, one at a time, and nothing is held.
func (m *member) elems() iter.Seq2[int, shapeElem] {
	return func(yield func(int, shapeElem) bool) {
		if m == nil || m.v.Kind() != '[' {
			return
		}
		if m.els != nil {
			for i, el := range m.els {
				if !yield(i, el) {
					return
				}
			}
			return
		}
		dec := jsontext.NewDecoder(bytes.NewBuffer(m.v), WalkOpts...)
		if _, err := dec.ReadToken(); err != nil {
			return
		}
		els, keep := []shapeElem{}, true
		for i := 0; dec.PeekKind() != ']'; i++ {
			el, err := dec.ReadValue()
			if err != nil {
				return
			}
			e := shapeElem{v: el, off: m.off + dec.InputOffset() - int64(len(el))}
			if keep = keep && keepElems(i+1, len(m.v)); keep {
				els = append(els, e)
			} else {
				els = nil
			}
			if !yield(i, e) {
				return
			}
		}
		if keep {
			m.els = els
		}
	}
}

// memberName is the name of a member the readers look at, as a constant
// string, or "" for one they pass over. raw is the name as written, quoted.
func memberName(raw jsontext.Value) string {
	name := []byte(raw[1 : len(raw)-1])
	if bytes.IndexByte(name, '\\') >= 0 {
		// Escaped (rare): the name is what it spells.
		u, err := jsontext.AppendUnquote(nil, raw)
		if err != nil {
			return ""
		}
		name = u
	}
	switch string(name) {
	case "prompt_cache_key":
		return "prompt_cache_key"
	case "model":
		return "model"
	case "tools":
		return "tools"
	case "functions":
		return "functions"
	case "system":
		return "system"
	case "messages":
		return "messages"
	case "instructions":
		return "instructions"
	case "input":
		return "input"
	case "contents":
		return "contents"
	case "systemInstruction":
		return "systemInstruction"
	case "system_instruction":
		return "system_instruction"
	case "log":
		return "log"
	case "request":
		return "request"
	case "resourceSpans":
		return "resourceSpans"
	case "custom_id":
		return "custom_id"
	case "body":
		return "body"
	case "response":
		return "response"
	case "error":
		return "error"
	}
	return ""
}

// WalkShape walks the object v. Errors are syntax errors with offsets in v.
func WalkShape(v jsontext.Value) (*Shape, error) {
	var w Walker
	return w.Walk(v)
}

// Walker walks objects as WalkShape does, with one decoder for all of them:
// a JSONL of many short lines, broken ones among them, allocates no decoder
// a line.
type Walker struct {
	dec jsontext.Decoder
	buf bytes.Buffer
	ms  []member
	// synth is WalkAfter's tail behind a stand-in for the prefix.
	synth []byte
}

// Walk walks the object v as WalkShape does. The Walker keeps nothing of v.
func (w *Walker) Walk(v jsontext.Value) (*Shape, error) {
	w.start(v)
	defer w.end()
	return w.walk(v)
}

// Check checks that v is one JSON value (with white space around it), in
// one pass, as Walk checks an object.
func (w *Walker) Check(v jsontext.Value) error {
	w.start(v)
	defer w.end()
	if _, err := w.dec.ReadValue(); err != nil {
		return err
	}
	if _, err := w.dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("unexpected data after the top-level value at byte %d", w.dec.InputOffset())
	}
	return nil
}

// start sets the decoder to read v in place.
func (w *Walker) start(v jsontext.Value) {
	w.buf = *bytes.NewBuffer(v)
	w.dec.Reset(&w.buf, WalkOpts...)
}

// end drops the references to what was read: a huge line is not held past
// its walk.
func (w *Walker) end() {
	w.buf = bytes.Buffer{}
	w.dec.Reset(&w.buf)
	clear(w.ms)
	w.ms = w.ms[:0]
}

func (w *Walker) walk(v jsontext.Value) (*Shape, error) {
	dec := &w.dec
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("a JSON %s, not an object", KindName(tok.Kind()))
	}
	n := 0
	dup := false
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		name := memberName(raw)
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		n++
		if name == "" {
			continue
		}
		m := member{name: name, v: val, off: dec.InputOffset() - int64(len(val)), ord: n - 1}
		// A repeated member: the last one counts (see get), and one is held.
		if i := slices.IndexFunc(w.ms, func(o member) bool { return o.name == name }); i >= 0 {
			w.ms[i] = m
			dup = true
			continue
		}
		w.ms = append(w.ms, m)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the top-level value at byte %d", dec.InputOffset())
	}
	return &Shape{v: v, members: slices.Clone(w.ms), n: n, dup: dup}, nil
}

// get is the member called name (the last, if repeated), or nil.
func (s *Shape) get(name string) *member {
	for i := range s.members {
		if s.members[i].name == name {
			return &s.members[i]
		}
	}
	return nil
}

// has reports whether the member is present and not null.
func (s *Shape) has(name string) bool {
	m := s.get(name)
	return m != nil && m.v.Kind() != 'n'
}

// NotRecognised is the error for an object of no known shape.
const NotRecognised = "not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"

var errNotRecognised = errors.New(NotRecognised)

// DetectShape names the format of a walked object; memo, when not nil,
// holds the messages earlier objects of the same input showed to tell nothing.
func DetectShape(s *Shape, memo DetectMemo) (wire.Format, error) {
	if f := s.Container(); f != wire.FormatAuto {
		return f, nil
	}
	switch {
	case s.has("contents") || s.has("systemInstruction") || s.has("system_instruction"):
		return wire.FormatGemini, nil
	case s.has("messages"):
		return detectMessages(s, memo), nil
	case s.has("input") || s.has("instructions"):
		return wire.FormatOpenAIResponses, nil
	}
	return "", errNotRecognised
}

// Container names the format of an object that holds bodies (a HAR, a
// claude-trace line, an OpenAI Batch line), or is FormatAuto.
func (s *Shape) Container() wire.Format {
	switch {
	case s.has("custom_id") && (s.has("body") || s.has("response") || s.has("error")) &&
		!s.has("messages") && !s.has("input") && !s.has("contents"):
		// An OpenAI Batch input line (custom_id, method, url, body) or
		// output line (id, custom_id, response, error).
		return wire.FormatOpenAIBatch
	case s.has("log"):
		return wire.FormatHAR
	case s.has("resourceSpans"):
		// An OTLP JSON trace export (OpenTelemetry GenAI spans).
		return wire.FormatOTel
	case s.has("request") && !s.has("messages") && !s.has("contents"):
		return wire.FormatClaudeTrace
	}
	return wire.FormatAuto
}

// BodyMembers are the members a body of each format is recognised by.
var BodyMembers = map[wire.Format]string{
	wire.FormatOpenAIChat:      "messages",
	wire.FormatAnthropic:       "messages, system",
	wire.FormatOpenAIResponses: "input, instructions",
	wire.FormatGemini:          "contents, systemInstruction",
}

// HasBodyMembers reports whether s has a member a body of format is
// recognised by.
func (s *Shape) HasBodyMembers(format wire.Format) bool {
	switch format {
	case wire.FormatOpenAIChat:
		return s.has("messages")
	case wire.FormatAnthropic:
		return s.has("messages") || s.has("system")
	case wire.FormatOpenAIResponses:
		return s.has("input") || s.has("instructions")
	case wire.FormatGemini:
		return s.has("contents") || s.has("systemInstruction") || s.has("system_instruction")
	}
	return true
}

// DetectMemo holds the messages that told Anthropic from OpenAI Chat
// nothing, by length and content hash: a session of N growing requests
// without a system member looks at each message once, not once a request.
type DetectMemo map[detectKey]struct{}

type detectKey struct {
	n      int
	h1, h2 uint64
}

// detectMessages tells Anthropic Messages from OpenAI Chat Completions.
func detectMessages(s *Shape, memo DetectMemo) wire.Format {
	if s.has("system") {
		return wire.FormatAnthropic
	}
	for _, el := range s.get("messages").elems() {
		var k detectKey
		if memo != nil {
			k = detectKey{n: len(el.v), h1: maphash.Bytes(elementSeed1, el.v), h2: maphash.Bytes(elementSeed2, el.v)}
			if _, ok := memo[k]; ok {
				continue
			}
		}
		if f, ok := detectMessage(el.v); ok {
			return f
		}
		if memo != nil {
			if len(memo) >= elementCacheMax {
				clear(memo)
			}
			memo[k] = struct{}{}
		}
	}
	if t := s.get("tools"); t != nil {
		for _, el := range t.elems() {
			var tool struct {
				InputSchema jsontext.Value `json:"input_schema"`
				Function    jsontext.Value `json:"function"`
			}
			if Unmarshal(el.v, &tool) != nil {
				continue
			}
			if len(tool.InputSchema) > 0 {
				return wire.FormatAnthropic
			}
			if len(tool.Function) > 0 {
				return wire.FormatOpenAIChat
			}
		}
	}
	var model string
	if m := s.get("model"); m != nil && m.v.Kind() == '"' {
		Unmarshal(m.v, &model)
	}
	if strings.HasPrefix(model, "claude") {
		return wire.FormatAnthropic
	}
	return wire.FormatOpenAIChat
}

// detectMessage tells the format by one message, if it can.
func detectMessage(v jsontext.Value) (wire.Format, bool) {
	var m struct {
		Role      string         `json:"role"`
		Content   jsontext.Value `json:"content"`
		ToolCalls jsontext.Value `json:"tool_calls"`
	}
	if Unmarshal(v, &m) != nil {
		return "", false
	}
	switch m.Role {
	case "system", "developer", "tool", "function":
		return wire.FormatOpenAIChat, true
	}
	if len(m.ToolCalls) > 0 {
		return wire.FormatOpenAIChat, true
	}
	if len(m.Content) > 0 && m.Content.Kind() == '[' {
		var parts []struct {
			Type string `json:"type"`
		}
		if Unmarshal(m.Content, &parts) == nil {
			for _, p := range parts {
				switch p.Type {
				case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document":
					return wire.FormatAnthropic, true
				case "image_url", "input_audio", "file", "refusal":
					return wire.FormatOpenAIChat, true
				}
			}
		}
	}
	return "", false
}
