// Package validjson tells, fast, that a body held in memory is one JSON
// value as jsontext's Value.IsValid accepts it (RFC 8259's grammar, UTF-8,
// escapes that decode to Unicode code points, the names of each object
// unique: RFC 7493), so that the recorder can write it as JSON without
// running the token decoder over every byte. It answers only "surely
// valid"; whatever it cannot tell cheaply (any syntax error, an escaped
// name, a surrogate escape, an object of many members, deep nesting) it
// leaves to jsontext, whose answer stands.
package validjson

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

const (
	// maxDepth is the deepest nesting checked here (jsontext allows 10,000).
	maxDepth = 512
	// maxNames is the most members of one object whose names are compared
	// here, each against the others.
	maxNames = 64
)

// Sure reports whether b is certainly one JSON value, with nothing but JSON
// white space around it, that jsontext.Value(b).IsValid() accepts. False
// means only that the caller must ask jsontext.
func Sure(b []byte) bool {
	c := checker{b: b}
	c.space()
	if !c.value(0) {
		return false
	}
	c.space()
	return c.i == len(b)
}

type span struct{ lo, hi int }

type checker struct {
	b     []byte
	i     int
	names []span // the names of the objects open, the innermost last
}

func (c *checker) space() {
	for c.i < len(c.b) {
		switch c.b[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *checker) value(depth int) bool {
	if c.i >= len(c.b) {
		return false
	}
	switch c.b[c.i] {
	case '{':
		return c.object(depth + 1)
	case '[':
		return c.array(depth + 1)
	case '"':
		_, ok := c.str()
		return ok
	case 't':
		return c.literal("true")
	case 'f':
		return c.literal("false")
	case 'n':
		return c.literal("null")
	}
	return c.number()
}

func (c *checker) literal(lit string) bool {
	if !bytes.HasPrefix(c.b[c.i:], []byte(lit)) {
		return false
	}
	c.i += len(lit)
	return true
}

// next is the byte at the reading position after white space (0 at the end).
func (c *checker) next() byte {
	c.space()
	if c.i >= len(c.b) {
		return 0
	}
	return c.b[c.i]
}

func (c *checker) object(depth int) bool {
	if depth > maxDepth {
		return false
	}
	c.i++
	if c.next() == '}' {
		c.i++
		return true
	}
	base := len(c.names)
	for {
		if c.next() != '"' {
			return false
		}
		lo := c.i + 1
		escaped, ok := c.str()
		if !ok || escaped || len(c.names)-base >= maxNames {
			// An escaped name may equal another written plainly: jsontext
			// compares them decoded.
			return false
		}
		name := c.b[lo : c.i-1]
		for _, n := range c.names[base:] {
			if n.hi-n.lo == len(name) && bytes.Equal(c.b[n.lo:n.hi], name) {
				return false
			}
		}
		c.names = append(c.names, span{lo, c.i - 1})
		if c.next() != ':' {
			return false
		}
		c.i++
		c.space()
		if !c.value(depth) {
			return false
		}
		switch c.next() {
		case ',':
			c.i++
		case '}':
			c.i++
			c.names = c.names[:base]
			return true
		default:
			return false
		}
	}
}

func (c *checker) array(depth int) bool {
	if depth > maxDepth {
		return false
	}
	c.i++
	if c.next() == ']' {
		c.i++
		return true
	}
	for {
		c.space()
		if !c.value(depth) {
			return false
		}
		switch c.next() {
		case ',':
			c.i++
		case ']':
			c.i++
			return true
		default:
			return false
		}
	}
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special is non-zero when one of the 8 bytes in x is a control byte, a
// quote, a backslash or a byte of a multi-byte UTF-8 sequence (each test is
// exact as a whole: "some byte is below n", "some byte is zero").
func special(x uint64) uint64 {
	below := (x - ones*0x20) &^ x
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return (below | ((q - ones) &^ q) | ((bs - ones) &^ bs) | x) & highs
}

// str reads the string at the reading position; escaped reports a
// backslash in it.
func (c *checker) str() (escaped, ok bool) {
	b := c.b
	i := c.i + 1
	for {
		for rest := b[i:]; len(rest) >= 16; rest = rest[16:] {
			if special(binary.LittleEndian.Uint64(rest))|special(binary.LittleEndian.Uint64(rest[8:])) != 0 {
				break
			}
			i += 16
		}
		for i+8 <= len(b) && special(binary.LittleEndian.Uint64(b[i:])) == 0 {
			i += 8
		}
		if i >= len(b) {
			return false, false
		}
		switch ch := b[i]; {
		case ch == '"':
			c.i = i + 1
			return escaped, true
		case ch == '\\':
			n := escapeLen(b[i:])
			if n == 0 {
				return false, false
			}
			escaped = true
			i += n
		case ch < 0x20:
			return false, false
		case ch < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return false, false
			}
			i += size
		}
	}
}

// escapeLen is the length of the escape at the start of b, 0 for one that
// is not valid or that is half of a surrogate pair (left to jsontext).
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		v := 0
		for _, h := range b[2:6] {
			switch {
			case '0' <= h && h <= '9':
				v = v<<4 | int(h-'0')
			case 'a' <= h && h <= 'f':
				v = v<<4 | int(h-'a'+10)
			case 'A' <= h && h <= 'F':
				v = v<<4 | int(h-'A'+10)
			default:
				return 0
			}
		}
		if 0xD800 <= v && v <= 0xDFFF {
			return 0
		}
		return 6
	}
	return 0
}

func (c *checker) digits() int {
	start := c.i
	for c.i < len(c.b) && '0' <= c.b[c.i] && c.b[c.i] <= '9' {
		c.i++
	}
	return c.i - start
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (c *checker) number() bool {
	b := c.b
	if c.i < len(b) && b[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i >= len(b):
		return false
	case b[c.i] == '0':
		c.i++
	case '1' <= b[c.i] && b[c.i] <= '9':
		c.digits()
	default:
		return false
	}
	if c.i < len(b) && b[c.i] == '.' {
		c.i++
		if c.digits() == 0 {
			return false
		}
	}
	if c.i < len(b) && (b[c.i] == 'e' || b[c.i] == 'E') {
		c.i++
		if c.i < len(b) && (b[c.i] == '+' || b[c.i] == '-') {
			c.i++
		}
		if c.digits() == 0 {
			return false
		}
	}
	return true
}
