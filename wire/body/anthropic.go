package body

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// Anthropic Messages API request bodies (POST /v1/messages).

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content AnthropicContent `json:"content"`
}

// AnthropicContent is a content value: a string or an array of blocks.
type AnthropicContent struct {
	Str    string
	IsStr  bool
	Blocks []AnthropicBlock
}

func (c *AnthropicContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch k := dec.PeekKind(); k {
	case '"':
		c.IsStr = true
		return json.UnmarshalDecode(dec, &c.Str)
	case '[':
		return json.UnmarshalDecode(dec, &c.Blocks)
	case '{':
		// A single block where a list belongs (server tool errors send one).
		c.Blocks = make([]AnthropicBlock, 1)
		return json.UnmarshalDecode(dec, &c.Blocks[0])
	case 'n':
		_, err := dec.ReadToken()
		return err
	default:
		return fmt.Errorf("content is a JSON %s, want a string or an array of blocks", KindName(k))
	}
}

type AnthropicBlock struct {
	Type         string           `json:"type"`
	Text         string           `json:"text"`
	Thinking     string           `json:"thinking"`
	Data         string           `json:"data"`
	ID           string           `json:"id"`
	Name         string           `json:"name"`
	Input        jsontext.Value   `json:"input"`
	ToolUseID    string           `json:"tool_use_id"`
	Content      AnthropicContent `json:"content"`
	Source       *anthropicSource `json:"source"`
	Title        string           `json:"title"`
	CacheControl jsontext.Value   `json:"cache_control"`
	// Raw is the block as sent, kept for types read as a whole (server tool
	// results, web fetches, containers, ...).
	Raw jsontext.Value `json:"-"`
}

func (bl *AnthropicBlock) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	switch raw.Kind() {
	case '{':
	case 'n':
		// A null where a block belongs (seen in recordings): an empty block,
		// kept as a part of no type.
		*bl = AnthropicBlock{}
		return nil
	default:
		return fmt.Errorf("content block is a JSON %s, want an object", KindName(raw.Kind()))
	}
	orig := *bl
	if fastBlock(raw, bl) {
		keepRaw(bl, raw)
		return nil
	}
	*bl = orig
	return slowBlock(raw, bl)
}

// slowBlock is a block read by json.Unmarshal (for what fastBlock gives
// up on: its errors are the ones reported).
func slowBlock(raw jsontext.Value, bl *AnthropicBlock) error {
	type plain AnthropicBlock
	if err := Unmarshal(raw, (*plain)(bl)); err != nil {
		return err
	}
	keepRaw(bl, raw)
	return nil
}

// keepRaw keeps the block as sent when its type is read as a whole.
func keepRaw(bl *AnthropicBlock, raw jsontext.Value) {
	switch bl.Type {
	case "text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "mcp_tool_use",
		"tool_result", "mcp_tool_result", "image", "document", "search_result":
	default:
		bl.Raw = append(jsontext.Value(nil), raw...)
	}
}

type anthropicSource struct {
	Type      string           `json:"type"`
	MediaType string           `json:"media_type"`
	Data      string           `json:"data"`
	URL       string           `json:"url"`
	FileID    string           `json:"file_id"`
	Content   AnthropicContent `json:"content"`
}

// toolSchema is one tool definition, kept as sent; its name is read from it.
type toolSchema struct {
	Raw  jsontext.Value
	Name string
	Type string
	// CacheControl is set when the tool carries cache_control, TTL1h when
	// it asks for the 1-hour lifetime.
	CacheControl, TTL1h bool
	// Declarations are Gemini's functionDeclarations inside a tools entry;
	// DeclKey names the member they were sent in (camelCase or snake_case).
	Declarations []toolSchema
	DeclKey      string
}

func (t *toolSchema) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != '{' {
		return fmt.Errorf("tool is a JSON %s, want an object", KindName(raw.Kind()))
	}
	var s struct {
		Name         string         `json:"name"`
		Type         string         `json:"type"`
		CacheControl jsontext.Value `json:"cache_control"`
		Function     struct {
			Name string `json:"name"`
		} `json:"function"`
		Declarations  []toolSchema `json:"functionDeclarations"`
		Declarations2 []toolSchema `json:"function_declarations"`
	}
	if err := Unmarshal(raw, &s); err != nil {
		return err
	}
	t.Raw = append(jsontext.Value(nil), raw...)
	t.Name, t.Type = s.Name, s.Type
	if t.Name == "" {
		t.Name = s.Function.Name
	}
	t.CacheControl, t.TTL1h = HasValue(s.CacheControl), TTL1h(s.CacheControl)
	t.Declarations = append(s.Declarations, s.Declarations2...)
	t.DeclKey = "functionDeclarations"
	if s.Declarations == nil && s.Declarations2 != nil {
		t.DeclKey = "function_declarations"
	}
	return nil
}

// HasValue reports whether a raw member is present and not null.
func HasValue(v jsontext.Value) bool { return len(v) > 0 && v.Kind() != 'n' }

func decodeAnthropic(s *Shape, b *classify.Builder, c *ElementCache) error {
	if m := s.get("model"); m != nil {
		if err := stringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	if err := toolElements(b, c, s.get("tools")); err != nil {
		return err
	}
	names := c.toolNames()
	if sys := s.get("system"); sys != nil && sys.v.Kind() == '"' {
		var text string
		if err := stringMember(sys.v, "/system", sys.off, &text); err != nil {
			return err
		}
		b.Add(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text})
	} else {
		err := elements(b, c, names, sectSystem, sys, func(i int, el jsontext.Value) error {
			var bl AnthropicBlock
			if err := Unmarshal(el, &bl); err != nil {
				return err
			}
			AnthropicBlockParts(b.Add, IndexPath("system", i), wire.ChannelSystem, "system", &bl, names)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return elements(b, c, names, sectMessages, s.get("messages"), func(i int, el jsontext.Value) error {
		var m anthropicMessage
		if err := Unmarshal(el, &m); err != nil {
			return err
		}
		id := IndexPath("messages", i)
		if m.Content.IsStr {
			b.Add(wire.Part{ID: id, Channel: wire.ChannelMessages, Role: m.Role, Type: "text", Text: m.Content.Str})
			return nil
		}
		for j := range m.Content.Blocks {
			AnthropicBlockParts(b.Add, IndexPath(id+".content", j), wire.ChannelMessages, m.Role, &m.Content.Blocks[j], names)
		}
		return nil
	})
}

// toolElements adds one tools-channel part per tool definition.
func toolElements(b *classify.Builder, c *ElementCache, tools *member) error {
	return elements(b, c, nil, sectTools, tools, func(i int, el jsontext.Value) error {
		var t toolSchema
		if err := Unmarshal(el, &t); err != nil {
			return err
		}
		b.Add(wire.Part{ID: IndexPath("tools", i), Channel: wire.ChannelTools, Role: "tool", Type: "tool",
			Name: t.Name, Text: Compact(t.Raw), CacheBreakpoint: t.CacheControl, CacheTTL1h: t.TTL1h})
		return nil
	})
}

// AnthropicBlockParts passes to add the part (or parts, for a tool_result
// with block content) of one content block. It is the one reading of a block,
// for request bodies (add is Builder.Add) and for recordings in the Messages
// shape (Claude Code: add collects the parts of a message); names records its
// uses for the element cache.
func AnthropicBlockParts(add func(wire.Part), id string, ch wire.Channel, role string, bl *AnthropicBlock, names *toolNames) {
	p := wire.Part{ID: id, Channel: ch, Role: role, Type: bl.Type, CacheBreakpoint: HasValue(bl.CacheControl),
		CacheTTL1h: TTL1h(bl.CacheControl)}
	switch bl.Type {
	case "text":
		p.Text = bl.Text
	case "thinking":
		p.Text = bl.Thinking
	case "redacted_thinking":
		p.Text = "[redacted thinking: " + strconv.Itoa(len(bl.Data)) + " bytes]"
	case "tool_use", "server_tool_use", "mcp_tool_use":
		p.Type = "tool_use"
		names.def(bl.ID, bl.Name)
		p.Name, p.Text = bl.Name, Compact(bl.Input)
	case "tool_result", "mcp_tool_result":
		p.Type = "tool_result"
		p.Name = names.get(bl.ToolUseID)
		if !bl.Content.IsStr && len(bl.Content.Blocks) > 0 {
			// Each block of the result is a part of its own; the cache
			// breakpoint sits on the last.
			for k := range bl.Content.Blocks {
				inner := &bl.Content.Blocks[k]
				q := wire.Part{ID: IndexPath(id+".content", k), Channel: ch, Role: role, Type: "tool_result",
					Name: p.Name, Text: anthropicBlockText(inner),
					CacheBreakpoint: HasValue(inner.CacheControl) || (p.CacheBreakpoint && k == len(bl.Content.Blocks)-1),
					CacheTTL1h:      TTL1h(inner.CacheControl) || (p.CacheTTL1h && k == len(bl.Content.Blocks)-1)}
				add(q)
			}
			return
		}
		p.Text = bl.Content.Str
	default:
		p.Text = anthropicBlockText(bl)
		if strings.HasSuffix(bl.Type, "_tool_result") {
			// web_search_tool_result, web_fetch_tool_result, ...: results
			// of tools the server ran, workspace-like data.
			p.Type, p.Name = "tool_result", names.get(bl.ToolUseID)
		}
	}
	add(p)
}

// anthropicBlockText is the text that stands for a block inside a tool
// result, or for a block type without text of its own.
func anthropicBlockText(bl *AnthropicBlock) string {
	switch bl.Type {
	case "text":
		return bl.Text
	case "image", "document":
		if s := bl.Source; s != nil {
			switch s.Type {
			case "base64":
				return mediaText(bl.Type, s.MediaType, len(s.Data))
			case "url":
				return mediaRefText(bl.Type, s.URL)
			case "file":
				return mediaRefText(bl.Type, "file "+s.FileID)
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
					out += anthropicBlockText(&s.Content.Blocks[i])
				}
				return out
			}
		}
		return mediaRefText(bl.Type, "")
	case "thinking":
		return bl.Thinking
	case "search_result":
		return bl.Title
	}
	if len(bl.Raw) > 0 {
		return Compact(bl.Raw)
	}
	return "[" + bl.Type + "]"
}

// TTL1h reports whether a cache_control value asks for the 1-hour lifetime
// ({"type": "ephemeral", "ttl": "1h"}).
func TTL1h(cc jsontext.Value) bool {
	if !HasValue(cc) {
		return false
	}
	var v struct {
		TTL string `json:"ttl"`
	}
	return Unmarshal(cc, &v) == nil && v.TTL == "1h"
}
