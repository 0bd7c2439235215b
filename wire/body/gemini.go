package body

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// Gemini generateContent request bodies (POST .../models/M:generateContent
// and :streamGenerateContent). The REST API accepts camelCase and
// snake_case member names; both are read.

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []GeminiPart `json:"parts"`
}

type GeminiPart struct {
	Text              string        `json:"text"`
	Thought           bool          `json:"thought"`
	FunctionCall      *geminiCall   `json:"functionCall"`
	FunctionCall2     *geminiCall   `json:"function_call"`
	FunctionResponse  *geminiCall   `json:"functionResponse"`
	FunctionResponse2 *geminiCall   `json:"function_response"`
	InlineData        *geminiBlob   `json:"inlineData"`
	InlineData2       *geminiBlob   `json:"inline_data"`
	FileData          *geminiBlob   `json:"fileData"`
	FileData2         *geminiBlob   `json:"file_data"`
	ExecutableCode    *geminiCode   `json:"executableCode"`
	ExecutableCode2   *geminiCode   `json:"executable_code"`
	CodeResult        *geminiResult `json:"codeExecutionResult"`
	CodeResult2       *geminiResult `json:"code_execution_result"`
}

type geminiCall struct {
	Name     string         `json:"name"`
	Args     jsontext.Value `json:"args"`
	Response jsontext.Value `json:"response"`
}

type geminiBlob struct {
	MimeType  string `json:"mimeType"`
	MimeType2 string `json:"mime_type"`
	Data      string `json:"data"`
	FileURI   string `json:"fileUri"`
	FileURI2  string `json:"file_uri"`
}

type geminiCode struct {
	Language string `json:"language"`
	Code     string `json:"code"`
}

type geminiResult struct {
	Outcome string `json:"outcome"`
	Output  string `json:"output"`
}

func decodeGemini(s *Shape, b *classify.Builder, c *ElementCache) error {
	if m := s.get("model"); m != nil {
		if err := stringMember(m.v, "/model", m.off, &b.Req.Model); err != nil {
			return err
		}
	}
	b.Req.Model = geminiModel(b.Req.Model)
	err := elements(b, c, nil, sectTools, s.get("tools"), func(i int, el jsontext.Value) error {
		var t toolSchema
		if err := Unmarshal(el, &t); err != nil {
			return err
		}
		if len(t.Declarations) == 0 {
			b.Add(wire.Part{ID: IndexPath("tools", i), Channel: wire.ChannelTools, Role: "tool", Type: "tool", Name: t.Name, Text: Compact(t.Raw)})
			return nil
		}
		for j, fd := range t.Declarations {
			b.Add(wire.Part{ID: IndexPath(IndexPath("tools", i)+"."+t.DeclKey, j), Channel: wire.ChannelTools, Role: "tool", Type: "tool",
				Name: fd.Name, Text: Compact(fd.Raw)})
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
		if b.Cwd == "" {
			// The skills listed in the system instruction are told apart by
			// the working directory the first message names.
			b.Cwd = geminiCwd(s.get("contents"))
			defer func() { b.Cwd = "" }()
		}
		var si geminiContent
		if err := errAt("/"+sys.name, sys.off, Unmarshal(sys.v, &si)); err != nil {
			return err
		}
		for j := range si.Parts {
			geminiAddPart(b, IndexPath(sys.name+".parts", j), wire.ChannelSystem, "system", &si.Parts[j])
		}
	}
	return elements(b, c, nil, sectContents, s.get("contents"), func(i int, el jsontext.Value) error {
		var ct geminiContent
		if err := Unmarshal(el, &ct); err != nil {
			return err
		}
		role := ct.Role
		if role == "" {
			role = "user"
		}
		for j := range ct.Parts {
			geminiAddPart(b, IndexPath(IndexPath("contents", i)+".parts", j), wire.ChannelMessages, role, &ct.Parts[j])
		}
		return nil
	})
}

// geminiCwd is the working directory Gemini CLI's session context names
// in the first content, or "".
func geminiCwd(contents *member) string {
	for _, el := range contents.elems() {
		var ct geminiContent
		if Unmarshal(el.v, &ct) != nil {
			return ""
		}
		for _, p := range ct.Parts {
			if dir := classify.SessionCwd(p.Text); dir != "" {
				return dir
			}
		}
		return ""
	}
	return ""
}

// geminiModel strips the "models/" prefix a model name may carry.
func geminiModel(m string) string {
	if len(m) > 7 && m[:7] == "models/" {
		return m[7:]
	}
	return m
}

func geminiAddPart(b *classify.Builder, id string, ch wire.Channel, role string, p *GeminiPart) {
	b.Add(GeminiPartOf(id, ch, role, p))
}

// GeminiPartOf is the wire part of one Gemini Part (the API's JSON, in
// camelCase or snake_case): text, a function call or response, media, code,
// or a thought. Gemini CLI's session files record the same parts.
func GeminiPartOf(id string, ch wire.Channel, role string, p *GeminiPart) wire.Part {
	part := wire.Part{ID: id, Channel: ch, Role: role, Type: "text", Text: p.Text}
	first := func(a, b *geminiCall) *geminiCall {
		if a != nil {
			return a
		}
		return b
	}
	blob := func(a, b *geminiBlob) *geminiBlob {
		if a != nil {
			return a
		}
		return b
	}
	if fc := first(p.FunctionCall, p.FunctionCall2); fc != nil {
		part.Type, part.Name, part.Text = "functionCall", fc.Name, Compact(fc.Args)
	} else if fr := first(p.FunctionResponse, p.FunctionResponse2); fr != nil {
		part.Type, part.Name, part.Text = "functionResponse", fr.Name, Compact(fr.Response)
	} else if d := blob(p.InlineData, p.InlineData2); d != nil {
		part.Type, part.Text = "inlineData", mediaText("inlineData", d.MimeType+d.MimeType2, len(d.Data))
	} else if d := blob(p.FileData, p.FileData2); d != nil {
		part.Type, part.Text = "fileData", mediaRefText("fileData", d.MimeType+d.MimeType2+" "+d.FileURI+d.FileURI2)
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
	return part
}
