package encode

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// The OpenAI Responses body: the system text as instructions (blocks joined
// by a blank line), the messages as input message items with input_text
// parts (output_text for the assistant).

type responsesBody struct {
	Model        string          `json:"model"`
	Instructions string          `json:"instructions,omitempty"`
	Input        []responsesItem `json:"input"`
}

type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content []responsesPart `json:"content"`
}

type responsesPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// responsesJoin joins system blocks into the one instructions string.
func responsesJoin(d *Draft) string {
	var parts []string
	for _, b := range d.System {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n")
}

func init() {
	encoders[wire.FormatOpenAIResponses] = encoder{
		// The system blocks become one instructions string.
		normalise: func(d Draft) Draft {
			if len(d.System) > 1 {
				d.System = []DraftBlock{{Text: responsesJoin(&d)}}
			}
			return d
		},
		ids: func(d *Draft) ([]string, [][]string) {
			var sys []string
			if len(d.System) > 0 {
				sys = []string{"instructions"}
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], indexPath(indexPath("input", i)+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := responsesBody{Model: d.Model, Instructions: responsesJoin(d), Input: []responsesItem{}}
			for _, m := range d.Messages {
				role := roleFor(wire.FormatOpenAIResponses, m.Role)
				typ := "input_text"
				if role == "assistant" {
					typ = "output_text"
				}
				item := responsesItem{Type: "message", Role: role, Content: []responsesPart{}}
				for _, b := range m.Blocks {
					item.Content = append(item.Content, responsesPart{Type: typ, Text: b.Text})
				}
				body.Input = append(body.Input, item)
			}
			return body
		},
	}
}
