package decode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/recording"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Options control decoding.
type Options struct {
	// Source names the input in errors and in Request.Source.
	Source string
	// Format forces a format; FormatAuto detects it by shape.
	Format wire.Format
	// Interner is shared by all inputs of one run so that their common text is
	// held once; nil means a new one per call.
	Interner *wire.Interner
}

// Error is one problem with an input. Decoding goes on after it where it
// can: the other lines of a JSONL are still decoded.
type Error struct {
	Source string
	Line   int // 1-based line in the source, 0 when not known or not line based
	Msg    string
}

func (e *Error) Error() string {
	loc := e.Source
	if loc == "" {
		loc = "<input>"
	}
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	return loc + ": " + scan.VisibleLine(e.Msg)
}

// Decoder is the state of one Decode call.
type decoder struct {
	opts  Options
	index int // requests emitted so far
	yield func(wire.Request, error) bool
	stop  bool
	nerr  int // errors reported so far
	// lineMode is set while a JSONL is read line by line; whole while the
	// object being read is the whole input.
	lineMode int
	whole    bool
	// cache holds the segments of the body elements seen so far.
	cache *body.ElementCache
	// det holds the messages detection found to tell nothing.
	det body.DetectMemo
	// segs is the segment count of the last body decoded: the next body of
	// a growing session holds about as many, and a few more.
	segs int
}

// Fail reports a problem of the input on a line (0 when not line based).
// The message may quote the input (a HAR entry's URL): its credentials are
// masked here, for every output that prints errors.
func (d *decoder) Fail(line int, format string, args ...any) {
	if d.stop {
		return
	}
	d.nerr++
	msg := redact.Text(fmt.Sprintf(format, args...))
	if !d.yield(wire.Request{}, &Error{Source: d.opts.Source, Line: line, Msg: msg}) {
		d.stop = true
	}
}

// Emit numbers a request and hands it to the caller, with the credentials
// of its endpoint and notes masked: this is the one place every output
// (inspect's endpoint, the viewer, the reports) gets them from.
func (d *decoder) Emit(r wire.Request) {
	if d.stop {
		return
	}
	d.index++
	r.Index = d.index
	r.Source = d.opts.Source
	r.Endpoint = redact.URL(r.Endpoint)
	r.Notes = maskNotes(r.Notes)
	if !d.yield(r, nil) {
		d.stop = true
	}
}

// maskNotes is notes with their credentials masked, a copy when one is:
// a recording may share its notes between requests.
func maskNotes(notes []string) []string {
	var out []string
	for i, n := range notes {
		if m := redact.Text(n); m != n {
			if out == nil {
				out = slices.Clone(notes)
			}
			out[i] = m
		}
	}
	if out == nil {
		return notes
	}
	return out
}

// detMemo is the Decoder's memo of messages that tell no format.
func (d *decoder) detMemo() body.DetectMemo {
	if d.det == nil {
		d.det = body.DetectMemo{}
	}
	return d.det
}

// Builder starts a request at the given place.
func (d *decoder) Builder(format wire.Format, line int, off, length int64) *classify.Builder {
	return &classify.Builder{Req: &wire.Request{Format: format, Line: line, Offset: off, Length: length}, In: d.opts.Interner}
}

// Interner is the run's interner.
func (d *decoder) Interner() *wire.Interner { return d.opts.Interner }

// Source names the input.
func (d *decoder) Source() string { return d.opts.Source }

// Stopped reports whether the consumer asked for no more.
func (d *decoder) Stopped() bool { return d.stop }

// Decode reads every request in r. Errors are yielded as they are met, with a
// zero Request; decoding goes on after them where the input allows.
func Decode(r io.Reader, opts Options) iter.Seq2[wire.Request, error] {
	if opts.Interner == nil {
		opts.Interner = wire.NewInterner()
	}
	return func(yield func(wire.Request, error) bool) {
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
		d.Fail(0, "empty input")
		return
	case len(trimmed) == 0 && len(head) < 8192:
		d.Fail(0, "empty input (only white space)")
		return
	case utf16Mark(head) != "":
		// Windows tools (PowerShell's ">" among them) write UTF-16; its
		// NUL bytes would otherwise read as binary data.
		d.Fail(0, "UTF-16 text (%s), not UTF-8: convert it first, for example with iconv -f UTF-16 -t UTF-8", utf16Mark(head))
		return
	case bytes.IndexByte(head, 0) >= 0 && !d.nulOnRecordLine(head):
		at := bytes.IndexByte(head, 0)
		d.Fail(1+lineOf(head, at), "binary data, not JSON (a NUL byte at byte %d)", at)
		return
	case len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[':
		line := 1 + lineOf(head, len(head)-len(trimmed))
		if v := jsontext.Value(bytes.TrimSpace(trimmed)); len(head) < 8192 && checkValue(v) == nil {
			d.Fail(line, "not a request: a JSON %s at the top level", body.KindName(v.Kind()))
			return
		}
		d.Fail(line, "not JSON (starts with %q)", body.FirstRunes(trimmed, 12))
		return
	}
	if sd := d.recording(head); sd != nil {
		if recording.New(d.opts.Format) != nil {
			d.runForcedLines(br, sd)
			return
		}
		d.runLines(br, sd)
		return
	}
	// Read the first line: a complete JSON value on it means JSONL.
	first, err := body.ReadLine(br)
	if err != nil && err != io.EOF {
		d.Fail(1, "%v", err)
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
	if _, err := io.Copy(&buf, io.LimitReader(br, body.MaxLine)); err != nil {
		d.Fail(0, "%v", err)
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
			for err == bufio.ErrBufferFull && len(long) <= body.MaxLine {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			if err == bufio.ErrBufferFull {
				d.Fail(line, "line longer than %d bytes", body.MaxLine)
				return
			}
			b = long
		}
		if len(b) > 0 {
			if len(bytes.TrimSpace(b)) > 0 {
				d.value(b, line, off)
				// A file of other JSON lines (an application's log) is
				// reported once, not once a line.
				if d.index == 0 && d.nerr >= giveUp && !d.stop {
					what := "request bodies"
					if body.Has(d.opts.Format) {
						what = string(d.opts.Format) + " request bodies"
					}
					d.Fail(0, "stopped after %d lines without a request body: not a JSONL of %s", line, what)
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
			d.Fail(line, "%v", err)
			return
		}
	}
}

// giveUp is how many errors a JSONL may give before its first request
// body before it is given up.
const giveUp = 10

// runLines feeds each line to a recording reader.
func (d *decoder) runLines(br *bufio.Reader, sd recording.Reader) {
	line := 1
	var off int64
	for !d.stop {
		b, err := body.ReadLine(br)
		if len(b) > 0 {
			if t := bytes.TrimSpace(b); len(t) > 0 {
				sd.Line(d, t, line, off)
			}
			off += int64(len(b))
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			d.Fail(line, "%v", err)
			return
		}
	}
	if !d.stop {
		sd.End(d)
	}
}

// runForcedLines reads an input given a recording format with --format. A
// JSON document spread over lines (a pretty-printed body, a HAR) is one
// error, not one for each of its lines; an input whose first line is a
// record, or is broken, is read line by line.
func (d *decoder) runForcedLines(br *bufio.Reader, sd recording.Reader) {
	first, err := body.ReadLine(br)
	if err != nil && err != io.EOF {
		d.Fail(1, "%v", err)
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
	if _, err := io.Copy(&buf, io.LimitReader(br, body.MaxLine)); err != nil {
		d.Fail(0, "%v", err)
		return
	}
	doc := buf.Bytes()
	if lines := bytes.Count(bytes.TrimRight(doc, " \t\r\n"), []byte("\n")) + 1; lines > 1 && checkValue(doc) == nil {
		d.Fail(0, "not a %s recording: one JSON document spread over %d lines, where a recording has one JSON record a line", d.opts.Format, lines)
		return
	}
	d.runLines(bufio.NewReaderSize(bytes.NewReader(doc), 1<<20), sd)
}

// utf16Mark names the UTF-16 encoding of an input that starts with a
// UTF-16 byte-order mark, or with a JSON opener (after white space) in
// UTF-16 without one; "" for anything else.
func utf16Mark(head []byte) string {
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

func isCompleteValue(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return checkValue(t) == nil
}

// checkValue validates one JSON value (with surrounding white space).
func checkValue(b []byte) error {
	if at := body.DepthExceeded(b, body.MaxDepth); at >= 0 {
		return fmt.Errorf("JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
	}
	// Over a bytes.Buffer the Decoder reads b in place; ReadValue checks the
	// value in one pass without copying it.
	dec := jsontext.NewDecoder(bytes.NewBuffer(b), body.WalkOpts...)
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("unexpected data after the top-level value at byte %d", dec.InputOffset())
	}
	return nil
}

// checkObject checks v as checkValue does and, when it is an object,
// walks it in the same pass: the one check of a body found inside a
// container. A valid value of another kind gives a nil shape.
func checkObject(v jsontext.Value) (*body.Shape, error) {
	if v.Kind() != '{' {
		return nil, checkValue(v)
	}
	if at := body.DepthExceeded(v, body.MaxDepth); at >= 0 {
		return nil, fmt.Errorf("JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
	}
	return body.WalkShape(v)
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
		at := body.InvalidUTF8At(raw)
		d.Fail(line+bytes.Count(raw[:at], []byte("\n")), "invalid UTF-8 at byte %d (decoded with U+FFFD)", at)
	}
	trimmed := bytes.TrimSpace(raw)
	lead := int64(bytes.Index(raw, trimmed[:min(1, len(trimmed))]))
	v := jsontext.Value(trimmed)
	if v.Kind() == '{' {
		// An object is checked by the one walk that also splits it.
		if at := body.DepthExceeded(trimmed, body.MaxDepth); at >= 0 {
			d.Fail(line+lineOf(trimmed, at), "JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
			return
		}
		s, err := body.WalkShape(v)
		if err != nil {
			d.Fail(line+lineOfErr(trimmed, err), "%s", body.DescribeError(err))
			return
		}
		d.whole = d.lineMode == 0
		d.objectShape(s, line, off+lead)
		d.whole = false
		return
	}
	if err := checkValue(trimmed); err != nil {
		d.Fail(line+lineOfErr(trimmed, err), "%s", body.DescribeError(err))
		return
	}
	switch v.Kind() {
	case '[':
		d.array(v, line, off+lead)
	default:
		d.Fail(line, "not a request: a JSON %s at the top level", body.KindName(v.Kind()))
	}
}

// array decodes a JSON array of values (bodies or containers).
func (d *decoder) array(v jsontext.Value, line int, off int64) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), body.WalkOpts...)
	if _, err := dec.ReadToken(); err != nil {
		d.Fail(line, "%s", body.DescribeError(err))
		return
	}
	if dec.PeekKind() == ']' {
		d.Fail(line, "an empty JSON array: no request bodies in it")
		return
	}
	for n := 1; dec.PeekKind() != ']' && !d.stop; n++ {
		start := dec.InputOffset()
		el, err := dec.ReadValue()
		if err != nil {
			d.Fail(line+lineOf(v, int(start)), "%s", body.DescribeError(err))
			return
		}
		// Skip the separator white space to find where the element starts.
		elStart := int(start) + bytes.IndexAny(v[start:], "{[\"tfn-0123456789")
		elLine := line + lineOf(v, elStart)
		if el.Kind() != '{' {
			d.Fail(elLine, "array element %d is a JSON %s, not a request body", n, body.KindName(el.Kind()))
			continue
		}
		d.object(el, elLine, off+int64(elStart))
	}
}

// object decodes one JSON object: a container or a body.
func (d *decoder) object(v jsontext.Value, line int, off int64) {
	s, err := body.WalkShape(v)
	if err != nil {
		d.Fail(line+lineOfErr(v, err), "%s", body.DescribeError(err))
		return
	}
	d.objectShape(s, line, off)
}

// objectShape decodes a walked object: a container or a body.
func (d *decoder) objectShape(s *body.Shape, line int, off int64) {
	format := d.opts.Format
	switch {
	case format == wire.FormatAuto || container(format) == nil && !body.Has(format):
		f, err := body.DetectShape(s, d.detMemo())
		if err != nil {
			if d.whole {
				line = 0 // the file is one document: its name says where
			}
			d.Fail(line, "%v", err)
			return
		}
		if format == wire.FormatAuto || container(f) != nil {
			format = f
		}
	case body.Has(format):
		// A forced body format still reads the bodies inside a HAR or a
		// trace; a body of another shape is an error, not an empty request.
		if f := s.Container(); f != wire.FormatAuto {
			format = f
		} else if !s.HasBodyMembers(format) {
			if d.whole {
				line = 0
			}
			d.Fail(line, "not a request body in the %s format (looked for %s)", format, body.BodyMembers[format])
			return
		}
	}
	if cd := container(format); cd != nil {
		cd(d, s.Value(), line, off)
		return
	}
	d.bodyShape(format, s, line, off, nil)
}

// bodyShape decodes one walked body of a known format and emits it; fill,
// when given, completes the request (a container's endpoint and usage).
func (d *decoder) bodyShape(format wire.Format, s *body.Shape, line int, off int64, fill func(*wire.Request)) {
	if s.Len() > 0 && !s.HasBodyMembers(format) {
		d.Fail(line, "not a request body in the %s format (looked for %s)", format, body.BodyMembers[format])
		return
	}
	if !body.Has(format) {
		d.Fail(line, "no reader for format %q", format)
		return
	}
	if d.cache == nil {
		d.cache = body.NewElementCache()
	}
	b := d.Builder(format, line, off, int64(len(s.Value())))
	if d.segs > 0 {
		b.Req.Segments = make([]wire.Segment, 0, d.segs+d.segs/16+8)
	}
	if err := body.Decode(format, s, b, d.cache); err != nil {
		d.Fail(line, "%s body: %s", format, body.DescribeError(err))
		return
	}
	d.segs = len(b.Req.Segments)
	if fill != nil {
		fill(b.Req)
	}
	d.Emit(*b.Req)
}

// containerDecoder decodes a value that holds bodies (a HAR, a trace line),
// emitting each with d.bodyShape or d.Emit.
type containerDecoder func(d *decoder, v jsontext.Value, line int, off int64)

// container is the reader of a container format, or nil.
func container(f wire.Format) containerDecoder {
	switch f {
	case wire.FormatHAR:
		return decodeHAR
	case wire.FormatClaudeTrace:
		return decodeClaudeTrace
	}
	return nil
}

// recording is the reader of the agent recording the input is, by --format
// or by the shape of its first lines, or nil.
func (d *decoder) recording(head []byte) recording.Reader {
	if d.opts.Format != wire.FormatAuto {
		return recording.New(d.opts.Format)
	}
	return recording.New(recording.Detect(head))
}

// nulOnRecordLine reports whether a NUL byte in the head of an input is left
// to a recording reader, which reports it on its line and reads the other
// lines: the first line is free of NUL and is a recording's record (or a
// recording format was asked for).
func (d *decoder) nulOnRecordLine(head []byte) bool {
	first, _, ok := bytes.Cut(head, []byte("\n"))
	if !ok || bytes.IndexByte(first, 0) >= 0 {
		return false
	}
	first = body.TrimSpace(first)
	if len(first) == 0 || first[0] != '{' {
		return false
	}
	if d.opts.Format != wire.FormatAuto {
		return recording.New(d.opts.Format) != nil
	}
	f := recording.Detect(head)
	return f != "" && f != recording.FormatKimiCLIWire
}

// Formats lists every format name --format accepts.
// This is the one list: each package below keeps the list of its own.
func Formats() []wire.Format {
	out := append([]wire.Format(nil), body.Formats()...)
	out = append(out, wire.FormatHAR, wire.FormatClaudeTrace)
	return append(out, recording.Formats()...)
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
