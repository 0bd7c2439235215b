package wire

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// shape holds the top-level members that tell the formats apart; their
// values are kept raw.
type shape struct {
	Model              string         `json:"model"`
	Messages           jsontext.Value `json:"messages"`
	System             jsontext.Value `json:"system"`
	Input              jsontext.Value `json:"input"`
	Instructions       jsontext.Value `json:"instructions"`
	Contents           jsontext.Value `json:"contents"`
	SystemInstruction  jsontext.Value `json:"systemInstruction"`
	SystemInstruction2 jsontext.Value `json:"system_instruction"`
	Log                jsontext.Value `json:"log"`
	Request            jsontext.Value `json:"request"`
	Tools              jsontext.Value `json:"tools"`
}

// DetectFormat names the format of one JSON object by its shape.
func DetectFormat(v jsontext.Value) (Format, error) {
	var s shape
	if err := unmarshal(v, &s); err != nil {
		return "", fmt.Errorf("%s", describeJSONError(err))
	}
	switch {
	case len(s.Log) > 0:
		return FormatHAR, nil
	case len(s.Request) > 0 && len(s.Messages) == 0 && len(s.Contents) == 0:
		return FormatClaudeTrace, nil
	case len(s.Contents) > 0 || len(s.SystemInstruction) > 0 || len(s.SystemInstruction2) > 0:
		return FormatGemini, nil
	case len(s.Messages) > 0:
		return detectMessages(s), nil
	case len(s.Input) > 0 || len(s.Instructions) > 0:
		return FormatOpenAIResponses, nil
	}
	return "", fmt.Errorf("not a recognised request format (looked for messages, input, instructions, contents, systemInstruction, log.entries, request.body)")
}

// detectMessages tells Anthropic Messages from OpenAI Chat Completions.
func detectMessages(s shape) Format {
	if len(s.System) > 0 {
		return FormatAnthropic
	}
	var msgs []struct {
		Role      string         `json:"role"`
		Content   jsontext.Value `json:"content"`
		ToolCalls jsontext.Value `json:"tool_calls"`
	}
	if unmarshal(s.Messages, &msgs) == nil {
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
	if len(s.Tools) > 0 {
		var tools []struct {
			Type        string         `json:"type"`
			InputSchema jsontext.Value `json:"input_schema"`
			Function    jsontext.Value `json:"function"`
		}
		if unmarshal(s.Tools, &tools) == nil {
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
	if len(s.Model) >= 6 && s.Model[:6] == "claude" {
		return FormatAnthropic
	}
	return FormatOpenAIChat
}
