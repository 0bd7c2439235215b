package wire

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// Detection looks only at the top level of an object (and, when Anthropic
// and OpenAI Chat must be told apart, at the messages' roles and part
// types). It walks tokens over the bytes in place: no member value is copied.

// detMember flags the top-level members that tell the formats apart.
type detMember uint16

const (
	detMessages detMember = 1 << iota
	detSystem
	detInput
	detInstructions
	detContents
	detSystemInstruction
	detLog
	detRequest
	detTools
)

// detShape is what the top level of an object shows.
type detShape struct {
	has      detMember
	model    string
	messages jsontext.Value // the raw messages array, when present
	tools    jsontext.Value // the raw tools array, when present
}

var detNames = map[string]detMember{
	"messages": detMessages, "system": detSystem, "input": detInput, "instructions": detInstructions,
	"contents": detContents, "systemInstruction": detSystemInstruction, "system_instruction": detSystemInstruction,
	"log": detLog, "request": detRequest, "tools": detTools,
}

// detWalk reads the top-level members of the object v.
func detWalk(v jsontext.Value) (detShape, error) {
	var s detShape
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return s, err
	}
	if tok.Kind() != '{' {
		return s, fmt.Errorf("a JSON %s, not an object", kindName(tok.Kind()))
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return s, err
		}
		name := tok.String() // before the next read voids tok
		val, err := dec.ReadValue()
		if err != nil {
			return s, err
		}
		m, ok := detNames[name]
		if !ok {
			if name == "model" && val.Kind() == '"' {
				var model string
				if unmarshal(val, &model) == nil {
					s.model = model
				}
			}
			continue
		}
		if val.Kind() == 'n' {
			continue
		}
		s.has |= m
		switch m {
		case detMessages:
			s.messages = val
		case detTools:
			s.tools = val
		}
	}
	return s, nil
}

// notRecognised is the error for an object of no known shape.
const notRecognised = "not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)"

// DetectFormat names the format of one JSON object by its shape.
func DetectFormat(v jsontext.Value) (Format, error) {
	s, err := detWalk(v)
	if err != nil {
		return "", fmt.Errorf("%s", describeJSONError(err))
	}
	if f := s.container(); f != FormatAuto {
		return f, nil
	}
	switch {
	case s.has&(detContents|detSystemInstruction) != 0:
		return FormatGemini, nil
	case s.has&detMessages != 0:
		return detectMessages(s), nil
	case s.has&(detInput|detInstructions) != 0:
		return FormatOpenAIResponses, nil
	}
	return "", fmt.Errorf("%s", notRecognised)
}

func (s detShape) container() Format {
	switch {
	case s.has&detLog != 0:
		return FormatHAR
	case s.has&detRequest != 0 && s.has&(detMessages|detContents) == 0:
		return FormatClaudeTrace
	}
	return FormatAuto
}

// detectContainer names the container format (HAR, claude-trace) of v, or
// returns FormatAuto for anything else.
func detectContainer(v jsontext.Value) Format {
	s, err := detWalk(v)
	if err != nil {
		return FormatAuto
	}
	return s.container()
}

// bodyMembers are the members a body of each format is recognised by.
var bodyMembers = map[Format]string{
	FormatOpenAIChat:      "messages",
	FormatAnthropic:       "messages, system",
	FormatOpenAIResponses: "input, instructions",
	FormatGemini:          "contents, systemInstruction",
}

// hasBodyMembers reports whether v has a member a body of format is
// recognised by.
func hasBodyMembers(format Format, v jsontext.Value) bool {
	s, err := detWalk(v)
	if err != nil {
		return true // let the body decoder report the syntax error
	}
	switch format {
	case FormatOpenAIChat:
		return s.has&detMessages != 0
	case FormatAnthropic:
		return s.has&(detMessages|detSystem) != 0
	case FormatOpenAIResponses:
		return s.has&(detInput|detInstructions) != 0
	case FormatGemini:
		return s.has&(detContents|detSystemInstruction) != 0
	}
	return true
}

// detectMessages tells Anthropic Messages from OpenAI Chat Completions.
func detectMessages(s detShape) Format {
	if s.has&detSystem != 0 {
		return FormatAnthropic
	}
	var msgs []struct {
		Role      string         `json:"role"`
		Content   jsontext.Value `json:"content"`
		ToolCalls jsontext.Value `json:"tool_calls"`
	}
	if unmarshal(s.messages, &msgs) == nil {
		for _, m := range msgs {
			switch m.Role {
			case "system", "developer", "tool", "function":
				return FormatOpenAIChat
			}
			if len(m.ToolCalls) > 0 {
				return FormatOpenAIChat
			}
			if len(m.Content) > 0 && m.Content.Kind() == '[' {
				var parts []struct {
					Type string `json:"type"`
				}
				if unmarshal(m.Content, &parts) == nil {
					for _, p := range parts {
						switch p.Type {
						case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document":
							return FormatAnthropic
						case "image_url", "input_audio", "file", "refusal":
							return FormatOpenAIChat
						}
					}
				}
			}
		}
	}
	if len(s.tools) > 0 {
		var tools []struct {
			Type        string         `json:"type"`
			InputSchema jsontext.Value `json:"input_schema"`
			Function    jsontext.Value `json:"function"`
		}
		if unmarshal(s.tools, &tools) == nil {
			for _, t := range tools {
				if len(t.InputSchema) > 0 {
					return FormatAnthropic
				}
				if len(t.Function) > 0 {
					return FormatOpenAIChat
				}
			}
		}
	}
	if len(s.model) >= 6 && s.model[:6] == "claude" {
		return FormatAnthropic
	}
	return FormatOpenAIChat
}
