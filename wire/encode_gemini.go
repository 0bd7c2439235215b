package wire

// The Gemini generateContent body: systemInstruction with one text part per
// system block, contents with user and model turns of text parts. The model
// travels in the URL; it is written in the body's optional model member too,
// so that the body alone names it.

type encGeminiBody struct {
	Model             string             `json:"model,omitempty"`
	SystemInstruction *encGeminiContent  `json:"systemInstruction,omitempty"`
	Contents          []encGeminiContent `json:"contents"`
}

type encGeminiContent struct {
	Role  string          `json:"role,omitempty"`
	Parts []encGeminiPart `json:"parts"`
}

type encGeminiPart struct {
	Text string `json:"text"`
}

func init() {
	encoders[FormatGemini] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = encIndex("systemInstruction.parts", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], encIndex(encIndex("contents", i)+".parts", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := encGeminiBody{Model: d.Model, Contents: []encGeminiContent{}}
			if len(d.System) > 0 {
				body.SystemInstruction = &encGeminiContent{Parts: []encGeminiPart{}}
				for _, b := range d.System {
					body.SystemInstruction.Parts = append(body.SystemInstruction.Parts, encGeminiPart{Text: b.Text})
				}
			}
			for _, m := range d.Messages {
				c := encGeminiContent{Role: encRole(FormatGemini, m.Role), Parts: []encGeminiPart{}}
				for _, b := range m.Blocks {
					c.Parts = append(c.Parts, encGeminiPart{Text: b.Text})
				}
				body.Contents = append(body.Contents, c)
			}
			return body
		},
	}
}
