package wire

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Anthropic Messages API request bodies (POST /v1/messages).

func init() {
	bodyDecoders[FormatAnthropic] = decodeAnthropic
}

type decAnthropicMessage struct {
	Role    string              `json:"role"`
	Content decAnthropicContent `json:"content"`
}

// decAnthropicContent is a content value: a string or an array of blocks.
type decAnthropicContent struct {
	Str    string
	IsStr  bool
	Blocks []decAnthropicBlock
}

func (c *decAnthropicContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch k := dec.PeekKind(); k {
	case '"':
		c.IsStr = true
		return json.UnmarshalDecode(dec, &c.Str)
	case '[':
		return json.UnmarshalDecode(dec, &c.Blocks)
	case '{':
		// A single block where a list belongs (server tool errors send one).
		c.Blocks = make([]decAnthropicBlock, 1)
		return json.UnmarshalDecode(dec, &c.Blocks[0])
	case 'n':
		_, err := dec.ReadToken()
		return err
	default:
		return fmt.Errorf("content is a JSON %s, want a string or an array of blocks", kindName(k))
	}
}

type decAnthropicBlock struct {
	Type         string              `json:"type"`
	Text         string              `json:"text"`
	Thinking     string              `json:"thinking"`
	Data         string              `json:"data"`
	ID           string              `json:"id"`
	Name         string              `json:"name"`
	Input        jsontext.Value      `json:"input"`
	ToolUseID    string              `json:"tool_use_id"`
	Content      decAnthropicContent `json:"content"`
	Source       *decAnthropicSource `json:"source"`
	Title        string              `json:"title"`
	CacheControl jsontext.Value      `json:"cache_control"`
	// Raw is the block as sent, kept for types read as a whole (server tool
	// results, web fetches, containers, ...).
	Raw jsontext.Value `json:"-"`
}

func (bl *decAnthropicBlock) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	switch raw.Kind() {
	case '{':
	case 'n':
		// A null where a block belongs (seen in recordings): an empty block,
		// kept as a part of no type.
		*bl = decAnthropicBlock{}
		return nil
	default:
		return fmt.Errorf("content block is a JSON %s, want an object", kindName(raw.Kind()))
	}
	type plain decAnthropicBlock
	if err := unmarshal(raw, (*plain)(bl)); err != nil {
		return err
	}
	switch bl.Type {
	case "text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "mcp_tool_use",
		"tool_result", "mcp_tool_result", "image", "document", "search_result":
	default:
		bl.Raw = append(jsontext.Value(nil), raw...)
	}
	return nil
}

type decAnthropicSource struct {
	Type      string              `json:"type"`
	MediaType string              `json:"media_type"`
	Data      string              `json:"data"`
	URL       string              `json:"url"`
	FileID    string              `json:"file_id"`
	Content   decAnthropicContent `json:"content"`
}

// decTool is one tool definition, kept as sent; its name is read from it.
type decTool struct {
	Raw  jsontext.Value
	Name string
	Type string
	// CacheControl is set when the tool carries cache_control.
	CacheControl bool
	// Declarations are Gemini's functionDeclarations inside a tools entry;
	// DeclKey names the member they were sent in (camelCase or snake_case).
	Declarations []decTool
	DeclKey      string
}

func (t *decTool) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != '{' {
		return fmt.Errorf("tool is a JSON %s, want an object", kindName(raw.Kind()))
	}
	var s struct {
		Name         string         `json:"name"`
		Type         string         `json:"type"`
		CacheControl jsontext.Value `json:"cache_control"`
		Function     struct {
			Name string `json:"name"`
		} `json:"function"`
		Declarations  []decTool `json:"functionDeclarations"`
		Declarations2 []decTool `json:"function_declarations"`
	}
	if err := unmarshal(raw, &s); err != nil {
		return err
	}
	t.Raw = append(jsontext.Value(nil), raw...)
	t.Name, t.Type = s.Name, s.Type
	if t.Name == "" {
		t.Name = s.Function.Name
	}
	t.CacheControl = decHasValue(s.CacheControl)
	t.Declarations = append(s.Declarations, s.Declarations2...)
	t.DeclKey = "functionDeclarations"
	if s.Declarations == nil && s.Declarations2 != nil {
		t.DeclKey = "function_declarations"
	}
	return nil
}

// decHasValue reports whether a raw member is present and not null.
func decHasValue(v jsontext.Value) bool { return len(v) > 0 && v.Kind() != 'n' }

func decodeAnthropic(s *decShape, b *Builder, c *decCache) error {
	if m := s.get("model"); m != nil {
		if err := decStringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	if err := decToolElements(b, c, s.get("tools")); err != nil {
		return err
	}
	names := newDecNames()
	if sys := s.get("system"); sys != nil && sys.v.Kind() == '"' {
		var text string
		if err := decStringMember(sys.v, "/system", sys.off, &text); err != nil {
			return err
		}
		b.Add(Part{ID: "system[0]", Channel: ChannelSystem, Role: "system", Type: "text", Text: text})
	} else {
		err := decElements(b, c, names, decSectSystem, sys, func(i int, el jsontext.Value) error {
			var bl decAnthropicBlock
			if err := unmarshal(el, &bl); err != nil {
				return err
			}
			decAnthropicBlockParts(b.Add, decIndex("system", i), ChannelSystem, "system", &bl, names)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return decElements(b, c, names, decSectMessages, s.get("messages"), func(i int, el jsontext.Value) error {
		var m decAnthropicMessage
		if err := unmarshal(el, &m); err != nil {
			return err
		}
		id := decIndex("messages", i)
		if m.Content.IsStr {
			b.Add(Part{ID: id, Channel: ChannelMessages, Role: m.Role, Type: "text", Text: m.Content.Str})
			return nil
		}
		for j := range m.Content.Blocks {
			decAnthropicBlockParts(b.Add, decIndex(id+".content", j), ChannelMessages, m.Role, &m.Content.Blocks[j], names)
		}
		return nil
	})
}

// decToolElements adds one tools-channel part per tool definition.
func decToolElements(b *Builder, c *decCache, tools *decMember) error {
	return decElements(b, c, nil, decSectTools, tools, func(i int, el jsontext.Value) error {
		var t decTool
		if err := unmarshal(el, &t); err != nil {
			return err
		}
		b.Add(Part{ID: decIndex("tools", i), Channel: ChannelTools, Role: "tool", Type: "tool",
			Name: t.Name, Text: decCompact(t.Raw), CacheBreakpoint: t.CacheControl})
		return nil
	})
}

// decAnthropicBlockParts passes to add the part (or parts, for a tool_result
// with block content) of one content block. It is the one reading of a block,
// for request bodies (add is Builder.Add) and for recordings in the Messages
// shape (Claude Code: add collects the parts of a message); names records its
// uses for the element cache.
func decAnthropicBlockParts(add func(Part), id string, ch Channel, role string, bl *decAnthropicBlock, names *decNames) {
	p := Part{ID: id, Channel: ch, Role: role, Type: bl.Type, CacheBreakpoint: decHasValue(bl.CacheControl)}
	switch bl.Type {
	case "text":
		p.Text = bl.Text
	case "thinking":
		p.Text = bl.Thinking
	case "redacted_thinking":
		p.Text = "[redacted thinking: " + itoa(len(bl.Data)) + " bytes]"
	case "tool_use", "server_tool_use", "mcp_tool_use":
		p.Type = "tool_use"
		names.def(bl.ID, bl.Name)
		p.Name, p.Text = bl.Name, decCompact(bl.Input)
	case "tool_result", "mcp_tool_result":
		p.Type = "tool_result"
		p.Name = names.get(bl.ToolUseID)
		if !bl.Content.IsStr && len(bl.Content.Blocks) > 0 {
			// Each block of the result is a part of its own; the cache
			// breakpoint sits on the last.
			for k := range bl.Content.Blocks {
				inner := &bl.Content.Blocks[k]
				q := Part{ID: decIndex(id+".content", k), Channel: ch, Role: role, Type: "tool_result",
					Name: p.Name, Text: decAnthropicBlockText(inner),
					CacheBreakpoint: decHasValue(inner.CacheControl) || (p.CacheBreakpoint && k == len(bl.Content.Blocks)-1)}
				add(q)
			}
			return
		}
		p.Text = bl.Content.Str
	default:
		p.Text = decAnthropicBlockText(bl)
		if strings.HasSuffix(bl.Type, "_tool_result") {
			// web_search_tool_result, web_fetch_tool_result, ...: results
			// of tools the server ran, workspace-like data.
			p.Type, p.Name = "tool_result", names.get(bl.ToolUseID)
		}
	}
	add(p)
}

// decAnthropicBlockText is the text that stands for a block inside a tool
// result, or for a block type without text of its own.
func decAnthropicBlockText(bl *decAnthropicBlock) string {
	switch bl.Type {
	case "text":
		return bl.Text
	case "image", "document":
		if s := bl.Source; s != nil {
			switch s.Type {
			case "base64":
				return decMedia(bl.Type, s.MediaType, len(s.Data))
			case "url":
				return decMediaRef(bl.Type, s.URL)
			case "file":
				return decMediaRef(bl.Type, "file "+s.FileID)
			case "text":
				return s.Data
			case "content":
				if s.Content.IsStr {
					return s.Content.Str
				}
				out := ""
				for i := range s.Content.Blocks {
					if i > 0 {
						out += "\n"
					}
					out += decAnthropicBlockText(&s.Content.Blocks[i])
				}
				return out
			}
		}
		return decMediaRef(bl.Type, "")
	case "thinking":
		return bl.Thinking
	case "search_result":
		return bl.Title
	}
	if len(bl.Raw) > 0 {
		return decCompact(bl.Raw)
	}
	return "[" + bl.Type + "]"
}
