package encode

import "github.com/wirelens/wirelens/wire"

// The Gemini generateContent body: systemInstruction with one text part per
// system block, contents with user and model turns of text parts. The model
// travels in the URL; it is written in the body's optional model member too,
// so that the body alone names it.

type geminiBody struct {
	Model             string          `json:"model,omitempty"`
	SystemInstruction *geminiContent  `json:"systemInstruction,omitempty"`
	Contents          []geminiContent `json:"contents"`
}

type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text string `json:"text"`
}

func init() {
	encoders[wire.FormatGemini] = encoder{
		ids: func(d *Draft) ([]string, [][]string) {
			sys := make([]string, len(d.System))
			for i := range d.System {
				sys[i] = indexPath("systemInstruction.parts", i)
			}
			msgs := make([][]string, len(d.Messages))
			for i, m := range d.Messages {
				for j := range m.Blocks {
					msgs[i] = append(msgs[i], indexPath(indexPath("contents", i)+".parts", j))
				}
			}
			return sys, msgs
		},
		body: func(d *Draft) any {
			body := geminiBody{Model: d.Model, Contents: []geminiContent{}}
			if len(d.System) > 0 {
				body.SystemInstruction = &geminiContent{Parts: []geminiPart{}}
				for _, b := range d.System {
					body.SystemInstruction.Parts = append(body.SystemInstruction.Parts, geminiPart{Text: b.Text})
				}
			}
			for _, m := range d.Messages {
				c := geminiContent{Role: roleFor(wire.FormatGemini, m.Role), Parts: []geminiPart{}}
				for _, b := range m.Blocks {
					c.Parts = append(c.Parts, geminiPart{Text: b.Text})
				}
				body.Contents = append(body.Contents, c)
			}
			return body
		},
	}
}
