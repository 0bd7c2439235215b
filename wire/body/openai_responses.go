package body

import (
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// OpenAI Responses API request bodies (POST /v1/responses).

type respItem struct {
	Type    string      `json:"type"`
	Role    string      `json:"role"`
	Content chatContent `json:"content"`
	// function_call, custom_tool_call
	CallID    string     `json:"call_id"`
	Name      string     `json:"name"`
	Arguments ChatString `json:"arguments"`
	Input     ChatString `json:"input"`
	// function_call_output, custom_tool_call_output
	Output respOutput `json:"output"`
	// reasoning
	Summary          []chatPart `json:"summary"`
	EncryptedContent string     `json:"encrypted_content"`
	// additional_tools (Codex 0.169 sends its tools as this input item,
	// with no top-level tools)
	Tools []jsontext.Value `json:"tools"`
	// anything else is kept as sent
	raw jsontext.Value
}

func (it *respItem) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != '{' {
		return fmt.Errorf("input item is a JSON %s, want an object", KindName(raw.Kind()))
	}
	type plain respItem
	if err := Unmarshal(raw, (*plain)(it)); err != nil {
		return err
	}
	switch it.Type {
	case "", "message", "function_call", "function_call_output", "reasoning",
		"custom_tool_call", "custom_tool_call_output", "additional_tools":
	default:
		it.raw = append(jsontext.Value(nil), raw...)
	}
	return nil
}

// respOutput is a tool output: a string or a list of content parts.
type respOutput struct{ chatContent }

func decodeOpenAIResponses(s *Shape, b *classify.Builder, c *ElementCache) error {
	if m := s.get("model"); m != nil {
		if err := stringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	if m := s.get("prompt_cache_key"); m != nil && m.v.Kind() == '"' {
		// OpenAI routes the cache by it: requests of another key do not
		// read each other's prefixes.
		if err := stringMember(m.v, "/prompt_cache_key", m.off, &b.Req.CacheKey); err != nil {
			return err
		}
	}
	if err := toolElements(b, c, s.get("tools")); err != nil {
		return err
	}
	if m := s.get("instructions"); m != nil {
		var text string
		if err := stringMember(m.v, "/instructions", m.off, &text); err != nil {
			return err
		}
		if text != "" {
			b.Add(wire.Part{ID: "instructions", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text})
		}
	}
	input := s.get("input")
	if input != nil && input.v.Kind() == '"' {
		var text string
		if err := stringMember(input.v, "/input", input.off, &text); err != nil {
			return err
		}
		b.Add(wire.Part{ID: "input", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: text})
		return nil
	}
	names := c.toolNames() // call id -> tool name
	return elements(b, c, names, sectInput, input, func(i int, el jsontext.Value) error {
		var it respItem
		if err := Unmarshal(el, &it); err != nil {
			return err
		}
		respItemParts(b, IndexPath("input", i), &it, names)
		return nil
	})
}

// respItemParts adds the parts of one input item.
func respItemParts(b *classify.Builder, id string, it *respItem, names *toolNames) {
	switch it.Type {
	case "", "message":
		ch := wire.ChannelMessages
		if it.Role == "system" || it.Role == "developer" {
			ch = wire.ChannelSystem
		}
		if it.Content.IsStr {
			b.Add(wire.Part{ID: id, Channel: ch, Role: it.Role, Type: "text", Text: it.Content.Str})
			return
		}
		for j := range it.Content.Parts {
			p := &it.Content.Parts[j]
			b.Add(wire.Part{ID: IndexPath(id+".content", j), Channel: ch, Role: it.Role, Type: respPartType(p.Type),
				Text: respPartText(p)})
		}
	case "function_call", "custom_tool_call":
		names.def(it.CallID, it.Name)
		text := string(it.Arguments)
		if it.Type == "custom_tool_call" {
			text = string(it.Input)
		}
		b.Add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "function_call", Name: it.Name, Text: text})
	case "function_call_output", "custom_tool_call_output":
		p := wire.Part{ID: id, Channel: wire.ChannelMessages, Role: "tool", Type: "function_call_output", Name: names.get(it.CallID)}
		if it.Output.IsStr || len(it.Output.Parts) == 0 {
			p.Text = it.Output.Str
			b.Add(p)
			return
		}
		for j := range it.Output.Parts {
			q := p
			q.ID = IndexPath(id+".output", j)
			q.Text = respPartText(&it.Output.Parts[j])
			b.Add(q)
		}
	case "additional_tools":
		// Tool definitions, the host's, in the input: each a tool schema of
		// the tools channel; a namespace's tools each on their own.
		respToolParts(b, id+".tools", "", it.Tools)
	case "reasoning":
		text := ""
		for j, s := range it.Summary {
			if j > 0 {
				text += "\n\n"
			}
			text += s.Text
		}
		if text == "" && it.EncryptedContent != "" {
			text = "[encrypted reasoning: " + strconv.Itoa(len(it.EncryptedContent)) + " bytes]"
		}
		b.Add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: "assistant", Type: "reasoning", Text: text})
	default:
		// Other items (web_search_call, local_shell_call, item_reference,
		// ...) are kept as their JSON.
		role := "assistant"
		if len(it.Type) > 7 && it.Type[len(it.Type)-7:] == "_output" {
			role = "tool"
		}
		b.Add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: role, Type: it.Type, Text: Compact(it.raw)})
	}
}

func respPartType(t string) string {
	switch t {
	case "input_text", "output_text", "text":
		return "text"
	}
	return t
}

// respPartText is the text of a Responses content part.
func respPartText(p *chatPart) string {
	switch p.Type {
	case "input_image":
		return DataURLText("image", p.ImageURL.URL)
	case "input_file":
		switch {
		case p.FileData != "":
			return DataURLText("file "+p.Filename, p.FileData)
		case p.FileID != "":
			return mediaRefText("file", p.FileID)
		}
		return mediaRefText("file", p.Filename)
	}
	return chatPartText(p)
}

// respTool is a tool definition of an additional_tools item: a tool, or a
// namespace of tools.
type respTool struct {
	Type        string           `json:"type"`
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Tools       []jsontext.Value `json:"tools"`
}

// respToolParts adds a tool-schema part for each tool of tools, the tools of
// a namespace under their namespace's name (functions.exec).
func respToolParts(b *classify.Builder, id, ns string, tools []jsontext.Value) {
	for i, raw := range tools {
		var t respTool
		_ = Unmarshal(raw, &t) // a tool that is not an object is kept as its JSON
		name := t.Name
		if ns != "" {
			name = ns + "." + name
		}
		tid := IndexPath(id, i)
		if t.Type == "namespace" && len(t.Tools) > 0 {
			if t.Description != "" {
				b.Add(wire.Part{ID: tid, Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: name, Text: t.Description})
			}
			respToolParts(b, tid+".tools", name, t.Tools)
			continue
		}
		b.Add(wire.Part{ID: tid, Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: name, Text: Compact(raw)})
	}
}
