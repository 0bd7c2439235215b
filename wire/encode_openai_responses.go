package wire

import "strings"

// The OpenAI Responses body: the system text as instructions (blocks joined
// by a blank line), the messages as input message items with input_text
// parts (output_text for the assistant).

type encResponsesBody struct {
	Model        string             `json:"model"`
	Instructions string             `json:"instructions,omitempty"`
	Input        []encResponsesItem `json:"input"`
}

type encResponsesItem struct {
	Type    string             `json:"type"`
	Role    string             `json:"role"`
	Content []encResponsesPart `json:"content"`
}

type encResponsesPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// encResponsesJoin joins system blocks into the one instructions string.
func encResponsesJoin(d *Draft) string {
	var parts []string
	for _, b := range d.System {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n")
}

func init() {
	encoders[FormatOpenAIResponses] = encoder{
		// The system blocks become one instructions string.
		normalise: func(d Draft) Draft {
			if len(d.System) > 1 {
				d.System = []DraftBlock{{Text: encResponsesJoin(&d)}}
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
					msgs[i] = append(msgs[i], encIndex(encIndex("input", i)+".content", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := encResponsesBody{Model: d.Model, Instructions: encResponsesJoin(d), Input: []encResponsesItem{}}
			for _, m := range d.Messages {
				role := encRole(FormatOpenAIResponses, m.Role)
				typ := "input_text"
				if role == "assistant" {
					typ = "output_text"
				}
				item := encResponsesItem{Type: "message", Role: role, Content: []encResponsesPart{}}
				for _, b := range m.Blocks {
					item.Content = append(item.Content, encResponsesPart{Type: typ, Text: b.Text})
				}
				body.Input = append(body.Input, item)
			}
			return body
		},
	}
}
