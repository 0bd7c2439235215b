package wire

// The OpenAI Chat Completions body: each system block a system message with
// string content; each user or assistant message with string content when it
// has one block, text parts otherwise.

type encChatBody struct {
	Model    string           `json:"model"`
	Messages []encChatMessage `json:"messages"`
}

type encChatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // string or []encChatPart
}

type encChatPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func init() {
	encoders[FormatOpenAIChat] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = encIndex("messages", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				id := encIndex("messages", len(d.System)+i)
				if len(m.Blocks) == 1 {
					msgs[i] = []string{id}
					continue
				}
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], encIndex(id+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := encChatBody{Model: d.Model, Messages: []encChatMessage{}}
			for _, b := range d.System {
				body.Messages = append(body.Messages, encChatMessage{Role: "system", Content: b.Text})
			}
			for _, m := range d.Messages {
				msg := encChatMessage{Role: encRole(FormatOpenAIChat, m.Role)}
				if len(m.Blocks) == 1 {
					msg.Content = m.Blocks[0].Text
				} else {
					parts := []encChatPart{}
					for _, b := range m.Blocks {
						parts = append(parts, encChatPart{Type: "text", Text: b.Text})
					}
					msg.Content = parts
				}
				body.Messages = append(body.Messages, msg)
			}
			return body
		},
	}
}
