package body

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// Detection looks only at the top level of an object (and, when Anthropic
// and OpenAI Chat must be told apart, at the messages' roles and part
// types). It walks tokens over the bytes in place: no member value is copied.

// Shape is one pass over a body object: its top-level members, each a
// slice of the body with its byte offset, and for a member that is an array
// its elements likewise. Walking it validates the whole object; detection and
// the body decoders then work from it without scanning the bytes again.
type Shape struct {
	v       jsontext.Value
	members []member
}

// Value is the whole object walked.
func (s *Shape) Value() jsontext.Value { return s.v }

// Len is the number of its top-level members.
func (s *Shape) Len() int { return len(s.members) }

type member struct {
	name  string
	v     jsontext.Value
	off   int64
	elems []shapeElem // the elements, when v is an array
}

type shapeElem struct {
	v   jsontext.Value
	off int64
}

// WalkShape walks the object v. Errors are syntax errors with offsets in v.
func WalkShape(v jsontext.Value) (*Shape, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), WalkOpts...)
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("a JSON %s, not an object", KindName(tok.Kind()))
	}
	s := &Shape{v: v}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		m := member{name: tok.String()}
		if dec.PeekKind() == '[' {
			start := dec.InputOffset()
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			m.elems = []shapeElem{}
			for dec.PeekKind() != ']' {
				el, err := dec.ReadValue()
				if err != nil {
					return nil, err
				}
				m.elems = append(m.elems, shapeElem{v: el, off: dec.InputOffset() - int64(len(el))})
			}
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			start += int64(bytes.IndexByte(v[start:], '['))
			m.v, m.off = v[start:dec.InputOffset()], start
		} else {
			val, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			m.v, m.off = val, dec.InputOffset()-int64(len(val))
		}
		s.members = append(s.members, m)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the top-level value at byte %d", dec.InputOffset())
	}
	return s, nil
}

// get is the member called name (the last, if repeated), or nil.
func (s *Shape) get(name string) *member {
	for i := len(s.members) - 1; i >= 0; i-- {
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
	return "", fmt.Errorf("%s", NotRecognised)
}

func (s *Shape) Container() wire.Format {
	switch {
	case s.has("log"):
		return wire.FormatHAR
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
	for _, el := range s.get("messages").elems {
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
		for _, el := range t.elems {
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
