package render

// JSON shown pretty-printed: a one-line JSON text (a tool's schema, a
// minified tool result) is drawn indented, and every offset into the text
// as sent (escapes, hazards, search matches, the cache cut) is moved to the
// text as shown.

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// prettyMax is the longest one-line JSON text shown pretty-printed: it is
// done when the text is selected, so it stays a few milliseconds.
const prettyMax = 256 << 10

// offsetMap moves byte offsets of a text as sent to the text as shown: from
// orig[i] on (up to orig[i+1]) an offset moves by delta[i]. Only whitespace
// outside strings differs, so every byte of a token keeps its place in it.
type offsetMap struct {
	orig, delta []int
}

// at is offset off of the text as sent in the text as shown.
func (m *offsetMap) at(off int) int {
	if m == nil || off < 0 {
		return off
	}
	i := sort.SearchInts(m.orig, off+1) - 1
	if i < 0 {
		return off
	}
	return off + m.delta[i]
}

// PrettyJSON is text indented by two spaces per level when it is one line
// of valid JSON (an object or an array) of at most prettyMax bytes, with the
// map of its offsets; text itself and nil otherwise. Strings are copied
// byte for byte.
func PrettyJSON(text string) (string, *offsetMap) {
	t := strings.TrimSpace(text)
	if len(text) > prettyMax || len(t) < 2 || (t[0] != '{' && t[0] != '[') || strings.IndexByte(text, '\n') >= 0 || !json.Valid([]byte(text)) {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text) + len(text)/4)
	m := &offsetMap{}
	depth := 0
	mark := func(i int) {
		if d := b.Len() - i; len(m.delta) == 0 || m.delta[len(m.delta)-1] != d {
			m.orig, m.delta = append(m.orig, i), append(m.delta, d)
		}
	}
	newline := func() {
		b.WriteByte('\n')
		for range depth {
			b.WriteString("  ")
		}
	}
	// next is the first byte after i that is not JSON whitespace.
	next := func(i int) int {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
			i++
		}
		return i
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t', '\r':
			continue
		case '"':
			mark(i)
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(text[i:min(len(text), j+1)])
			i = j
			continue
		}
		mark(i)
		switch c {
		case '{', '[':
			b.WriteByte(c)
			if n := next(i + 1); n < len(text) && (text[n] == '}' || text[n] == ']') {
				mark(n)
				b.WriteByte(text[n])
				i = n
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			mark(i)
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			newline()
		case ':':
			b.WriteString(": ")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), m
}

// shownEscapes are escapes at their offsets in the text as shown.
func (m *offsetMap) escapes(es []wire.Escape) []wire.Escape {
	if m == nil || len(es) == 0 {
		return es
	}
	out := make([]wire.Escape, len(es))
	for i, e := range es {
		e.Offset = m.at(e.Offset)
		out[i] = e
	}
	return out
}

// marks are marks at their offsets in the text as shown.
func (m *offsetMap) marks(ms []Mark) []Mark {
	if m == nil || len(ms) == 0 {
		return ms
	}
	out := make([]Mark, len(ms))
	for i, k := range ms {
		out[i] = Mark{m.at(k.Start), m.at(k.Start) + (k.End - k.Start)}
	}
	return out
}

// hazards are hazards at their offsets in the text as shown.
func (m *offsetMap) hazards(hz []scan.Hazard) []scan.Hazard {
	if m == nil || len(hz) == 0 {
		return hz
	}
	out := make([]scan.Hazard, len(hz))
	for i, h := range hz {
		h.Offset = m.at(h.Offset)
		out[i] = h
	}
	return out
}

// findings are findings at their offsets in the text as shown.
func (m *offsetMap) findings(fs []FindingMark) []FindingMark {
	if m == nil || len(fs) == 0 {
		return fs
	}
	out := make([]FindingMark, len(fs))
	for i, f := range fs {
		out[i] = FindingMark{m.at(f.Start), m.at(f.Start) + (f.End - f.Start), f.Severity}
	}
	return out
}
