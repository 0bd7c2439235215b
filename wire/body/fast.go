package body

import (
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

// Reader reads one JSON object from raw, in place, as jsontext.Decoder
// with WalkOpts would (tokens.go), or gives up. Readers come from a pool
// (NewReader) and go back with Done.
type Reader struct {
	src  []byte // what it reads: the text of a value read member by member
	pos  int    // the offset in src of the next byte to read
	sep  int    // what comes before the next token (sepValue, ...)
	open []byte // the containers open around pos, '{' or '['
	skip []byte // scratch for skipValue
	high bool   // a byte of 0x80 or more was read (in a string: nowhere else is one valid)
	buf  []byte // scratch for unquoting
	// In, when set, holds the texts Text reads: a text met before (the
	// same tool result in the next transcript of a folder) is the held
	// copy, not a new one. Only Text shares; String always copies.
	In    *wire.Interner
	words map[string]string // the values Word read (kept across uses of the pooled reader)
}

var objReaders = sync.Pool{New: func() any { return &Reader{} }}

// NewReader is a pooled reader over raw.
func NewReader(raw []byte) *Reader {
	w := objReaders.Get().(*Reader)
	w.src, w.pos, w.sep, w.open, w.high = raw, 0, sepValue, w.open[:0], false
	return w
}

// ASCII reports whether every byte read was below 0x80: after End, that
// the input is ASCII, and so valid UTF-8.
func (w *Reader) ASCII() bool { return !w.high }

// Done gives the reader back; nothing it read may be used after.
func (w *Reader) Done() {
	w.src, w.In = nil, nil
	objReaders.Put(w)
}

// Peek is the kind of the next value ('"', '0' for a number, 'n', 't',
// 'f', '{', '['), or of the end of the container it is in ('}', ']'), or
// 0 when the text there is neither.
func (w *Reader) Peek() jsontext.Kind {
	c := w.next()
	switch {
	case c == 0 || w.nameNext():
		return 0
	case c == '-' || '0' <= c && c <= '9':
		return '0'
	}
	return jsontext.Kind(c)
}

// Object reads the '{' that opens an object, then calls member with each
// member's name (its raw text between the quotes), and reads the closing
// '}'. member reads the value (or skips it) and reports whether to go on.
// Object is false when the value is not an object, a name holds an escape,
// member gave up or read no value, or the JSON is broken.
func (w *Reader) Object(member func(name []byte) bool) bool {
	if w.next() != '{' || w.nameNext() {
		return false
	}
	w.open = append(w.open, '{')
	w.pos++
	w.sep = sepFirst
	for {
		switch w.next() {
		case '}':
			w.open = w.open[:len(w.open)-1]
			w.valueRead(w.pos + 1)
			return true
		case '"':
			end, esc, high := scanString(w.src, w.pos)
			if end < 0 || esc {
				return false
			}
			w.high = w.high || high
			name := w.src[w.pos+1 : end-1]
			w.pos, w.sep = end, sepColon
			if !member(name) || w.sep != sepComma {
				return false
			}
		default:
			return false
		}
	}
}

// Array reads the '[' that opens an array, then calls elem for each
// element (elem reads it and reports whether to go on), and reads the
// closing ']'. Array is false when the value is not an array, elem gave up
// or read no value, or the JSON is broken.
func (w *Reader) Array(elem func() bool) bool {
	if w.Peek() != '[' {
		return false
	}
	w.open = append(w.open, '[')
	w.pos++
	w.sep = sepFirst
	for {
		switch w.Peek() {
		case ']':
			w.open = w.open[:len(w.open)-1]
			w.valueRead(w.pos + 1)
			return true
		case 0:
			return false
		}
		if !elem() || w.sep != sepComma {
			return false
		}
	}
}

// Null reads a null.
func (w *Reader) Null() bool {
	if w.Peek() != 'n' {
		return false
	}
	return w.scalar()
}

// scalar reads the string, number or literal at w.pos (after Peek).
func (w *Reader) scalar() bool {
	end, high := scanScalar(w.src, w.pos)
	if end < 0 {
		return false
	}
	w.high = w.high || high
	w.valueRead(end)
	return true
}

// text reads the string at w.pos (after Peek): its raw text with the
// quotes, and its text (see unquote).
func (w *Reader) text() (raw, text []byte, escaped, ok bool) {
	end, esc, high := scanString(w.src, w.pos)
	if end < 0 {
		return nil, nil, false, false
	}
	raw = w.src[w.pos:end]
	w.high = w.high || high
	w.valueRead(end)
	text, escaped, ok = w.unquote(raw, esc, high)
	return raw, text, escaped, ok
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
	if w.Peek() != '"' {
		return w.String(dst)
	}
	_, text, escaped, ok := w.text()
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

// unquote is the text of the JSON string v (valid, as scanString found it;
// esc and high are what it found): its bytes between the quotes, or, when
// it holds an escape, unquoted into the reader's buffer (escaped), to be
// copied once by the caller. Invalid UTF-8 gives up (ok false), as
// jsontext.AppendUnquote reports it: json.Unmarshal decides.
func (w *Reader) unquote(v []byte, esc, high bool) (text []byte, escaped, ok bool) {
	text = v[1 : len(v)-1]
	valid := !high || utf8.Valid(text)
	if !esc && valid {
		return text, false, true
	}
	if valid {
		if u, ok := unescape(w.buf[:0], text); ok {
			w.buf = u
			return u, true, true
		}
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
	switch w.Peek() {
	case '"':
		_, text, _, ok := w.text()
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
		*dst = ""
		return w.scalar()
	}
	return false
}

// Bool reads a boolean (or null, which is false) into dst.
func (w *Reader) Bool(dst *bool) bool {
	switch k := w.Peek(); k {
	case 't', 'f', 'n':
		*dst = k == 't'
		return w.scalar()
	}
	return false
}

// Value reads any value into dst, a copy of its text as written.
func (w *Reader) Value(dst *jsontext.Value) bool {
	from, to, ok := w.span()
	if ok {
		*dst = append(jsontext.Value(nil), w.src[from:to]...)
	}
	return ok
}

// span reads any value: where its text is in the input.
func (w *Reader) span() (from, to int, ok bool) {
	switch w.Peek() {
	case 0, '}', ']':
		return 0, 0, false
	}
	from = w.pos
	var high bool
	to, w.skip, high = skipValue(w.src, from, w.skip)
	if to < 0 {
		return 0, 0, false
	}
	w.high = w.high || high
	w.valueRead(to)
	return from, to, true
}

// End reports whether the input ends after what was read (the top-level
// value, then nothing but white space).
func (w *Reader) End() bool {
	return w.sep == sepDone && skipSpace(w.src, w.pos) == len(w.src)
}

// Skip reads past a value.
func (w *Reader) Skip() bool {
	_, _, ok := w.span()
	return ok
}

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
	switch w.Peek() {
	case '"':
		c.IsStr = true
		return w.Text(&c.Str)
	case '[':
		c.Blocks = c.Blocks[:0]
		if c.Blocks == nil {
			c.Blocks = []AnthropicBlock{}
		}
		return w.Array(func() bool {
			// Read in place: a block is 256 bytes.
			c.Blocks = append(c.Blocks, AnthropicBlock{})
			return fastElement(w, &c.Blocks[len(c.Blocks)-1])
		})
	case '{':
		c.Blocks = make([]AnthropicBlock, 1)
		return fastElement(w, &c.Blocks[0])
	case 'n':
		return w.Null()
	}
	return false
}

// fastElement reads one block of a content array (an object, or null for
// an empty block) as AnthropicBlock.UnmarshalJSONFrom does.
//
// The block is read from w member by member, not taken whole and read
// again: its text as written (for keepRaw) is the input from its '{' to
// its '}'.
func fastElement(w *Reader, bl *AnthropicBlock) bool {
	switch w.Peek() {
	case 'n':
		*bl = AnthropicBlock{}
		return w.Null()
	case '{':
		from := w.pos
		if !readBlock(w, bl) {
			return false
		}
		// keepRaw clones what it keeps.
		keepRaw(bl, w.src[from:w.pos])
		return true
	}
	return false
}

// fastSource reads a source object (or null) into *dst.
func fastSource(w *Reader, dst **anthropicSource) bool {
	switch w.Peek() {
	case 'n':
		*dst = nil
		return w.Null()
	case '{':
	default:
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
