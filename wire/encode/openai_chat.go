package encode

import "github.com/wirelens/wirelens/wire"

// The OpenAI Chat Completions body: each system block a system message with
// string content; each user or assistant message with string content when it
// has one block, text parts otherwise.

type chatBody struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // string or []chatPart
}

type chatPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func init() {
	encoders[wire.FormatOpenAIChat] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = indexPath("messages", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				id := indexPath("messages", len(d.System)+i)
				if len(m.Blocks) == 1 {
					msgs[i] = []string{id}
					continue
				}
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], indexPath(id+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := chatBody{Model: d.Model, Messages: []chatMessage{}}
			for _, b := range d.System {
				body.Messages = append(body.Messages, chatMessage{Role: "system", Content: b.Text})
			}
			for _, m := range d.Messages {
				msg := chatMessage{Role: roleFor(wire.FormatOpenAIChat, m.Role)}
				if len(m.Blocks) == 1 {
					msg.Content = m.Blocks[0].Text
				} else {
					parts := []chatPart{}
					for _, b := range m.Blocks {
						parts = append(parts, chatPart{Type: "text", Text: b.Text})
					}
					msg.Content = parts
				}
				body.Messages = append(body.Messages, msg)
			}
			return body
		},
	}
}
