package body

import (
	"bytes"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// The hot shapes (an Anthropic content block, an agent's transcript entry)
// are read with the streaming token reader, member by member, instead of
// json.Unmarshal's reflection: a line of a transcript is read once, its
// strings copied once. A value of an unexpected kind, a duplicate member
// that is an object or an array, or a member name with escapes makes the
// fast read give up (ok false): the caller then unmarshals as before, so
// that every error and every odd input reads as it did.

// Reader reads one JSON object from raw with the walks' options. Readers
// come from a pool (NewReader) and go back with Done.
type Reader struct {
	Dec *jsontext.Decoder
	// r holds the text read: a decoder over a bytes.Buffer parses it in
	// place, where over any other reader it copies it into a buffer of
	// its own, grown (and copied again) to hold a long string whole.
	r   bytes.Buffer
	src []byte // what it reads: the text of a value read member by member
	buf []byte // scratch for unquoting
	// In, when set, holds the texts Text reads: a text met before (the
	// same tool result in the next transcript of a folder) is the held
	// copy, not a new one. Only Text shares; String always copies.
	In    *wire.Interner
	words map[string]string // the values Word read (kept across uses of the pooled reader)
}

var objReaders = sync.Pool{New: func() any {
	w := &Reader{}
	w.Dec = jsontext.NewDecoder(&w.r, WalkOpts...)
	return w
}}

// NewReader is a pooled reader over raw.
func NewReader(raw []byte) *Reader {
	w := objReaders.Get().(*Reader)
	w.src = raw
	w.r = *bytes.NewBuffer(raw)
	w.Dec.Reset(&w.r, WalkOpts...)
	return w
}

// Done gives the reader back; nothing it read may be used after.
func (w *Reader) Done() {
	w.src, w.In = nil, nil
	w.r = bytes.Buffer{}
	w.Dec.Reset(&w.r, WalkOpts...)
	objReaders.Put(w)
}

// Object reads the '{' that opens an object, then calls member with each
// member's name (its raw text between the quotes), and reads the closing
// '}'. member reads the value (or skips it) and reports whether to go on.
// Object is false when the value is not an object, a name holds an escape,
// member gave up, or the JSON is broken.
func (w *Reader) Object(member func(name []byte) bool) bool {
	tok, err := w.Dec.ReadToken()
	if err != nil || tok.Kind() != '{' {
		return false
	}
	for w.Dec.PeekKind() == '"' {
		v, err := w.Dec.ReadValue()
		if err != nil || len(v) < 2 {
			return false
		}
		name := v[1 : len(v)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		if !member(name) {
			return false
		}
	}
	tok, err = w.Dec.ReadToken()
	return err == nil && tok.Kind() == '}'
}

// String reads a string (or null, which is "") into dst.
func (w *Reader) String(dst *string) bool { return w.str(dst, nil, "") }

// StringAs reads a string (or null) into dst as String does, known itself
// when the string is known (no copy made).
func (w *Reader) StringAs(dst *string, known string) bool {
	if known == "" {
		return w.String(dst)
	}
	return w.str(dst, nil, known)
}

// Text reads a string (or null) into dst as String does, its text shared
// through In when it is set.
func (w *Reader) Text(dst *string) bool { return w.str(dst, w.In, "") }

// Word reads a string (or null) into dst as String does, for the members
// whose few values repeat on every line (a type, a role, a model, a
// version, a working directory): a value of at most maxWord bytes read
// before by this reader is the copy made then.
func (w *Reader) Word(dst *string) bool {
	if w.Dec.PeekKind() != '"' {
		return w.String(dst)
	}
	v, err := w.Dec.ReadValue()
	if err != nil || len(v) < 2 {
		return false
	}
	text, escaped, ok := w.unquote(v)
	if !ok {
		return false
	}
	if escaped || len(text) > maxWord {
		*dst = string(text) // unquoted in the scratch buffer, or too long to share
		return true
	}
	if s, ok := w.words[string(text)]; ok {
		*dst = s
		return true
	}
	if w.words == nil || len(w.words) >= maxWords {
		w.words = make(map[string]string)
	}
	s := string(text)
	w.words[s] = s
	*dst = s
	return true
}

// unquote is the text of the JSON string v: its bytes between the quotes,
// or, when it holds an escape or invalid UTF-8, unquoted into the reader's
// buffer (escaped; invalid UTF-8 replaced as json.Unmarshal replaces it),
// to be copied once by the caller.
func (w *Reader) unquote(v []byte) (text []byte, escaped, ok bool) {
	text = v[1 : len(v)-1]
	if bytes.IndexByte(text, '\\') < 0 && utf8.Valid(text) {
		return text, false, true
	}
	u, err := jsontext.AppendUnquote(w.buf[:0], v)
	if err != nil {
		return nil, false, false
	}
	w.buf = u
	return u, true, true
}

// maxWord is the longest value Word shares, maxWords the most it holds
// (past it the map starts again empty).
const (
	maxWord  = 256
	maxWords = 1024
)

func (w *Reader) str(dst *string, in *wire.Interner, known string) bool {
	switch w.Dec.PeekKind() {
	case '"':
		v, err := w.Dec.ReadValue()
		if err != nil || len(v) < 2 {
			return false
		}
		text, _, ok := w.unquote(v)
		if !ok {
			return false
		}
		switch {
		case known != "" && string(text) == known:
			*dst = known
		case in != nil:
			*dst, _ = in.InternBytes(text)
		default:
			*dst = string(text)
		}
		return true
	case 'n':
		_, err := w.Dec.ReadToken()
		*dst = ""
		return err == nil
	}
	return false
}

// Bool reads a boolean (or null, which is false) into dst.
func (w *Reader) Bool(dst *bool) bool {
	switch w.Dec.PeekKind() {
	case 't', 'f', 'n':
		tok, err := w.Dec.ReadToken()
		if err != nil {
			return false
		}
		*dst = tok.Kind() == 't'
		return true
	}
	return false
}

// Value reads any value into dst, a copy of its text as written.
func (w *Reader) Value(dst *jsontext.Value) bool {
	v, err := w.Dec.ReadValue()
	if err != nil {
		return false
	}
	*dst = append(jsontext.Value(nil), v...)
	return true
}

// End reports whether the input ends after what was read (nothing but
// white space follows).
func (w *Reader) End() bool {
	_, err := w.Dec.ReadToken()
	return err == io.EOF
}

// Skip reads past a value.
func (w *Reader) Skip() bool { return w.Dec.SkipValue() == nil }

// once is a set of members seen, for the members a fast read reads at most
// once (a second one would merge into the first in json.Unmarshal).
type once uint32

func (o *once) first(bit uint32) bool {
	if uint32(*o)&bit != 0 {
		return false
	}
	*o |= once(bit)
	return true
}

// fastBlock reads a content block from raw (an object) as
// json.Unmarshal would into the plain struct.
func fastBlock(raw jsontext.Value, bl *AnthropicBlock) bool {
	w := NewReader(raw)
	defer w.Done()
	return readBlock(w, bl) && w.End()
}

// readBlock reads a content block (an object) from w, member by member.
func readBlock(w *Reader, bl *AnthropicBlock) bool {
	var seen once
	return w.Object(func(name []byte) bool {
		switch string(name) {
		case "type":
			return w.Word(&bl.Type)
		case "text":
			return w.Text(&bl.Text)
		case "thinking":
			return w.Text(&bl.Thinking)
		case "data":
			return w.String(&bl.Data)
		case "id":
			return w.String(&bl.ID)
		case "name":
			return w.Word(&bl.Name)
		case "input":
			return w.Value(&bl.Input)
		case "tool_use_id":
			return w.String(&bl.ToolUseID)
		case "content":
			return seen.first(1) && fastContent(w, &bl.Content)
		case "source":
			return seen.first(2) && fastSource(w, &bl.Source)
		case "title":
			return w.String(&bl.Title)
		case "cache_control":
			return w.Value(&bl.CacheControl)
		}
		return w.Skip()
	})
}

// FastContent reads a content value (a string, an array of blocks, one
// block, or null) from w as AnthropicContent.UnmarshalJSONFrom does.
func FastContent(w *Reader, c *AnthropicContent) bool { return fastContent(w, c) }

func fastContent(w *Reader, c *AnthropicContent) bool {
	switch w.Dec.PeekKind() {
	case '"':
		c.IsStr = true
		return w.Text(&c.Str)
	case '[':
		if _, err := w.Dec.ReadToken(); err != nil {
			return false
		}
		c.Blocks = c.Blocks[:0]
		if c.Blocks == nil {
			c.Blocks = []AnthropicBlock{}
		}
		for w.Dec.PeekKind() != ']' {
			// Read in place: a block is 256 bytes.
			c.Blocks = append(c.Blocks, AnthropicBlock{})
			if !fastElement(w, &c.Blocks[len(c.Blocks)-1]) {
				return false
			}
		}
		_, err := w.Dec.ReadToken()
		return err == nil
	case '{':
		c.Blocks = make([]AnthropicBlock, 1)
		return fastElement(w, &c.Blocks[0])
	case 'n':
		_, err := w.Dec.ReadToken()
		return err == nil
	}
	return false
}

// fastElement reads one block of a content array (an object, or null for
// an empty block) as AnthropicBlock.UnmarshalJSONFrom does.
//
// The block is read from w member by member, not taken whole and read
// again: its text as written (for keepRaw) is the input between the offsets
// before and after it, less the white space and the comma or colon before it.
func fastElement(w *Reader, bl *AnthropicBlock) bool {
	switch w.Dec.PeekKind() {
	case 'n':
		_, err := w.Dec.ReadToken()
		*bl = AnthropicBlock{}
		return err == nil
	case '{':
		from := w.Dec.InputOffset()
		if !readBlock(w, bl) {
			return false
		}
		to := w.Dec.InputOffset()
		if from < 0 || to > int64(len(w.src)) || from > to {
			return false
		}
		// keepRaw clones what it keeps.
		keepRaw(bl, bytes.TrimLeft(w.src[from:to], " \t\r\n,:"))
		return true
	}
	return false
}

// fastSource reads a source object (or null) into *dst.
func fastSource(w *Reader, dst **anthropicSource) bool {
	if w.Dec.PeekKind() == 'n' {
		_, err := w.Dec.ReadToken()
		*dst = nil
		return err == nil
	}
	if w.Dec.PeekKind() != '{' {
		return false
	}
	src := &anthropicSource{}
	var seen once
	ok := w.Object(func(name []byte) bool {
		switch string(name) {
		case "type":
			return w.String(&src.Type)
		case "media_type":
			return w.String(&src.MediaType)
		case "data":
			return w.String(&src.Data)
		case "url":
			return w.String(&src.URL)
		case "file_id":
			return w.String(&src.FileID)
		case "content":
			return seen.first(1) && fastContent(w, &src.Content)
		}
		return w.Skip()
	})
	*dst = src
	return ok
}
