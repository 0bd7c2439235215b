package wire

// The Anthropic Messages body: system as text blocks (so that a cache
// breakpoint can sit on one), messages with content as text blocks.

type encAnthropicBody struct {
	Model     string                `json:"model"`
	MaxTokens int                   `json:"max_tokens"`
	System    []encAnthropicBlock   `json:"system,omitempty"`
	Messages  []encAnthropicMessage `json:"messages"`
}

type encAnthropicMessage struct {
	Role    string              `json:"role"`
	Content []encAnthropicBlock `json:"content"`
}

type encAnthropicBlock struct {
	Type         string           `json:"type"`
	Text         string           `json:"text"`
	CacheControl *encCacheControl `json:"cache_control,omitempty"`
}

type encCacheControl struct {
	Type string `json:"type"`
}

// encMaxTokens is the output budget written where a format requires one.
const encMaxTokens = 4096

func init() {
	encoders[FormatAnthropic] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = encIndex("system", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], encIndex(encIndex("messages", i)+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := encAnthropicBody{Model: d.Model, MaxTokens: encMaxTokens, Messages: []encAnthropicMessage{}}
			block := func(b DraftBlock) encAnthropicBlock {
				out := encAnthropicBlock{Type: "text", Text: b.Text}
				if b.CacheBreakpoint {
					out.CacheControl = &encCacheControl{Type: "ephemeral"}
				}
				return out
			}
			for _, b := range d.System {
				body.System = append(body.System, block(b))
			}
			for _, m := range d.Messages {
				msg := encAnthropicMessage{Role: encRole(FormatAnthropic, m.Role), Content: []encAnthropicBlock{}}
				for _, b := range m.Blocks {
					msg.Content = append(msg.Content, block(b))
				}
				body.Messages = append(body.Messages, msg)
			}
			return body
		},
	}
}

// encIndex is name[i].
func encIndex(name string, i int) string { return name + "[" + itoa(i) + "]" }
