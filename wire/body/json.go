package body

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/scan"
)

var jsonOpts = []json.Options{
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	json.RejectUnknownMembers(false),
}

// Unmarshal decodes raw into v with the options every decode.Decoder shares.
func Unmarshal(raw []byte, v any) error {
	if len(raw) > longString {
		return json.Unmarshal(raw, v, jsonOptsLong...)
	}
	return json.Unmarshal(raw, v, jsonOpts...)
}

// DescribeError turns a json error into "invalid JSON at byte N: reason".
func DescribeError(err error) string {
	var at *pointerError
	if errors.As(err, &at) {
		var me *json.SemanticError
		if errors.As(at.err, &me) {
			c := *me
			c.JSONPointer = jsontext.Pointer(at.ptr) + me.JSONPointer
			c.ByteOffset += at.off
			return DescribeError(&c)
		}
		var se *jsontext.SyntacticError
		if errors.As(at.err, &se) {
			c := *se
			c.ByteOffset += at.off
			return DescribeError(&c)
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
			what = "a JSON " + KindName(me.JSONKind) + " where " + goKindName(me.GoType.Kind().String()) + " belongs"
		case me.JSONKind != 0:
			what = "unexpected JSON " + KindName(me.JSONKind)
		default:
			what = "unexpected JSON"
		}
		return fmt.Sprintf("%s%s (byte %d)", what, at, me.ByteOffset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func KindName(k jsontext.Kind) string {
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

// IndexPath is prefix[i], the path step of an array element in a part id.
func IndexPath(prefix string, i int) string { return prefix + "[" + strconv.Itoa(i) + "]" }

// Compact is the compact JSON text of v as sent (strings and numbers kept
// byte for byte), or "" for an absent value.
func Compact(v jsontext.Value) string {
	if len(v) == 0 {
		return ""
	}
	b := append(jsontext.Value(nil), v...)
	if err := b.Compact(); err != nil {
		return string(bytes.TrimSpace(v))
	}
	// b is this call's own copy, never written again: the string is b's
	// bytes, not a second copy.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// mediaText is the short placeholder that stands for binary content (an
// image, audio, a file) in a part's text: "[image: image/png, 1234 bytes base64]".
func mediaText(what, mediaType string, base64Len int) string {
	if mediaType == "" {
		mediaType = "unknown type"
	}
	return "[" + what + ": " + mediaType + ", " + strconv.Itoa(base64Len) + " bytes base64]"
}

// mediaRefText is the placeholder for binary content given by reference.
func mediaRefText(what, ref string) string {
	if ref == "" {
		return "[" + what + "]"
	}
	return "[" + what + ": " + ref + "]"
}

// DataURLText describes a data: URL ("data:image/png;base64,....") or any
// other URL as a placeholder.
func DataURLText(what, url string) string {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		meta, data, _ := strings.Cut(rest, ",")
		mt, _, _ := strings.Cut(meta, ";")
		return mediaText(what, mt, len(data))
	}
	return mediaRefText(what, url)
}

// goKindName names what a Go kind expects in JSON terms.
func goKindName(k string) string {
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
// decoded again: its segments are taken from ElementCache. A session of N
// growing requests repeats request k inside request k+1, so only the new
// turn of each request is unmarshalled and classified.

// WalkOpts are the syntactic options of the in-place walks.
var WalkOpts = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// pointerError places an element's error in the body: its JSON pointer and
// byte offset are prefixed with the element's.
type pointerError struct {
	ptr string
	off int64
	err error
}

func (e *pointerError) Error() string { return DescribeError(e) }
func (e *pointerError) Unwrap() error { return e.err }

// errAt wraps err from the value at ptr, off bytes into the body.
func errAt(ptr string, off int64, err error) error {
	if err == nil {
		return nil
	}
	if inner, ok := err.(*pointerError); ok {
		return &pointerError{ptr: ptr + inner.ptr, off: off + inner.off, err: inner.err}
	}
	return &pointerError{ptr: ptr, off: off, err: err}
}

// stringMember decodes a member that must be a string (or null).
func stringMember(val jsontext.Value, ptr string, off int64, dst *string) error {
	return errAt(ptr, off, Unmarshal(val, dst))
}

// toolNames maps tool call ids to tool names within one request, so that a
// result can be named after its call. While an element is decoded for the
// cache, the ids it defines and looks up are recorded with it.
type toolNames struct {
	m   map[string]string
	rec *elementEntry
}

func NewToolNames() *toolNames { return &toolNames{m: map[string]string{}} }

// toolNames is an empty toolNames for the next body of c's input: the map
// of the body before, cleared, so that a session's requests do not grow a
// map of the same ids again one after another.
func (c *ElementCache) toolNames() *toolNames {
	if c.names == nil || len(c.names.m) > 1<<16 {
		c.names = NewToolNames()
	}
	clear(c.names.m)
	c.names.rec = nil
	return c.names
}

func (n *toolNames) def(id, name string) {
	if n == nil {
		return
	}
	n.m[id] = name
	if n.rec != nil {
		n.rec.defs = append(n.rec.defs, [2]string{id, name})
	}
}

func (n *toolNames) get(id string) string {
	if n == nil {
		return ""
	}
	name := n.m[id]
	if n.rec != nil {
		n.rec.uses = append(n.rec.uses, [2]string{id, name})
	}
	return name
}

// ElementCache holds the segments of the elements seen so far in one input.
type ElementCache struct {
	m map[elementKey]*elementEntry
	// last is the body of the line before, for WalkAfter; spare a
	// lastBody to reuse.
	last, spare *lastBody
	// same is what the last WalkAfter learnt of its line: its first n
	// bytes equal those of body's (the spare) copy, so Remember copies
	// only the rest.
	same sharedPrefix
	// read is what the line reader learnt of the next line before
	// WalkAfter was given it (Compared): its first n bytes are last's.
	read sharedPrefix
	// names is the map of call ids of the body before (toolNames).
	names *toolNames
	// gen numbers the bodies decoded (Placing), runGen is the one Placed
	// last, and known counts the first segments of the body being decoded
	// that its repeated elements put where they were in that one.
	gen, runGen uint64
	known       int
	// runArray is the first segment of the array the body Placed last was
	// built in, nil when none was given (see Placed).
	runArray *wire.Segment
}

// Placing starts the decoding of a body: Known counts from 0.
func (c *ElementCache) Placing() { c.gen++; c.known = 0 }

// Known is how many of the first segments of the body being decoded are,
// by the elements they came from, the segments the body Placed last had
// at the same places: the elements, all of them repeated, added their
// segments one after the other where they had added them in that body.
// Segments are only appended, never written after, so those are equal to
// that body's without comparing them.
func (c *ElementCache) Known() int { return c.known }

// Placed says the body decoded last is the one the next is compared with
// (the decoder's run of segments). in is the array it was built in, when
// the next is built in it too, appended to only (the decoder's scratch):
// the known segments of the next are then already where they go, past its
// length, and are not copied there again (add). Nil when not.
func (c *ElementCache) Placed(in []wire.Segment) {
	c.runGen, c.runArray = c.gen, nil
	if cap(in) > 0 {
		c.runArray = &in[:1][0]
	}
}

// inRunArray reports whether segs is built in the array the body Placed
// last was built in.
func (c *ElementCache) inRunArray(segs []wire.Segment) bool {
	return c.runArray != nil && cap(segs) > 0 && &segs[:1][0] == c.runArray
}

// place notes that e's segments go at index at of the body being decoded,
// and counts them in Known when they follow the known ones and were at
// the same place in the body Placed last.
func (c *ElementCache) place(e *elementEntry, at int) (known bool) {
	known = c.known == at && e.gen != 0 && e.gen == c.runGen && e.at == at && c.gen == c.runGen+1
	if known {
		c.known += len(e.segs)
	}
	e.gen, e.at = c.gen, at
	return known
}

// sharedPrefix notes that the n bytes at at (a line WalkAfter was given)
// equal the first n of body.line.
type sharedPrefix struct {
	body *lastBody
	at   *byte
	n    int
}

// elementCacheMax bounds the entries held; past it the cache starts afresh.
const elementCacheMax = 1 << 18

type elementKey struct {
	format wire.Format // the body's format: the same bytes read differently in another
	sect   uint8       // which array (sectTools, ...)
	idx    int         // the element's index in it
	n      int         // its length in bytes
	h1, h2 uint64
}

// Arrays whose elements are cached.
const (
	sectTools uint8 = iota
	sectSystem
	sectMessages
	sectFunctions
	sectInput
	sectContents
)

type elementEntry struct {
	format wire.Format // the key's format (see member.prev)
	segs   []wire.Segment
	bps    []int       // the indices in segs of the segments that carry a cache breakpoint
	defs   [][2]string // call ids the element names
	uses   [][2]string // call ids it looked up, with the names found
	// gen and at are the body that added the element's segments last
	// (ElementCache.Placing) and where they went in it.
	gen uint64
	at  int
}

var elementSeed1, elementSeed2 = maphash.MakeSeed(), maphash.MakeSeed()

func NewElementCache() *ElementCache { return &ElementCache{m: make(map[elementKey]*elementEntry)} }

// elements adds the parts of each element of the member m (absent or
// null: none) with one, or, for an element seen before at the same index,
// the segments it became then.
func elements(b *classify.Builder, c *ElementCache, names *toolNames, sect uint8, m *member,
	one func(i int, el jsontext.Value) error) error {
	if m == nil || m.v.Kind() == 'n' {
		return nil
	}
	if m.v.Kind() != '[' {
		return errAt("/"+m.name, m.off, fmt.Errorf("%s is a JSON %s, want an array", m.name, KindName(m.v.Kind())))
	}
	m.ents = m.ents[:0]
	if n := len(m.els); n > 0 && cap(m.ents) < n {
		// Room for an entry for each element known (the Remember after
		// keeps the slice, so it is not reused), not grown as it fills.
		m.ents = make([]*elementEntry, 0, n)
	}
	for i, el := range m.elems() {
		if i < m.same && i < len(m.prev) {
			// Byte for byte the element at this index in the body before
			// (see Walker.WalkAfter): what it became then, without hashing it.
			if e := m.prev[i]; e != nil && e.format == b.Req.Format {
				e.add(b.Req, c.place(e, len(b.Req.Segments)) && c.inRunArray(b.Req.Segments))
				for _, d := range e.defs {
					names.m[d[0]] = d[1]
				}
				m.record(i, e)
				continue
			}
		}
		wrap := func(err error) error { return errAt("/"+m.name+"/"+strconv.Itoa(i), el.off, err) }
		k := elementKey{format: b.Req.Format, sect: sect, idx: i, n: len(el.v),
			h1: maphash.Bytes(elementSeed1, el.v), h2: maphash.Bytes(elementSeed2, el.v)}
		if e := c.m[k]; e != nil && e.fits(names) {
			e.add(b.Req, c.place(e, len(b.Req.Segments)) && c.inRunArray(b.Req.Segments))
			for _, d := range e.defs {
				names.m[d[0]] = d[1]
			}
			m.record(i, e)
			continue
		}
		e := &elementEntry{format: b.Req.Format}
		start, startBP := len(b.Req.Segments), len(b.Req.Breakpoints)
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
		e.segs = make([]wire.Segment, len(b.Req.Segments)-start)
		copy(e.segs, b.Req.Segments[start:])
		for j := range e.segs {
			e.segs[j].Escapes = slices.Clip(e.segs[j].Escapes)
		}
		for _, at := range b.Req.Breakpoints[startBP:] {
			e.bps = append(e.bps, at-start)
		}
		c.place(e, start)
		if len(c.m) >= elementCacheMax {
			clear(c.m)
		}
		c.m[k] = e
		m.record(i, e)
	}
	return nil
}

// add appends the element's segments to r, and their cache breakpoints.
// When they are known to be in r's array already, past its length, where
// they go (inPlace: see ElementCache.Placed), they are taken as they are, not copied:
// a session's repeated elements are otherwise copied again at every
// request (23 ms of W1200's decoding).
func (e *elementEntry) add(r *wire.Request, inPlace bool) {
	for _, at := range e.bps {
		r.Breakpoints = append(r.Breakpoints, len(r.Segments)+at)
	}
	if n := len(r.Segments) + len(e.segs); inPlace && n <= cap(r.Segments) {
		r.Segments = r.Segments[:n]
		inPlaceSegments.Add(int64(len(e.segs)))
		return
	}
	r.Segments = append(r.Segments, e.segs...)
}

// inPlaceSegments counts the segments add took in place, for tests.
var inPlaceSegments atomic.Int64

// record notes the entry the element at index i became, for the body
// after (see ElementCache.Remember), while the member's elements are few
// enough to be held (see keepElems).
func (m *member) record(i int, e *elementEntry) {
	if i == len(m.ents) && keepElems(i+1, len(m.v)) {
		m.ents = append(m.ents, e)
	}
}

// fits reports whether the names the element looked up resolve as they did.
func (e *elementEntry) fits(names *toolNames) bool {
	for _, u := range e.uses {
		if names == nil || names.m[u[0]] != u[1] {
			return false
		}
	}
	return true
}

// ReadLine reads one line including its newline; a line longer than MaxLine
// is an error (a *LongLineError).
func ReadLine(br *bufio.Reader) ([]byte, error) {
	b, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return LongLine(br, b, MaxLine, nil)
	}
	if LineLen(b, err) > MaxLine {
		return nil, &LongLineError{Max: MaxLine, Len: int64(len(b))}
	}
	return bytes.Clone(b), err
}

// LongLineError is the error of a line longer than the limit, read to its
// end and dropped.
type LongLineError struct {
	Max int   // the limit, in bytes before the newline
	Len int64 // the bytes read of the line, its newline included
}

func (e *LongLineError) Error() string { return fmt.Sprintf("line longer than %d bytes", e.Max) }

// LongLine reads the rest of a line whose first chunk, first, filled br's
// buffer (ReadSlice gave bufio.ErrBufferFull). The chunks are joined once,
// into buf when it is large enough: a line of N bytes costs N bytes more,
// not the 5N of a growing slice. A line of more than max bytes before its
// newline is read to its end without being held and dropped: the error is a
// *LongLineError. When buf has room for more than first (the buffer of a
// long line before, in a session whose lines grow), the chunks are read
// into it as they come, copied once, and buf grows as append grows it if
// the line is longer still.
func LongLine(br *bufio.Reader, first []byte, max int, buf []byte) ([]byte, error) {
	if cap(buf) > len(first) {
		return longLineInto(br, first, max, buf[:0])
	}
	b, err := first, bufio.ErrBufferFull
	var chunks [][]byte
	n := 0
	for err == bufio.ErrBufferFull {
		n += len(b)
		if n > max {
			k, err := SkipLine(br)
			if err != nil {
				return nil, err
			}
			return nil, &LongLineError{Max: max, Len: int64(n) + k}
		}
		chunks = append(chunks, bytes.Clone(b))
		b, err = br.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if n+LineLen(b, err) > max {
		return nil, &LongLineError{Max: max, Len: int64(n + len(b))}
	}
	n += len(b)
	out := buf[:0]
	if cap(out) < n {
		out = make([]byte, 0, n)
	}
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil // let each chunk go once joined
	}
	return append(out, b...), err
}

// longLineInto is LongLine appending each chunk to out.
func longLineInto(br *bufio.Reader, first []byte, max int, out []byte) ([]byte, error) {
	b, err := first, bufio.ErrBufferFull
	for err == bufio.ErrBufferFull {
		if len(out)+len(b) > max {
			n := len(out) + len(b)
			k, err := SkipLine(br)
			if err != nil {
				return nil, err
			}
			return nil, &LongLineError{Max: max, Len: int64(n) + k}
		}
		out = append(out, b...)
		b, err = br.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(out)+LineLen(b, err) > max {
		return nil, &LongLineError{Max: max, Len: int64(len(out) + len(b))}
	}
	return append(out, b...), err
}

// LineLen is the length of a line read by ReadSlice, without its newline.
func LineLen(b []byte, err error) int {
	if err == nil {
		return len(b) - 1
	}
	return len(b)
}

// SkipLine reads the rest of a line, newline included, holding none of it,
// and returns the bytes read. The end of the input ends the line.
func SkipLine(br *bufio.Reader) (int64, error) {
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		n += int64(len(b))
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil, io.EOF:
			return n, nil
		}
		return n, err
	}
}

// DepthExceeded returns the byte offset where nesting first goes deeper than
// limit, or -1. Strings are skipped a quote at a time.
func DepthExceeded(b []byte, limit int) int { return depthFrom(b, limit, 0) }

// depthFrom is DepthExceeded for b read from a place depth containers deep
// (outside any string).
func depthFrom(b []byte, limit, depth int) int {
	// Fewer openers than the limit allows, strings included: no walk (a
	// byte count runs several times faster than the walk).
	if depth+bytes.Count(b, []byte{'{'})+bytes.Count(b, []byte{'['}) <= limit {
		return -1
	}
	return depthWalk(b, limit, depth)
}

// depthWalk is depthFrom, walking b.
func depthWalk(b []byte, limit, depth int) int {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i = scan.QuoteEnd(b, i+1); i < 0 {
				return -1
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

// MaxDepth is the deepest JSON nesting accepted; no real payload comes near it.
const MaxDepth = 512

func FirstRunes(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if r := []rune(s); len(r) > n {
		s = string(r[:n])
	}
	return scan.VisibleLine(s)
}

func InvalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// MaxLine is the longest single line (or whole document) read: larger inputs
// are reported, not held.
const MaxLine = 1 << 30
