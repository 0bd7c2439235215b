package wire

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// OpenAI Responses API request bodies (POST /v1/responses).

func init() {
	bodyDecoders[FormatOpenAIResponses] = decodeOpenAIResponses
}

type decRespItem struct {
	Type    string         `json:"type"`
	Role    string         `json:"role"`
	Content decChatContent `json:"content"`
	// function_call, custom_tool_call
	CallID    string        `json:"call_id"`
	Name      string        `json:"name"`
	Arguments decChatString `json:"arguments"`
	Input     decChatString `json:"input"`
	// function_call_output, custom_tool_call_output
	Output decRespOutput `json:"output"`
	// reasoning
	Summary          []decChatPart `json:"summary"`
	EncryptedContent string        `json:"encrypted_content"`
	// anything else is kept as sent
	raw jsontext.Value
}

func (it *decRespItem) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != '{' {
		return fmt.Errorf("input item is a JSON %s, want an object", kindName(raw.Kind()))
	}
	type plain decRespItem
	if err := unmarshal(raw, (*plain)(it)); err != nil {
		return err
	}
	switch it.Type {
	case "", "message", "function_call", "function_call_output", "reasoning",
		"custom_tool_call", "custom_tool_call_output":
	default:
		it.raw = append(jsontext.Value(nil), raw...)
	}
	return nil
}

// decRespOutput is a tool output: a string or a list of content parts.
type decRespOutput struct{ decChatContent }

func decodeOpenAIResponses(s *decShape, b *Builder, c *decCache) error {
	if m := s.get("model"); m != nil {
		if err := decStringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	if err := decToolElements(b, c, s.get("tools")); err != nil {
		return err
	}
	if m := s.get("instructions"); m != nil {
		var text string
		if err := decStringMember(m.v, "/instructions", m.off, &text); err != nil {
			return err
		}
		if text != "" {
			b.Add(Part{ID: "instructions", Channel: ChannelSystem, Role: "system", Type: "text", Text: text})
		}
	}
	input := s.get("input")
	if input != nil && input.v.Kind() == '"' {
		var text string
		if err := decStringMember(input.v, "/input", input.off, &text); err != nil {
			return err
		}
		b.Add(Part{ID: "input", Channel: ChannelMessages, Role: "user", Type: "text", Text: text})
		return nil
	}
	names := newDecNames() // call id -> tool name
	return decElements(b, c, names, decSectInput, input, func(i int, el jsontext.Value) error {
		var it decRespItem
		if err := unmarshal(el, &it); err != nil {
			return err
		}
		decRespItemParts(b, decIndex("input", i), &it, names)
		return nil
	})
}

// decRespItemParts adds the parts of one input item.
func decRespItemParts(b *Builder, id string, it *decRespItem, names *decNames) {
	switch it.Type {
	case "", "message":
		ch := ChannelMessages
		if it.Role == "system" || it.Role == "developer" {
			ch = ChannelSystem
		}
		if it.Content.IsStr {
			b.Add(Part{ID: id, Channel: ch, Role: it.Role, Type: "text", Text: it.Content.Str})
			return
		}
		for j := range it.Content.Parts {
			p := &it.Content.Parts[j]
			b.Add(Part{ID: decIndex(id+".content", j), Channel: ch, Role: it.Role, Type: decRespPartType(p.Type),
				Text: decRespPartText(p)})
		}
	case "function_call", "custom_tool_call":
		names.def(it.CallID, it.Name)
		text := string(it.Arguments)
		if it.Type == "custom_tool_call" {
			text = string(it.Input)
		}
		b.Add(Part{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "function_call", Name: it.Name, Text: text})
	case "function_call_output", "custom_tool_call_output":
		p := Part{ID: id, Channel: ChannelMessages, Role: "tool", Type: "function_call_output", Name: names.get(it.CallID)}
		if it.Output.IsStr || len(it.Output.Parts) == 0 {
			p.Text = it.Output.Str
			b.Add(p)
			return
		}
		for j := range it.Output.Parts {
			q := p
			q.ID = decIndex(id+".output", j)
			q.Text = decRespPartText(&it.Output.Parts[j])
			b.Add(q)
		}
	case "reasoning":
		text := ""
		for j, s := range it.Summary {
			if j > 0 {
				text += "\n\n"
			}
			text += s.Text
		}
		if text == "" && it.EncryptedContent != "" {
			text = "[encrypted reasoning: " + itoa(len(it.EncryptedContent)) + " bytes]"
		}
		b.Add(Part{ID: id, Channel: ChannelMessages, Role: "assistant", Type: "reasoning", Text: text})
	default:
		// Other items (web_search_call, local_shell_call, item_reference,
		// ...) are kept as their JSON.
		role := "assistant"
		if len(it.Type) > 7 && it.Type[len(it.Type)-7:] == "_output" {
			role = "tool"
		}
		b.Add(Part{ID: id, Channel: ChannelMessages, Role: role, Type: it.Type, Text: decCompact(it.raw)})
	}
}

func decRespPartType(t string) string {
	switch t {
	case "input_text", "output_text", "text":
		return "text"
	}
	return t
}

// decRespPartText is the text of a Responses content part.
func decRespPartText(p *decChatPart) string {
	switch p.Type {
	case "input_image":
		return decDataURL("image", p.ImageURL.URL)
	case "input_file":
		switch {
		case p.FileData != "":
			return decDataURL("file "+p.Filename, p.FileData)
		case p.FileID != "":
			return decMediaRef("file", p.FileID)
		}
		return decMediaRef("file", p.Filename)
	}
	return decChatPartText(p)
}
