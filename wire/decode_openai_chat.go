package wire

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// OpenAI Chat Completions request bodies (POST /v1/chat/completions), also
// spoken by OpenAI-compatible hosts (Moonshot, OpenRouter, DeepSeek, ...).

func init() {
	bodyDecoders[FormatOpenAIChat] = decodeOpenAIChat
}

type decChatMessage struct {
	Role       string         `json:"role"`
	Name       string         `json:"name"`
	Content    decChatContent `json:"content"`
	ToolCalls  []decChatCall  `json:"tool_calls"`
	ToolCallID string         `json:"tool_call_id"`
	// FunctionCall is the deprecated single call of an assistant message.
	FunctionCall *decChatFunction `json:"function_call"`
	// Refusal is an assistant's refusal text.
	Refusal string `json:"refusal"`
	// ReasoningContent is the thinking that Moonshot's and DeepSeek's
	// OpenAI-compatible APIs take back on assistant messages.
	ReasoningContent string `json:"reasoning_content"`
}

type decChatCall struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function decChatFunction `json:"function"`
	Custom   struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

type decChatFunction struct {
	Name      string        `json:"name"`
	Arguments decChatString `json:"arguments"`
}

// decChatString is a string as sent; a non-string value (some clients send
// arguments as an object) is kept as its compact JSON, null as "". It is the
// one reading of a tool call's arguments, in bodies and in recordings.
type decChatString string

func (s *decChatString) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == '"' {
		var v string
		err := json.UnmarshalDecode(dec, &v)
		*s = decChatString(v)
		return err
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if raw.Kind() != 'n' {
		*s = decChatString(decCompact(raw))
	}
	return nil
}

// decChatContent is a message's content: a string or an array of parts.
type decChatContent struct {
	Str   string
	IsStr bool
	Parts []decChatPart
}

func (c *decChatContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
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
		return fmt.Errorf("content is a JSON %s, want a string or an array of parts", kindName(k))
	}
}

type decChatPart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
	// ImageURL is {"url": ...} in Chat and a plain string in Responses.
	ImageURL   decURL `json:"image_url"`
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

// decURL is an image URL given as a string or as {"url": ...}.
type decURL struct{ URL string }

func (u *decURL) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
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

func decodeOpenAIChat(s *decShape, b *Builder, c *decCache) error {
	if m := s.get("model"); m != nil {
		if err := decStringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	if err := decToolElements(b, c, s.get("tools")); err != nil {
		return err
	}
	// functions is the deprecated predecessor of tools.
	err := decElements(b, c, nil, decSectFunctions, s.get("functions"), func(i int, el jsontext.Value) error {
		var f decTool
		if err := unmarshal(el, &f); err != nil {
			return err
		}
		b.Add(Part{ID: decIndex("functions", i), Channel: ChannelTools, Role: "tool", Type: "tool", Name: f.Name, Text: decCompact(f.Raw)})
		return nil
	})
	if err != nil {
		return err
	}
	names := newDecNames() // tool call id -> function name
	return decElements(b, c, names, decSectMessages, s.get("messages"), func(i int, el jsontext.Value) error {
		var m decChatMessage
		if err := unmarshal(el, &m); err != nil {
			return err
		}
		decChatMessageParts(b, decIndex("messages", i), &m, names)
		return nil
	})
}

// decChatMessageParts adds the parts of one Chat Completions message.
func decChatMessageParts(b *Builder, id string, m *decChatMessage, names *decNames) {
	ch := ChannelMessages
	if m.Role == "system" || m.Role == "developer" {
		ch = ChannelSystem
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
		b.Add(Part{ID: id + ".reasoning_content", Channel: ch, Role: m.Role, Type: "reasoning", Text: m.ReasoningContent})
	}
	if m.Content.IsStr {
		b.Add(Part{ID: id, Channel: ch, Role: m.Role, Type: typ, Name: name, Text: m.Content.Str})
	}
	for j := range m.Content.Parts {
		p := &m.Content.Parts[j]
		t := typ
		if p.Type == "refusal" {
			t = "refusal"
		}
		b.Add(Part{ID: decIndex(id+".content", j), Channel: ch, Role: m.Role, Type: t, Name: name, Text: decChatPartText(p)})
	}
	if m.Refusal != "" {
		b.Add(Part{ID: id + ".refusal", Channel: ch, Role: m.Role, Type: "refusal", Text: m.Refusal})
	}
	if m.FunctionCall != nil {
		b.Add(Part{ID: id + ".function_call", Channel: ch, Role: m.Role, Type: "tool_call",
			Name: m.FunctionCall.Name, Text: string(m.FunctionCall.Arguments)})
	}
	for k := range m.ToolCalls {
		c := &m.ToolCalls[k]
		name, text := c.Function.Name, string(c.Function.Arguments)
		if c.Type == "custom" {
			name, text = c.Custom.Name, c.Custom.Input
		}
		names.def(c.ID, name)
		b.Add(Part{ID: decIndex(id+".tool_calls", k), Channel: ch, Role: m.Role, Type: "tool_call", Name: name, Text: text})
	}
}

// decChatPartText is the text of one content part; binary parts become a
// placeholder.
func decChatPartText(p *decChatPart) string {
	switch p.Type {
	case "text", "input_text", "output_text":
		return p.Text
	case "refusal":
		return p.Refusal
	case "image_url":
		return decDataURL("image", p.ImageURL.URL)
	case "input_audio":
		return decMedia("audio", p.InputAudio.Format, len(p.InputAudio.Data))
	case "file":
		switch {
		case p.File.FileData != "":
			return decDataURL("file "+p.File.Filename, p.File.FileData)
		case p.File.FileID != "":
			return decMediaRef("file", p.File.FileID)
		}
		return decMediaRef("file", p.File.Filename)
	}
	if p.Text != "" {
		return p.Text
	}
	return "[" + p.Type + "]"
}
