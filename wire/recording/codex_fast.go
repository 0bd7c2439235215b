package recording

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire/body"
)

// The lines of a Codex rollout read with the token reader, member by
// member, as json.Unmarshal reads them into codexLine (reflection was most
// of the Codex reader's time on a folder). A member that json.Unmarshal
// would merge when it comes twice (an object read into a struct), a
// replacement_history (compactions are rare), an argument that is not a
// string, or anything the reader itself gives up on makes the fast read
// give up: the line is then unmarshalled as before.

// read reads a line into r (its zero value) as json.Unmarshal would, or
// gives up (false).
func (r *codexLine) read(raw []byte) bool {
	ok, _ := r.readASCII(raw)
	return ok
}

// readASCII is read, and whether the line is ASCII (body.Reader.ASCII).
func (r *codexLine) readASCII(raw []byte) (ok, ascii bool) {
	w := body.NewReader(raw)
	defer w.Done()
	seen := false
	ok = w.Object(func(name []byte) bool {
		switch string(name) {
		case "timestamp":
			return w.String(&r.Timestamp)
		case "type":
			return w.Word(&r.Type)
		case "payload":
			if seen {
				return false
			}
			seen = true
			if w.Peek() == 'n' {
				r.Payload = nil
				return w.Null()
			}
			r.Payload = &codexPayload{}
			return r.Payload.read(w)
		case "record_type":
			return w.Word(&r.RecordType)
		case "id":
			return w.String(&r.ID)
		case "instructions":
			return w.Value(&r.Instructions)
		case "cli_version":
			return w.Word(&r.CLIVersion)
		}
		return w.Skip()
	}) && w.End()
	return ok, ok && w.ASCII()
}

// unmarshalPayload reads raw into p (its zero value) as json.Unmarshal
// would, the token reader first; it is what body.Unmarshal(raw, p) == nil
// would be.
func unmarshalPayload(raw []byte, p *codexPayload) bool {
	if readCodexPayload(raw, p) {
		return true
	}
	*p = codexPayload{}
	return body.Unmarshal(raw, p) == nil
}

// readCodexPayload reads raw (an early rollout's line: a payload without
// the envelope) into p (its zero value) as json.Unmarshal would, or gives
// up.
func readCodexPayload(raw []byte, p *codexPayload) bool {
	w := body.NewReader(raw)
	defer w.Done()
	return p.read(w) && w.End()
}

// read reads a payload object from w.
func (p *codexPayload) read(w *body.Reader) bool {
	var seenBase, seenInfo bool
	return w.Object(func(name []byte) bool {
		switch string(name) {
		case "type":
			return w.Word(&p.Type)
		case "cli_version":
			return w.Word(&p.CLIVersion)
		case "instructions":
			return w.Value(&p.Instructions)
		case "base_instructions":
			if seenBase {
				return false
			}
			seenBase = true
			return readBaseInstructions(w, &p.BaseInstructions.Text)
		case "model":
			return w.Word(&p.Model)
		case "cwd":
			return w.Word(&p.Cwd)
		case "approval_policy":
			return w.Value(&p.ApprovalPolicy)
		case "role":
			return w.Word(&p.Role)
		case "content":
			return w.Value(&p.Content)
		case "name":
			return w.Word(&p.Name)
		case "arguments":
			return readChatString(w, &p.Arguments)
		case "input":
			return readChatString(w, &p.Input)
		case "call_id":
			return w.String(&p.CallID)
		case "output":
			return w.Value(&p.Output)
		case "summary":
			return w.Value(&p.Summary)
		case "action":
			return w.Value(&p.Action)
		case "info":
			if seenInfo {
				return false
			}
			seenInfo = true
			return readCodexInfo(w, &p.Info)
		case "input_tokens":
			return w.IntPtr(&p.InputTokens)
		case "cached_input_tokens":
			return w.Int(&p.CachedInputTokens)
		case "output_tokens":
			return w.Int(&p.OutputTokens)
		case "message":
			return w.Value(&p.Message)
		case "replacement_history":
			return false
		}
		return w.Skip()
	})
}

// readBaseInstructions reads base_instructions (an object, or null for
// none) into its text.
func readBaseInstructions(w *body.Reader, text *string) bool {
	if w.Peek() == 'n' {
		*text = ""
		return w.Null()
	}
	return w.Object(func(name []byte) bool {
		if string(name) == "text" {
			return w.String(text)
		}
		return w.Skip()
	})
}

// readChatString reads a string (or null, which leaves dst as it is) as
// body.ChatString reads it; another value gives up.
func readChatString(w *body.Reader, dst *body.ChatString) bool {
	switch w.Peek() {
	case 'n':
		return w.Null()
	case '"':
		var s string
		if !w.String(&s) {
			return false
		}
		*dst = body.ChatString(s)
		return true
	}
	return false
}

// readCodexInfo reads a token_count's info (an object, or null).
func readCodexInfo(w *body.Reader, dst **codexInfo) bool {
	if w.Peek() == 'n' {
		*dst = nil
		return w.Null()
	}
	info := &codexInfo{}
	*dst = info
	var seenLast, seenTotal bool
	return w.Object(func(name []byte) bool {
		switch string(name) {
		case "last_token_usage":
			if seenLast {
				return false
			}
			seenLast = true
			return readCodexTokens(w, &info.LastTokenUsage)
		case "total_token_usage":
			if seenTotal {
				return false
			}
			seenTotal = true
			return readCodexTokens(w, &info.TotalTokenUsage)
		}
		return w.Skip()
	})
}

// readCodexTokens reads token counts (an object, or null).
func readCodexTokens(w *body.Reader, dst **codexTokens) bool {
	if w.Peek() == 'n' {
		*dst = nil
		return w.Null()
	}
	t := &codexTokens{}
	*dst = t
	return w.Object(func(name []byte) bool {
		switch string(name) {
		case "input_tokens":
			return w.Int(&t.InputTokens)
		case "cached_input_tokens":
			return w.Int(&t.CachedInputTokens)
		case "output_tokens":
			return w.Int(&t.OutputTokens)
		}
		return w.Skip()
	})
}

// codexTexts reads v (content items: an array of objects, or null) into
// *ts as json.Unmarshal would, the token reader first; it is what
// body.Unmarshal(v, ts) == nil would be.
func codexTexts(v jsontext.Value, ts *[]codexText) bool {
	if readCodexTexts(v, ts) {
		return true
	}
	*ts = nil
	return body.Unmarshal(v, ts) == nil
}

func readCodexTexts(v jsontext.Value, ts *[]codexText) bool {
	w := body.NewReader(v)
	defer w.Done()
	switch w.Peek() {
	case 'n':
		*ts = nil
		return w.Null() && w.End()
	case '[':
	default:
		return false
	}
	out := []codexText{}
	ok := w.Array(func() bool {
		out = append(out, codexText{})
		t := &out[len(out)-1]
		if w.Peek() == 'n' {
			return w.Null()
		}
		return w.Object(func(name []byte) bool {
			switch string(name) {
			case "type":
				return w.Word(&t.Type)
			case "text":
				return w.String(&t.Text)
			case "image_url":
				return w.String(&t.ImageURL)
			}
			return w.Skip()
		})
	}) && w.End()
	*ts = out
	return ok
}
