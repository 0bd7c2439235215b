package wire

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Detection looks only at the top level of an object (and, when Anthropic
// and OpenAI Chat must be told apart, at the messages' roles and part
// types). It walks tokens over the bytes in place: no member value is copied.

// decShape is one pass over a body object: its top-level members, each a
// slice of the body with its byte offset, and for a member that is an array
// its elements likewise. Walking it validates the whole object; detection and
// the body decoders then work from it without scanning the bytes again.
type decShape struct {
	v       jsontext.Value
	members []decMember
}

type decMember struct {
	name  string
	v     jsontext.Value
	off   int64
	elems []decElem // the elements, when v is an array
}

type decElem struct {
	v   jsontext.Value
	off int64
}

// decWalkShape walks the object v. Errors are syntax errors with offsets in v.
func decWalkShape(v jsontext.Value) (*decShape, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), decWalkOpts...)
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("a JSON %s, not an object", kindName(tok.Kind()))
	}
	s := &decShape{v: v}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		m := decMember{name: tok.String()}
		if dec.PeekKind() == '[' {
			start := dec.InputOffset()
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			m.elems = []decElem{}
			for dec.PeekKind() != ']' {
				el, err := dec.ReadValue()
				if err != nil {
					return nil, err
				}
				m.elems = append(m.elems, decElem{v: el, off: dec.InputOffset() - int64(len(el))})
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
func (s *decShape) get(name string) *decMember {
	for i := len(s.members) - 1; i >= 0; i-- {
		if s.members[i].name == name {
			return &s.members[i]
		}
	}
	return nil
}

// has reports whether the member is present and not null.
func (s *decShape) has(name string) bool {
	m := s.get(name)
	return m != nil && m.v.Kind() != 'n'
}

// notRecognised is the error for an object of no known shape.
const notRecognised = "not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"

// DetectFormat names the format of one JSON object by its shape.
func DetectFormat(v jsontext.Value) (Format, error) {
	s, err := decWalkShape(v)
	if err != nil {
		return "", fmt.Errorf("%s", describeJSONError(err))
	}
	return detectShape(s, nil)
}

// detectShape names the format of a walked object; memo, when not nil,
// holds the messages earlier objects of the same input showed to tell nothing.
func detectShape(s *decShape, memo decDetMemo) (Format, error) {
	if f := s.container(); f != FormatAuto {
		return f, nil
	}
	switch {
	case s.has("contents") || s.has("systemInstruction") || s.has("system_instruction"):
		return FormatGemini, nil
	case s.has("messages"):
		return detectMessages(s, memo), nil
	case s.has("input") || s.has("instructions"):
		return FormatOpenAIResponses, nil
	}
	return "", fmt.Errorf("%s", notRecognised)
}

func (s *decShape) container() Format {
	switch {
	case s.has("log"):
		return FormatHAR
	case s.has("request") && !s.has("messages") && !s.has("contents"):
		return FormatClaudeTrace
	}
	return FormatAuto
}

// bodyMembers are the members a body of each format is recognised by.
var bodyMembers = map[Format]string{
	FormatOpenAIChat:      "messages",
	FormatAnthropic:       "messages, system",
	FormatOpenAIResponses: "input, instructions",
	FormatGemini:          "contents, systemInstruction",
}

// hasBodyMembers reports whether s has a member a body of format is
// recognised by.
func (s *decShape) hasBodyMembers(format Format) bool {
	switch format {
	case FormatOpenAIChat:
		return s.has("messages")
	case FormatAnthropic:
		return s.has("messages") || s.has("system")
	case FormatOpenAIResponses:
		return s.has("input") || s.has("instructions")
	case FormatGemini:
		return s.has("contents") || s.has("systemInstruction") || s.has("system_instruction")
	}
	return true
}

// decDetMemo holds the messages that told Anthropic from OpenAI Chat
// nothing, by length and content hash: a session of N growing requests
// without a system member looks at each message once, not once a request.
type decDetMemo map[decDetKey]struct{}

type decDetKey struct {
	n      int
	h1, h2 uint64
}

// detectMessages tells Anthropic Messages from OpenAI Chat Completions.
func detectMessages(s *decShape, memo decDetMemo) Format {
	if s.has("system") {
		return FormatAnthropic
	}
	for _, el := range s.get("messages").elems {
		var k decDetKey
		if memo != nil {
			k = decDetKey{n: len(el.v), h1: maphash.Bytes(decSeed1, el.v), h2: maphash.Bytes(decSeed2, el.v)}
			if _, ok := memo[k]; ok {
				continue
			}
		}
		if f, ok := detectMessage(el.v); ok {
			return f
		}
		if memo != nil {
			if len(memo) >= decCacheMax {
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
			if unmarshal(el.v, &tool) != nil {
				continue
			}
			if len(tool.InputSchema) > 0 {
				return FormatAnthropic
			}
			if len(tool.Function) > 0 {
				return FormatOpenAIChat
			}
		}
	}
	var model string
	if m := s.get("model"); m != nil && m.v.Kind() == '"' {
		unmarshal(m.v, &model)
	}
	if strings.HasPrefix(model, "claude") {
		return FormatAnthropic
	}
	return FormatOpenAIChat
}

// detectMessage tells the format by one message, if it can.
func detectMessage(v jsontext.Value) (Format, bool) {
	var m struct {
		Role      string         `json:"role"`
		Content   jsontext.Value `json:"content"`
		ToolCalls jsontext.Value `json:"tool_calls"`
	}
	if unmarshal(v, &m) != nil {
		return "", false
	}
	switch m.Role {
	case "system", "developer", "tool", "function":
		return FormatOpenAIChat, true
	}
	if len(m.ToolCalls) > 0 {
		return FormatOpenAIChat, true
	}
	if len(m.Content) > 0 && m.Content.Kind() == '[' {
		var parts []struct {
			Type string `json:"type"`
		}
		if unmarshal(m.Content, &parts) == nil {
			for _, p := range parts {
				switch p.Type {
				case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document":
					return FormatAnthropic, true
				case "image_url", "input_audio", "file", "refusal":
					return FormatOpenAIChat, true
				}
			}
		}
	}
	return "", false
}
