package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Options control decoding.
type Options struct {
	// Source names the input in errors and in Request.Source.
	Source string
	// Format forces a format; FormatAuto detects it by shape.
	Format Format
	// Interner is shared by all inputs of one run so that their common text is
	// held once; nil means a new one per call.
	Interner *Interner
}

// DecodeError is one problem with an input. Decoding goes on after it where it
// can: the other lines of a JSONL are still decoded.
type DecodeError struct {
	Source string
	Line   int // 1-based line in the source, 0 when not known or not line based
	Msg    string
}

func (e *DecodeError) Error() string {
	loc := e.Source
	if loc == "" {
		loc = "<input>"
	}
	if e.Line > 0 {
		loc += ":" + itoa(e.Line)
	}
	return loc + ": " + VisibleLine(e.Msg)
}

// MaxDepth is the deepest JSON nesting accepted; no real payload comes near it.
const MaxDepth = 512

// maxLine is the longest single line (or whole document) read: larger inputs
// are reported, not held.
const maxLine = 1 << 30

var jsonOpts = []json.Options{
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	json.RejectUnknownMembers(false),
}

// unmarshal decodes raw into v with the options every decoder shares.
func unmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v, jsonOpts...) }

// decoder is the state of one Decode call.
type decoder struct {
	opts  Options
	index int // requests emitted so far
	yield func(Request, error) bool
	stop  bool
	nerr  int // errors reported so far
	// lineMode is set while a JSONL is read line by line; whole while the
	// object being read is the whole input.
	lineMode int
	whole    bool
	// cache holds the segments of the body elements seen so far.
	cache *decCache
	// det holds the messages detection found to tell nothing.
	det decDetMemo
	// segs is the segment count of the last body decoded: the next body of
	// a growing session holds about as many, and a few more.
	segs int
}

func (d *decoder) fail(line int, format string, args ...any) {
	if d.stop {
		return
	}
	d.nerr++
	if !d.yield(Request{}, &DecodeError{Source: d.opts.Source, Line: line, Msg: fmt.Sprintf(format, args...)}) {
		d.stop = true
	}
}

// emit numbers a request and hands it to the caller.
func (d *decoder) emit(r Request) {
	if d.stop {
		return
	}
	d.index++
	r.Index = d.index
	r.Source = d.opts.Source
	if !d.yield(r, nil) {
		d.stop = true
	}
}

// detMemo is the decoder's memo of messages that tell no format.
func (d *decoder) detMemo() decDetMemo {
	if d.det == nil {
		d.det = decDetMemo{}
	}
	return d.det
}

// builder starts a request at the given place.
func (d *decoder) builder(format Format, line int, off, length int64) *Builder {
	return &Builder{Req: &Request{Format: format, Line: line, Offset: off, Length: length}, In: d.opts.Interner}
}

// Decode reads every request in r. Errors are yielded as they are met, with a
// zero Request; decoding goes on after them where the input allows.
func Decode(r io.Reader, opts Options) iter.Seq2[Request, error] {
	if opts.Interner == nil {
		opts.Interner = NewInterner()
	}
	return func(yield func(Request, error) bool) {
		d := &decoder{opts: opts, yield: yield}
		d.run(r)
	}
}

func (d *decoder) run(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(8192)
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(head) == 0:
		d.fail(0, "empty input")
		return
	case len(trimmed) == 0 && len(head) < 8192:
		d.fail(0, "empty input (only white space)")
		return
	case decUTF16(head) != "":
		// Windows tools (PowerShell's ">" among them) write UTF-16; its
		// NUL bytes would otherwise read as binary data.
		d.fail(0, "UTF-16 text (%s), not UTF-8: convert it first, for example with iconv -f UTF-16 -t UTF-8", decUTF16(head))
		return
	case bytes.IndexByte(head, 0) >= 0 && !d.recNULOnLine(head):
		at := bytes.IndexByte(head, 0)
		d.fail(1+lineOf(head, at), "binary data, not JSON (a NUL byte at byte %d)", at)
		return
	case len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[':
		line := 1 + lineOf(head, len(head)-len(trimmed))
		if v := jsontext.Value(bytes.TrimSpace(trimmed)); len(head) < 8192 && checkValue(v) == nil {
			d.fail(line, "not a request: a JSON %s at the top level", kindName(v.Kind()))
			return
		}
		d.fail(line, "not JSON (starts with %q)", firstRunes(trimmed, 12))
		return
	}
	if sd := d.sessionDecoder(head); sd != nil {
		if sessionFormats[d.opts.Format] != nil {
			d.runForcedLines(br, sd)
			return
		}
		d.runLines(br, sd)
		return
	}
	// Read the first line: a complete JSON value on it means JSONL.
	first, err := readLine(br)
	if err != nil && err != io.EOF {
		d.fail(1, "%v", err)
		return
	}
	if isCompleteValue(first) {
		rest, _ := br.Peek(1)
		if len(rest) == 0 {
			d.value(first, 1, 0)
			return
		}
		d.lineMode++
		d.value(first, 1, 0)
		d.lineMode--
		d.runJSONL(br, 2, int64(len(first)))
		return
	}
	// A document spread over lines (a pretty-printed body, an array, a HAR).
	var buf bytes.Buffer
	buf.Write(first)
	if _, err := io.Copy(&buf, io.LimitReader(br, maxLine)); err != nil {
		d.fail(0, "%v", err)
		return
	}
	doc := buf.Bytes()
	// If several of its lines are values and it is not one document, it is
	// a JSONL whose first line is broken. Anything else is one document,
	// checked by value's own walk.
	if looksLikeJSONL(doc) && checkValue(doc) != nil {
		d.runJSONL(bufio.NewReader(bytes.NewReader(doc)), 1, 0)
		return
	}
	d.value(doc, 1, 0)
}

// runJSONL decodes one value per line; blank lines are skipped. A line that
// fits the reader's buffer is decoded in place; decoders keep nothing of it.
func (d *decoder) runJSONL(br *bufio.Reader, line int, off int64) {
	d.lineMode++
	defer func() { d.lineMode-- }()
	var long []byte
	for !d.stop {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], b...)
			for err == bufio.ErrBufferFull && len(long) <= maxLine {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			if err == bufio.ErrBufferFull {
				d.fail(line, "line longer than %d bytes", maxLine)
				return
			}
			b = long
		}
		if len(b) > 0 {
			if len(bytes.TrimSpace(b)) > 0 {
				d.value(b, line, off)
				// A file of other JSON lines (an application's log) is
				// reported once, not once a line.
				if d.index == 0 && d.nerr >= decGiveUp && !d.stop {
					what := "request bodies"
					if bodyDecoders[d.opts.Format] != nil {
						what = string(d.opts.Format) + " request bodies"
					}
					d.fail(0, "stopped after %d lines without a request body: not a JSONL of %s", line, what)
					return
				}
			}
			off += int64(len(b))
			line++
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			d.fail(line, "%v", err)
			return
		}
	}
}

// decGiveUp is how many errors a JSONL may give before its first request
// body before it is given up.
const decGiveUp = 10

// runLines feeds each line to a stateful session decoder.
func (d *decoder) runLines(br *bufio.Reader, sd sessionDecoder) {
	line := 1
	var off int64
	for !d.stop {
		b, err := readLine(br)
		if len(b) > 0 {
			if t := bytes.TrimSpace(b); len(t) > 0 {
				sd.line(d, t, line, off)
			}
			off += int64(len(b))
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			d.fail(line, "%v", err)
			return
		}
	}
	if !d.stop {
		sd.end(d)
	}
}

// runForcedLines reads an input given a recording format with --format. A
// JSON document spread over lines (a pretty-printed body, a HAR) is one
// error, not one for each of its lines; an input whose first line is a
// record, or is broken, is read line by line.
func (d *decoder) runForcedLines(br *bufio.Reader, sd sessionDecoder) {
	first, err := readLine(br)
	if err != nil && err != io.EOF {
		d.fail(1, "%v", err)
		return
	}
	if isCompleteValue(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))) {
		d.runLines(bufio.NewReaderSize(io.MultiReader(bytes.NewReader(first), br), 1<<20), sd)
		return
	}
	// The first line is not a record: the input is read whole, as a
	// document spread over lines is (see run).
	var buf bytes.Buffer
	buf.Write(first)
	if _, err := io.Copy(&buf, io.LimitReader(br, maxLine)); err != nil {
		d.fail(0, "%v", err)
		return
	}
	doc := buf.Bytes()
	if lines := bytes.Count(bytes.TrimRight(doc, " \t\r\n"), []byte("\n")) + 1; lines > 1 && checkValue(doc) == nil {
		d.fail(0, "not a %s recording: one JSON document spread over %d lines, where a recording has one JSON record a line", d.opts.Format, lines)
		return
	}
	d.runLines(bufio.NewReaderSize(bytes.NewReader(doc), 1<<20), sd)
}

// decUTF16 names the UTF-16 encoding of an input that starts with a
// UTF-16 byte-order mark, or with a JSON opener (after white space) in
// UTF-16 without one; "" for anything else.
func decUTF16(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return "a UTF-16LE byte-order mark"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return "a UTF-16BE byte-order mark"
	}
	for i := 0; i+1 < len(head); i += 2 {
		lo, hi := head[i], head[i+1]
		if hi == 0 && (lo == ' ' || lo == '\t' || lo == '\r' || lo == '\n') ||
			lo == 0 && (hi == ' ' || hi == '\t' || hi == '\r' || hi == '\n') {
			continue
		}
		switch {
		case hi == 0 && (lo == '{' || lo == '['):
			return "UTF-16LE without a byte-order mark"
		case lo == 0 && (hi == '{' || hi == '['):
			return "UTF-16BE without a byte-order mark"
		}
		return ""
	}
	return ""
}

// readLine reads one line including its newline; a line longer than maxLine
// is an error.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if err == bufio.ErrBufferFull {
			if len(out) > maxLine {
				return out, fmt.Errorf("line longer than %d bytes", maxLine)
			}
			continue
		}
		return out, err
	}
}

func isCompleteValue(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return checkValue(t) == nil
}

// checkValue validates one JSON value (with surrounding white space).
func checkValue(b []byte) error {
	if at := depthExceeded(b, MaxDepth); at >= 0 {
		return fmt.Errorf("JSON nested deeper than %d levels at byte %d", MaxDepth, at)
	}
	// Over a bytes.Buffer the decoder reads b in place; ReadValue checks the
	// value in one pass without copying it.
	dec := jsontext.NewDecoder(bytes.NewBuffer(b), decWalkOpts...)
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("unexpected data after the top-level value at byte %d", dec.InputOffset())
	}
	return nil
}

// decCheckObject checks v as checkValue does and, when it is an object,
// walks it in the same pass: the one check of a body found inside a
// container. A valid value of another kind gives a nil shape.
func decCheckObject(v jsontext.Value) (*decShape, error) {
	if v.Kind() != '{' {
		return nil, checkValue(v)
	}
	if at := depthExceeded(v, MaxDepth); at >= 0 {
		return nil, fmt.Errorf("JSON nested deeper than %d levels at byte %d", MaxDepth, at)
	}
	return decWalkShape(v)
}

func looksLikeJSONL(doc []byte) bool {
	valid, lines := 0, 0
	for len(doc) > 0 {
		var l []byte
		l, doc, _ = bytes.Cut(doc, []byte("\n"))
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		lines++
		if isCompleteValue(l) {
			valid++
		}
		if lines >= 50 {
			break
		}
	}
	return valid >= 1 && lines >= 2
}

// value decodes one JSON value that starts on the given line at byte offset
// off of the source: a body, an array of bodies, or a container (HAR, trace).
func (d *decoder) value(raw []byte, line int, off int64) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(raw) {
		at := invalidUTF8At(raw)
		d.fail(line+bytes.Count(raw[:at], []byte("\n")), "invalid UTF-8 at byte %d (decoded with U+FFFD)", at)
	}
	trimmed := bytes.TrimSpace(raw)
	lead := int64(bytes.Index(raw, trimmed[:min(1, len(trimmed))]))
	v := jsontext.Value(trimmed)
	if v.Kind() == '{' {
		// An object is checked by the one walk that also splits it.
		if at := depthExceeded(trimmed, MaxDepth); at >= 0 {
			d.fail(line+lineOf(trimmed, at), "JSON nested deeper than %d levels at byte %d", MaxDepth, at)
			return
		}
		s, err := decWalkShape(v)
		if err != nil {
			d.fail(line+lineOfErr(trimmed, err), "%s", describeJSONError(err))
			return
		}
		d.whole = d.lineMode == 0
		d.objectShape(s, line, off+lead)
		d.whole = false
		return
	}
	if err := checkValue(trimmed); err != nil {
		d.fail(line+lineOfErr(trimmed, err), "%s", describeJSONError(err))
		return
	}
	switch v.Kind() {
	case '[':
		d.array(v, line, off+lead)
	default:
		d.fail(line, "not a request: a JSON %s at the top level", kindName(v.Kind()))
	}
}

// array decodes a JSON array of values (bodies or containers).
func (d *decoder) array(v jsontext.Value, line int, off int64) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), decWalkOpts...)
	if _, err := dec.ReadToken(); err != nil {
		d.fail(line, "%s", describeJSONError(err))
		return
	}
	if dec.PeekKind() == ']' {
		d.fail(line, "an empty JSON array: no request bodies in it")
		return
	}
	for n := 1; dec.PeekKind() != ']' && !d.stop; n++ {
		start := dec.InputOffset()
		el, err := dec.ReadValue()
		if err != nil {
			d.fail(line+lineOf(v, int(start)), "%s", describeJSONError(err))
			return
		}
		// Skip the separator white space to find where the element starts.
		elStart := int(start) + bytes.IndexAny(v[start:], "{[\"tfn-0123456789")
		elLine := line + lineOf(v, elStart)
		if el.Kind() != '{' {
			d.fail(elLine, "array element %d is a JSON %s, not a request body", n, kindName(el.Kind()))
			continue
		}
		d.object(el, elLine, off+int64(elStart))
	}
}

// object decodes one JSON object: a container or a body.
func (d *decoder) object(v jsontext.Value, line int, off int64) {
	s, err := decWalkShape(v)
	if err != nil {
		d.fail(line+lineOfErr(v, err), "%s", describeJSONError(err))
		return
	}
	d.objectShape(s, line, off)
}

// objectShape decodes a walked object: a container or a body.
func (d *decoder) objectShape(s *decShape, line int, off int64) {
	format := d.opts.Format
	switch {
	case format == FormatAuto || containerDecoders[format] == nil && bodyDecoders[format] == nil:
		f, err := detectShape(s, d.detMemo())
		if err != nil {
			if d.whole {
				line = 0 // the file is one document: its name says where
			}
			d.fail(line, "%v", err)
			return
		}
		if format == FormatAuto || containerDecoders[f] != nil {
			format = f
		}
	case bodyDecoders[format] != nil:
		// A forced body format still reads the bodies inside a HAR or a
		// trace; a body of another shape is an error, not an empty request.
		if f := s.container(); f != FormatAuto {
			format = f
		} else if !s.hasBodyMembers(format) {
			if d.whole {
				line = 0
			}
			d.fail(line, "not a request body in the %s format (looked for %s)", format, bodyMembers[format])
			return
		}
	}
	if cd := containerDecoders[format]; cd != nil {
		cd(d, s.v, line, off)
		return
	}
	d.bodyShape(format, s, line, off, nil)
}

// bodyShape decodes one walked body of a known format and emits it; fill,
// when given, completes the request (a container's endpoint and usage).
func (d *decoder) bodyShape(format Format, s *decShape, line int, off int64, fill func(*Request)) {
	if len(s.members) > 0 && !s.hasBodyMembers(format) {
		d.fail(line, "not a request body in the %s format (looked for %s)", format, bodyMembers[format])
		return
	}
	dec := bodyDecoders[format]
	if dec == nil {
		d.fail(line, "no reader for format %q", format)
		return
	}
	if d.cache == nil {
		d.cache = newDecCache()
	}
	b := d.builder(format, line, off, int64(len(s.v)))
	if d.segs > 0 {
		b.Req.Segments = make([]Segment, 0, d.segs+d.segs/16+8)
	}
	if err := dec(s, b, d.cache); err != nil {
		d.fail(line, "%s body: %s", format, describeJSONError(err))
		return
	}
	d.segs = len(b.Req.Segments)
	if fill != nil {
		fill(b.Req)
	}
	d.emit(*b.Req)
}

// bodyDecoder decodes one walked request body of its format, adding its parts
// to b in wire order and setting b.Req.Model; elements seen before in the
// same input are taken from c.
type bodyDecoder func(s *decShape, b *Builder, c *decCache) error

// containerDecoder decodes a value that holds bodies (a HAR, a trace line),
// emitting each with d.bodyShape or d.emit.
type containerDecoder func(d *decoder, v jsontext.Value, line int, off int64)

// sessionDecoder reads an agent's recording line by line; it emits requests
// as the recording implies them.
type sessionDecoder interface {
	line(d *decoder, raw []byte, line int, off int64)
	end(d *decoder)
}

var (
	bodyDecoders      = map[Format]bodyDecoder{}
	containerDecoders = map[Format]containerDecoder{}
	// sessionDetectors recognise an agent recording from its first bytes and
	// return a fresh decoder for it; sessionFormats make one by name.
	sessionDetectors []func(head []byte) sessionDecoder
	sessionFormats   = map[Format]func() sessionDecoder{}
)

func (d *decoder) sessionDecoder(head []byte) sessionDecoder {
	if mk := sessionFormats[d.opts.Format]; mk != nil {
		return mk()
	}
	if d.opts.Format != FormatAuto {
		return nil
	}
	for _, det := range sessionDetectors {
		if sd := det(head); sd != nil {
			return sd
		}
	}
	return nil
}

// Formats lists every format name --format accepts.
func Formats() []Format {
	return []Format{FormatOpenAIChat, FormatOpenAIResponses, FormatAnthropic, FormatGemini,
		FormatHAR, FormatClaudeTrace, FormatKimiCLI, FormatKimiCode, FormatCodex, FormatClaudeCode}
}

// describeJSONError turns a json error into "invalid JSON at byte N: reason".
func describeJSONError(err error) string {
	var at *decAtError
	if errors.As(err, &at) {
		var me *json.SemanticError
		if errors.As(at.err, &me) {
			c := *me
			c.JSONPointer = jsontext.Pointer(at.ptr) + me.JSONPointer
			c.ByteOffset += at.off
			return describeJSONError(&c)
		}
		var se *jsontext.SyntacticError
		if errors.As(at.err, &se) {
			c := *se
			c.ByteOffset += at.off
			return describeJSONError(&c)
		}
		msg := strings.TrimPrefix(at.err.Error(), "json: ")
		if at.ptr != "" {
			msg += " at " + at.ptr
		}
		return fmt.Sprintf("%s (byte %d)", msg, at.off)
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		reason := se.Err
		if errors.Is(reason, io.ErrUnexpectedEOF) || reason == nil {
			return fmt.Sprintf("invalid JSON at byte %d: unexpected end of input", se.ByteOffset)
		}
		return fmt.Sprintf("invalid JSON at byte %d: %s", se.ByteOffset, strings.TrimPrefix(reason.Error(), "jsontext: "))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "invalid JSON: unexpected end of input"
	}
	var me *json.SemanticError
	if errors.As(err, &me) {
		at := ""
		if me.JSONPointer != "" {
			at = " at " + string(me.JSONPointer)
		}
		var what string
		switch {
		case me.Err != nil && !errors.Is(me.Err, json.ErrUnknownName):
			what = strings.TrimPrefix(me.Err.Error(), "json: ")
		case me.JSONKind != 0 && me.GoType != nil:
			what = "a JSON " + kindName(me.JSONKind) + " where " + decGoKind(me.GoType.Kind().String()) + " belongs"
		case me.JSONKind != 0:
			what = "unexpected JSON " + kindName(me.JSONKind)
		default:
			what = "unexpected JSON"
		}
		return fmt.Sprintf("%s%s (byte %d)", what, at, me.ByteOffset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineOfErr is the 0-based line of a syntax error inside b.
func lineOfErr(b []byte, err error) int {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) && se.ByteOffset >= 0 && se.ByteOffset <= int64(len(b)) {
		return lineOf(b, int(se.ByteOffset))
	}
	return 0
}

// lineOf is the 0-based line of byte offset at in b.
func lineOf(b []byte, at int) int {
	if at > len(b) {
		at = len(b)
	}
	return bytes.Count(b[:at], []byte("\n"))
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "value"
}

func firstRunes(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if r := []rune(s); len(r) > n {
		s = string(r[:n])
	}
	return VisibleLine(s)
}

// depthExceeded returns the byte offset where nesting first goes deeper than
// limit, or -1. Strings are skipped a quote at a time.
func depthExceeded(b []byte, limit int) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for {
				j := bytes.IndexByte(b[i+1:], '"')
				if j < 0 {
					return -1
				}
				i += 1 + j
				n := 0 // backslashes before the quote: odd means escaped
				for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
					n++
				}
				if n%2 == 0 {
					break
				}
			}
		case '{', '[':
			depth++
			if depth > limit {
				return i
			}
		case '}', ']':
			depth--
		}
	}
	return -1
}

// decIndex is prefix[i], the path step of an array element in a part id.
func decIndex(prefix string, i int) string { return prefix + "[" + itoa(i) + "]" }

// decCompact is the compact JSON text of v as sent (strings and numbers kept
// byte for byte), or "" for an absent value.
func decCompact(v jsontext.Value) string {
	if len(v) == 0 {
		return ""
	}
	b := append(jsontext.Value(nil), v...)
	if err := b.Compact(); err != nil {
		return string(bytes.TrimSpace(v))
	}
	return string(b)
}

// decMedia is the short placeholder that stands for binary content (an
// image, audio, a file) in a part's text: "[image: image/png, 1234 bytes base64]".
func decMedia(what, mediaType string, base64Len int) string {
	if mediaType == "" {
		mediaType = "unknown type"
	}
	return "[" + what + ": " + mediaType + ", " + itoa(base64Len) + " bytes base64]"
}

// decMediaRef is the placeholder for binary content given by reference.
func decMediaRef(what, ref string) string {
	if ref == "" {
		return "[" + what + "]"
	}
	return "[" + what + ": " + ref + "]"
}

// decDataURL describes a data: URL ("data:image/png;base64,....") or any
// other URL as a placeholder.
func decDataURL(what, url string) string {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		meta, data, _ := strings.Cut(rest, ",")
		mt, _, _ := strings.Cut(meta, ";")
		return decMedia(what, mt, len(data))
	}
	return decMediaRef(what, url)
}

// decGoKind names what a Go kind expects in JSON terms.
func decGoKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "bool":
		return "a boolean"
	case "int", "int64", "int32", "uint", "uint64", "float64":
		return "a number"
	}
	return "another kind of value"
}

// The body decoders walk a body's top-level members and arrays in place
// (every raw value a slice of the body, nothing copied) and decode one
// element (a message, a system block, a tool) at a time. An element already
// seen at the same place in an earlier request of the same input is not
// decoded again: its segments are taken from decCache. A session of N
// growing requests repeats request k inside request k+1, so only the new
// turn of each request is unmarshalled and classified.

// decWalkOpts are the syntactic options of the in-place walks.
var decWalkOpts = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// decAtError places an element's error in the body: its JSON pointer and
// byte offset are prefixed with the element's.
type decAtError struct {
	ptr string
	off int64
	err error
}

func (e *decAtError) Error() string { return describeJSONError(e) }
func (e *decAtError) Unwrap() error { return e.err }

// decAt wraps err from the value at ptr, off bytes into the body.
func decAt(ptr string, off int64, err error) error {
	if err == nil {
		return nil
	}
	if inner, ok := err.(*decAtError); ok {
		return &decAtError{ptr: ptr + inner.ptr, off: off + inner.off, err: inner.err}
	}
	return &decAtError{ptr: ptr, off: off, err: err}
}

// decStringMember decodes a member that must be a string (or null).
func decStringMember(val jsontext.Value, ptr string, off int64, dst *string) error {
	return decAt(ptr, off, unmarshal(val, dst))
}

// decNames maps tool call ids to tool names within one request, so that a
// result can be named after its call. While an element is decoded for the
// cache, the ids it defines and looks up are recorded with it.
type decNames struct {
	m   map[string]string
	rec *decEntry
}

func newDecNames() *decNames { return &decNames{m: map[string]string{}} }

func (n *decNames) def(id, name string) {
	if n == nil {
		return
	}
	n.m[id] = name
	if n.rec != nil {
		n.rec.defs = append(n.rec.defs, [2]string{id, name})
	}
}

func (n *decNames) get(id string) string {
	if n == nil {
		return ""
	}
	name := n.m[id]
	if n.rec != nil {
		n.rec.uses = append(n.rec.uses, [2]string{id, name})
	}
	return name
}

// decCache holds the segments of the elements seen so far in one input.
type decCache struct {
	m map[decKey]*decEntry
}

// decCacheMax bounds the entries held; past it the cache starts afresh.
const decCacheMax = 1 << 18

type decKey struct {
	format Format // the body's format: the same bytes read differently in another
	sect   uint8  // which array (decSect...)
	idx    int    // the element's index in it
	n      int    // its length in bytes
	h1, h2 uint64
}

// Arrays whose elements are cached.
const (
	decSectTools uint8 = iota
	decSectSystem
	decSectMessages
	decSectFunctions
	decSectInput
	decSectContents
)

type decEntry struct {
	segs []Segment
	defs [][2]string // call ids the element names
	uses [][2]string // call ids it looked up, with the names found
}

var decSeed1, decSeed2 = maphash.MakeSeed(), maphash.MakeSeed()

func newDecCache() *decCache { return &decCache{m: make(map[decKey]*decEntry)} }

// decElements adds the parts of each element of the member m (absent or
// null: none) with one, or, for an element seen before at the same index,
// the segments it became then.
func decElements(b *Builder, c *decCache, names *decNames, sect uint8, m *decMember,
	one func(i int, el jsontext.Value) error) error {
	if m == nil || m.v.Kind() == 'n' {
		return nil
	}
	if m.elems == nil {
		return decAt("/"+m.name, m.off, fmt.Errorf("%s is a JSON %s, want an array", m.name, kindName(m.v.Kind())))
	}
	for i, el := range m.elems {
		wrap := func(err error) error { return decAt("/"+m.name+"/"+itoa(i), el.off, err) }
		k := decKey{format: b.Req.Format, sect: sect, idx: i, n: len(el.v),
			h1: maphash.Bytes(decSeed1, el.v), h2: maphash.Bytes(decSeed2, el.v)}
		if e := c.m[k]; e != nil && e.fits(names) {
			b.Req.Segments = append(b.Req.Segments, e.segs...)
			for _, d := range e.defs {
				names.m[d[0]] = d[1]
			}
			continue
		}
		e := &decEntry{}
		start := len(b.Req.Segments)
		if names != nil {
			names.rec = e
		}
		err := one(i, el.v)
		if names != nil {
			names.rec = nil
		}
		if err != nil {
			return wrap(err)
		}
		e.segs = make([]Segment, len(b.Req.Segments)-start)
		copy(e.segs, b.Req.Segments[start:])
		for j := range e.segs {
			e.segs[j].Escapes = slices.Clip(e.segs[j].Escapes)
		}
		if len(c.m) >= decCacheMax {
			clear(c.m)
		}
		c.m[k] = e
	}
	return nil
}

// fits reports whether the names the element looked up resolve as they did.
func (e *decEntry) fits(names *decNames) bool {
	for _, u := range e.uses {
		if names == nil || names.m[u[0]] != u[1] {
			return false
		}
	}
	return true
}
