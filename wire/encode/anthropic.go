package encode

import (
	"strconv"

	"github.com/wirelens/wirelens/wire"
)

// The Anthropic Messages body: system as text blocks (so that a cache
// breakpoint can sit on one), messages with content as text blocks.

type anthropicBody struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    []anthropicBlock   `json:"system,omitempty"`
	Messages  []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

type anthropicBlock struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// maxTokens is the output budget written where a format requires one.
const maxTokens = 4096

func init() {
	encoders[wire.FormatAnthropic] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = indexPath("system", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], indexPath(indexPath("messages", i)+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := anthropicBody{Model: d.Model, MaxTokens: maxTokens, Messages: []anthropicMessage{}}
			block := func(b DraftBlock) anthropicBlock {
				out := anthropicBlock{Type: "text", Text: b.Text}
				if b.CacheBreakpoint {
					out.CacheControl = &cacheControl{Type: "ephemeral"}
				}
				return out
			}
			for _, b := range d.System {
				body.System = append(body.System, block(b))
			}
			for _, m := range d.Messages {
				msg := anthropicMessage{Role: roleFor(wire.FormatAnthropic, m.Role), Content: []anthropicBlock{}}
				for _, b := range m.Blocks {
					msg.Content = append(msg.Content, block(b))
				}
				body.Messages = append(body.Messages, msg)
			}
			return body
		},
	}
}

// indexPath is name[i].
func indexPath(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }
