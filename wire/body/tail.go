package body

import (
	"bytes"
	"io"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// A session of growing bodies repeats the line before almost byte for
// byte: only its tail is new. WalkAfter walks a line from the last place
// where it still equals the body decoded before (kept by Remember), and
// elements reuses that body's entries for every element wholly inside the
// common prefix, so that a session costs a comparison of its bytes and the
// decoding of what is new. The result is the full walk's and decode's, byte
// for byte; anything out of the ordinary (a line that differs early, a
// repeated member, an error in the tail) goes the full way, which also
// words its errors.

// lastBody is what one line's body left for the next: its bytes and where
// its members and their elements lay.
type lastBody struct {
	line    []byte
	members []lastMember
	// from is the address of the first byte of the body line was copied
	// from, and fromN its length (see CopiedFrom): an address, not a
	// pointer, since the bytes may be unmapped since (a mapped file's
	// lines read, wire.Mapped.Release).
	from  uintptr
	fromN int
}

type lastMember struct {
	name     string
	off, end int64
	ord      int
	array    bool
	els      []span // nil when not known
	ents     []*elementEntry
}

// span is an element's place in its body.
type span struct{ off, n int64 }

// keepElems reports whether the first n elements of an array of size
// bytes are held (their places, their entries): while they are few, or
// take no more memory than the bytes they are cut from. A line of ten
// million tiny elements holds nothing for each.
func keepElems(n, size int) bool { return n <= 1024 || n*64 <= size }

// rememberMax is the longest body remembered: a copy of a huge line is
// not held beside it.
const rememberMax = 64 << 20

// Line is the body remembered for the next line (Remember), nil when
// there is none. It is a JSON body decoded without error, cut from one
// line: it holds no newline and no NUL byte, so a line that starts with
// its bytes has neither in them (the line reader looks for both only
// after them). Valid until the next Remember or Forget.
func (c *ElementCache) Line() []byte {
	if c.last == nil {
		return nil
	}
	return c.last.line
}

// CopiedFrom reports whether Line is a copy of the bytes of b, which are
// where the body it remembers was read (the same first byte, the same
// length): while those bytes are not written since (a mapped file's), Line
// holds what b holds, and what a line shares with b it shares with Line.
func (c *ElementCache) CopiedFrom(b []byte) bool {
	return c.last != nil && len(b) > 0 && c.last.from == uintptr(unsafe.Pointer(&b[0])) && c.last.fromN == len(b)
}

// Compared notes that the line at at was compared with Line already: its
// first n bytes are Line's. The next WalkAfter given a line at at does
// not compare them again.
func (c *ElementCache) Compared(at *byte, n int) {
	c.read = sharedPrefix{body: c.last, at: at, n: n}
}

// Forget drops the body remembered: the next line is walked in full.
func (c *ElementCache) Forget() {
	c.same, c.read = sharedPrefix{}, sharedPrefix{}
	if c.last != nil {
		c.spare, c.last = c.last, nil
		if cap(c.spare.line) > 8<<20 {
			c.spare.line = nil // a long line's copy is not kept for the next
		}
	}
}

// Remember keeps what the next line's WalkAfter needs of the body s, which
// was walked, decoded without error and emitted: a copy of its bytes and
// the places of its members and elements. When s is the line WalkAfter
// walked last, the copy of the line before already holds the bytes the two
// share: only the rest is copied.
func (c *ElementCache) Remember(s *Shape) {
	same := c.same
	c.Forget()
	if s.dup || len(s.v) > rememberMax {
		return
	}
	lb := c.spare
	c.spare = nil
	if lb == nil {
		lb = &lastBody{}
	}
	keep := 0
	if same.n > 0 && same.body == lb && len(s.v) >= same.n && &s.v[0] == same.at && len(lb.line) >= same.n {
		keep = same.n
	}
	if cap(lb.line) < len(s.v) {
		// Room for the lines to come, which in a session grow: append's
		// own growth (a quarter for large slices) would copy the whole
		// line again every few requests.
		grown := make([]byte, keep, 2*len(s.v))
		copy(grown, lb.line[:keep])
		lb.line = grown
	}
	lb.line = append(lb.line[:keep], s.v[keep:]...)
	lb.from, lb.fromN = 0, len(s.v)
	if len(s.v) > 0 {
		lb.from = uintptr(unsafe.Pointer(&s.v[0]))
	}
	// The places of the elements go in the spans the body remembered
	// before last (no longer read) had for its member at the same index,
	// when there is room; new ones have room to grow, as sessions do.
	var roomBuf [8][]span
	room := roomBuf[:0]
	for _, lm := range lb.members {
		room = append(room, lm.els[:0])
	}
	clear(lb.members)
	lb.members = lb.members[:0]
	for i := range s.members {
		m := &s.members[i]
		lm := lastMember{name: m.name, off: m.off, end: m.off + int64(len(m.v)), ord: m.ord, array: m.v.Kind() == '['}
		if lm.array && m.els != nil {
			if i < len(room) && cap(room[i]) >= len(m.els) {
				lm.els, room[i] = room[i][:len(m.els)], nil
			} else {
				lm.els = make([]span, len(m.els), len(m.els)+len(m.els)/4+16)
			}
			for j, el := range m.els {
				lm.els[j] = span{off: el.off, n: int64(len(el.v))}
			}
			if len(m.ents) == len(m.els) {
				lm.ents = m.ents
			}
		}
		lb.members = append(lb.members, lm)
	}
	c.last = lb
}

// WalkAfter walks the line v as Walk does, from where it stops being the
// body c remembers; it returns nil (and the caller walks v in full) when
// there is none, when too little of it is shared, or when v's tail is not
// a well-formed JSON object's (invalid UTF-8, nested too deep, a syntax
// error, a repeated member), so that every error is worded by the full
// walk. Either way c remembers nothing after it.
func (w *Walker) WalkAfter(v jsontext.Value, c *ElementCache) *Shape {
	last, read := c.last, c.read
	c.Forget()
	if last == nil || len(v) == 0 || v[0] != '{' {
		return nil
	}
	var p int64
	if read.body == last && read.at == &v[0] {
		p = int64(min(read.n, len(v))) // the line reader compared them
	} else {
		p = int64(CommonPrefix(v, last.line))
	}
	if p > 0 && c.spare == last {
		c.same = sharedPrefix{body: last, at: &v[0], n: int(p)}
	}
	// The checkpoint: after the last element wholly in the common prefix
	// of the last array member that starts in it.
	a := -1
	for i := range last.members {
		m := &last.members[i]
		if m.array && m.els != nil && m.off < p {
			a = i
		}
	}
	if a < 0 {
		return nil
	}
	am := &last.members[a]
	k := 0 // elements of am wholly in the prefix
	for k < len(am.els) && am.els[k].off+am.els[k].n <= p {
		k++
	}
	at := am.off + 1
	if k > 0 {
		at = am.els[k-1].off + am.els[k-1].n
	}
	tail := v[at:]
	// The prefix was valid UTF-8 and nested within the limit in the body
	// before; at the checkpoint (ASCII, outside any string) the object and
	// the array are open.
	if !utf8.Valid(tail) || depthFrom(tail, MaxDepth, 2) >= 0 {
		return nil
	}
	// The tail is read after a stand-in for the prefix: an object whose
	// member is an array, after an element when there is one before.
	head := `{"":[`
	if k > 0 {
		head += `0`
	}
	w.synth = append(append(w.synth[:0], head...), tail...)
	defer func() {
		if w.synth = w.synth[:0]; cap(w.synth) > 1<<20 {
			w.synth = nil // a huge tail is not held
		}
	}()
	w.buf = *bytes.NewBuffer(w.synth)
	w.dec.Reset(&w.buf, WalkOpts...)
	defer w.end()
	dec := &w.dec
	tokens := 3 // {  ""  [
	if k > 0 {
		tokens++ // 0
	}
	for range tokens {
		if _, err := dec.ReadToken(); err != nil {
			return nil
		}
	}
	shift := at - int64(len(head)) // a place in synth to one in v
	s := &Shape{v: v}
	for i := 0; i < a; i++ {
		s.members = append(s.members, kept(v, &last.members[i], len(last.members[i].els)))
	}
	m := kept(v, am, k)
	for dec.PeekKind() != ']' {
		el, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		off := dec.InputOffset() - int64(len(el)) + shift
		if m.els != nil {
			m.els = append(m.els, shapeElem{v: v[off : off+int64(len(el))], off: off})
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil
	}
	m.v = v[m.off : dec.InputOffset()+shift]
	if m.els != nil && !keepElems(len(m.els), len(m.v)) {
		m.els = nil
	}
	s.members = append(s.members, m)
	n := am.ord + 1
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		name := memberName(raw)
		val, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		n++
		if name == "" {
			continue
		}
		if s.get(name) != nil {
			return nil // repeated: the full walk says which counts
		}
		s.members = append(s.members, member{name: name, v: v[dec.InputOffset()-int64(len(val))+shift : dec.InputOffset()+shift],
			off: dec.InputOffset() - int64(len(val)) + shift, ord: n - 1})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil
	}
	s.n = n
	return s
}

// kept is a member of the body before, wholly in the common prefix but for
// the elements past its first k, read from v at the same place. The array
// member WalkAfter reads on from may have ended past the end of v (a line
// shorter than the one before): its bytes are cut at v's end, and set
// once its tail is read.
func kept(v jsontext.Value, lm *lastMember, k int) member {
	m := member{name: lm.name, v: v[lm.off:min(lm.end, int64(len(v)))], off: lm.off, ord: lm.ord, same: k}
	if lm.els != nil {
		m.els = make([]shapeElem, k, len(lm.els)+8)
		for j := range k {
			e := lm.els[j]
			m.els[j] = shapeElem{v: v[e.off : e.off+e.n], off: e.off}
		}
		if len(lm.ents) >= k {
			m.prev = lm.ents[:k]
		}
	}
	return m
}

// CommonPrefix is the length of the longest common prefix of a and b.
func CommonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	const step = 4096
	i := 0
	for i+step <= n && bytes.Equal(a[i:i+step], b[i:i+step]) {
		i += step
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
