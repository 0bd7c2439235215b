package wire

import (
	"github.com/go-json-experiment/json/jsontext"
)

// Gemini generateContent request bodies (POST .../models/M:generateContent
// and :streamGenerateContent). The REST API accepts camelCase and
// snake_case member names; both are read.

func init() {
	bodyDecoders[FormatGemini] = decodeGemini
}

type decGeminiContent struct {
	Role  string          `json:"role"`
	Parts []decGeminiPart `json:"parts"`
}

type decGeminiPart struct {
	Text              string           `json:"text"`
	Thought           bool             `json:"thought"`
	FunctionCall      *decGeminiCall   `json:"functionCall"`
	FunctionCall2     *decGeminiCall   `json:"function_call"`
	FunctionResponse  *decGeminiCall   `json:"functionResponse"`
	FunctionResponse2 *decGeminiCall   `json:"function_response"`
	InlineData        *decGeminiBlob   `json:"inlineData"`
	InlineData2       *decGeminiBlob   `json:"inline_data"`
	FileData          *decGeminiBlob   `json:"fileData"`
	FileData2         *decGeminiBlob   `json:"file_data"`
	ExecutableCode    *decGeminiCode   `json:"executableCode"`
	ExecutableCode2   *decGeminiCode   `json:"executable_code"`
	CodeResult        *decGeminiResult `json:"codeExecutionResult"`
	CodeResult2       *decGeminiResult `json:"code_execution_result"`
}

type decGeminiCall struct {
	Name     string         `json:"name"`
	Args     jsontext.Value `json:"args"`
	Response jsontext.Value `json:"response"`
}

type decGeminiBlob struct {
	MimeType  string `json:"mimeType"`
	MimeType2 string `json:"mime_type"`
	Data      string `json:"data"`
	FileURI   string `json:"fileUri"`
	FileURI2  string `json:"file_uri"`
}

type decGeminiCode struct {
	Language string `json:"language"`
	Code     string `json:"code"`
}

type decGeminiResult struct {
	Outcome string `json:"outcome"`
	Output  string `json:"output"`
}

func decodeGemini(s *decShape, b *Builder, c *decCache) error {
	if m := s.get("model"); m != nil {
		if err := decStringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	b.Req.Model = decGeminiModel(b.Req.Model)
	err := decElements(b, c, nil, decSectTools, s.get("tools"), func(i int, el jsontext.Value) error {
		var t decTool
		if err := unmarshal(el, &t); err != nil {
			return err
		}
		if len(t.Declarations) == 0 {
			b.Add(Part{ID: decIndex("tools", i), Channel: ChannelTools, Role: "tool", Type: "tool", Name: t.Name, Text: decCompact(t.Raw)})
			return nil
		}
		for j, fd := range t.Declarations {
			b.Add(Part{ID: decIndex(decIndex("tools", i)+"."+t.DeclKey, j), Channel: ChannelTools, Role: "tool", Type: "tool",
				Name: fd.Name, Text: decCompact(fd.Raw)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	sys := s.get("systemInstruction")
	if sys == nil || sys.v.Kind() == 'n' {
		sys = s.get("system_instruction")
	}
	if sys != nil && sys.v.Kind() != 'n' {
		var si decGeminiContent
		if err := decAt("/"+sys.name, sys.off, unmarshal(sys.v, &si)); err != nil {
			return err
		}
		for j := range si.Parts {
			decGeminiAddPart(b, decIndex(sys.name+".parts", j), ChannelSystem, "system", &si.Parts[j])
		}
	}
	return decElements(b, c, nil, decSectContents, s.get("contents"), func(i int, el jsontext.Value) error {
		var ct decGeminiContent
		if err := unmarshal(el, &ct); err != nil {
			return err
		}
		role := ct.Role
		if role == "" {
			role = "user"
		}
		for j := range ct.Parts {
			decGeminiAddPart(b, decIndex(decIndex("contents", i)+".parts", j), ChannelMessages, role, &ct.Parts[j])
		}
		return nil
	})
}

// decGeminiModel strips the "models/" prefix a model name may carry.
func decGeminiModel(m string) string {
	if len(m) > 7 && m[:7] == "models/" {
		return m[7:]
	}
	return m
}

func decGeminiAddPart(b *Builder, id string, ch Channel, role string, p *decGeminiPart) {
	part := Part{ID: id, Channel: ch, Role: role, Type: "text", Text: p.Text}
	first := func(a, b *decGeminiCall) *decGeminiCall {
		if a != nil {
			return a
		}
		return b
	}
	blob := func(a, b *decGeminiBlob) *decGeminiBlob {
		if a != nil {
			return a
		}
		return b
	}
	if fc := first(p.FunctionCall, p.FunctionCall2); fc != nil {
		part.Type, part.Name, part.Text = "functionCall", fc.Name, decCompact(fc.Args)
	} else if fr := first(p.FunctionResponse, p.FunctionResponse2); fr != nil {
		part.Type, part.Name, part.Text = "functionResponse", fr.Name, decCompact(fr.Response)
	} else if d := blob(p.InlineData, p.InlineData2); d != nil {
		part.Type, part.Text = "inlineData", decMedia("inlineData", d.MimeType+d.MimeType2, len(d.Data))
	} else if d := blob(p.FileData, p.FileData2); d != nil {
		part.Type, part.Text = "fileData", decMediaRef("fileData", d.MimeType+d.MimeType2+" "+d.FileURI+d.FileURI2)
	} else if c := p.ExecutableCode; c != nil || p.ExecutableCode2 != nil {
		if c == nil {
			c = p.ExecutableCode2
		}
		part.Type, part.Text = "executableCode", c.Code
	} else if r := p.CodeResult; r != nil || p.CodeResult2 != nil {
		if r == nil {
			r = p.CodeResult2
		}
		part.Type, part.Text = "codeExecutionResult", r.Output
	} else if p.Thought {
		part.Type = "thinking"
	}
	b.Add(part)
}
