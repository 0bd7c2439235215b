package body

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// OpenAI Chat Completions request bodies (POST /v1/chat/completions), also
// spoken by OpenAI-compatible hosts (Moonshot, OpenRouter, DeepSeek, ...).

type chatMessage struct {
	Role       string      `json:"role"`
	Name       string      `json:"name"`
	Content    chatContent `json:"content"`
	ToolCalls  []chatCall  `json:"tool_calls"`
	ToolCallID string      `json:"tool_call_id"`
	// FunctionCall is the deprecated single call of an assistant message.
	FunctionCall *chatFunction `json:"function_call"`
	// Refusal is an assistant's refusal text.
	Refusal string `json:"refusal"`
	// ReasoningContent is the thinking that Moonshot's and DeepSeek's
	// OpenAI-compatible APIs take back on assistant messages.
	ReasoningContent string `json:"reasoning_content"`
}

type chatCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
	Custom   struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

type chatFunction struct {
	Name      string     `json:"name"`
	Arguments ChatString `json:"arguments"`
}

// ChatString is a string as sent; a non-string value (some clients send
// arguments as an object) is kept as its compact JSON, null as "". It is the
// one reading of a tool call's arguments, in bodies and in recordings.
type ChatString string

func (s *ChatString) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == '"' {
		var v string
		err := json.UnmarshalDecode(dec, &v)
		*s = ChatString(v)
		return err
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != 'n' {
		*s = ChatString(Compact(raw))
	}
	return nil
}

// chatContent is a message's content: a string or an array of parts.
type chatContent struct {
	Str   string
	IsStr bool
	Parts []chatPart
}

func (c *chatContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch k := dec.PeekKind(); k {
	case '"':
		c.IsStr = true
		return json.UnmarshalDecode(dec, &c.Str)
	case '[':
		return json.UnmarshalDecode(dec, &c.Parts)
	case 'n':
		_, err := dec.ReadToken()
		return err
	default:
		return fmt.Errorf("content is a JSON %s, want a string or an array of parts", KindName(k))
	}
}

type chatPart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
	// ImageURL is {"url": ...} in Chat and a plain string in Responses.
	ImageURL   urlValue `json:"image_url"`
	InputAudio struct {
		Data   string `json:"data"`
		Format string `json:"format"`
	} `json:"input_audio"`
	File struct {
		FileID   string `json:"file_id"`
		Filename string `json:"filename"`
		FileData string `json:"file_data"`
	} `json:"file"`
	// Responses input_file parts carry these at the top level.
	Filename string `json:"filename"`
	FileID   string `json:"file_id"`
	FileData string `json:"file_data"`
}

// urlValue is an image URL given as a string or as {"url": ...}.
type urlValue struct{ URL string }

func (u *urlValue) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == '"' {
		return json.UnmarshalDecode(dec, &u.URL)
	}
	var o struct {
		URL string `json:"url"`
	}
	err := json.UnmarshalDecode(dec, &o)
	u.URL = o.URL
	return err
}

func decodeOpenAIChat(s *Shape, b *classify.Builder, c *ElementCache) error {
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
	// functions is the deprecated predecessor of tools.
	err := elements(b, c, nil, sectFunctions, s.get("functions"), func(i int, el jsontext.Value) error {
		var f toolSchema
		if err := Unmarshal(el, &f); err != nil {
			return err
		}
		b.Add(wire.Part{ID: IndexPath("functions", i), Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: f.Name, Text: Compact(f.Raw)})
		return nil
	})
	if err != nil {
		return err
	}
	names := c.toolNames() // tool call id -> function name
	return elements(b, c, names, sectMessages, s.get("messages"), func(i int, el jsontext.Value) error {
		var m chatMessage
		if err := Unmarshal(el, &m); err != nil {
			return err
		}
		chatMessageParts(b, IndexPath("messages", i), &m, names)
		return nil
	})
}

// chatMessageParts adds the parts of one Chat Completions message.
func chatMessageParts(b *classify.Builder, id string, m *chatMessage, names *toolNames) {
	ch := wire.ChannelMessages
	if m.Role == "system" || m.Role == "developer" {
		ch = wire.ChannelSystem
	}
	typ, name := "text", ""
	switch m.Role {
	case "tool":
		typ, name = "tool_result", names.get(m.ToolCallID)
		if name == "" {
			name = m.Name
		}
	case "function":
		typ, name = "tool_result", m.Name
	}
	if m.ReasoningContent != "" {
		b.Add(wire.Part{ID: id + ".reasoning_content", Channel: ch, Role: m.Role, Type: "reasoning", Text: m.ReasoningContent})
	}
	if m.Content.IsStr {
		b.Add(wire.Part{ID: id, Channel: ch, Role: m.Role, Type: typ, Name: name, Text: m.Content.Str})
	}
	for j := range m.Content.Parts {
		p := &m.Content.Parts[j]
		t := typ
		if p.Type == "refusal" {
			t = "refusal"
		}
		b.Add(wire.Part{ID: IndexPath(id+".content", j), Channel: ch, Role: m.Role, Type: t, Name: name, Text: chatPartText(p)})
	}
	if m.Refusal != "" {
		b.Add(wire.Part{ID: id + ".refusal", Channel: ch, Role: m.Role, Type: "refusal", Text: m.Refusal})
	}
	if m.FunctionCall != nil {
		b.Add(wire.Part{ID: id + ".function_call", Channel: ch, Role: m.Role, Type: "tool_call",
			Name: m.FunctionCall.Name, Text: string(m.FunctionCall.Arguments)})
	}
	for k := range m.ToolCalls {
		c := &m.ToolCalls[k]
		name, text := c.Function.Name, string(c.Function.Arguments)
		if c.Type == "custom" {
			name, text = c.Custom.Name, c.Custom.Input
		}
		names.def(c.ID, name)
		b.Add(wire.Part{ID: IndexPath(id+".tool_calls", k), Channel: ch, Role: m.Role, Type: "tool_call", Name: name, Text: text})
	}
}

// chatPartText is the text of one content part; binary parts become a
// placeholder.
func chatPartText(p *chatPart) string {
	switch p.Type {
	case "text", "input_text", "output_text":
		return p.Text
	case "refusal":
		return p.Refusal
	case "image_url":
		return DataURLText("image", p.ImageURL.URL)
	case "input_audio":
		return mediaText("audio", p.InputAudio.Format, len(p.InputAudio.Data))
	case "file":
		switch {
		case p.File.FileData != "":
			return DataURLText("file "+p.File.Filename, p.File.FileData)
		case p.File.FileID != "":
			return mediaRefText("file", p.File.FileID)
		}
		return mediaRefText("file", p.File.Filename)
	}
	if p.Text != "" {
		return p.Text
	}
	return "[" + p.Type + "]"
}
