package body

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// The token reader's own tokenizer: it reads the JSON text of one line in
// memory, in place, as jsontext.Decoder with WalkOpts reads it (invalid
// UTF-8 inside strings and duplicate names allowed), and no more: any text
// it does not take as that decoder would, it refuses, and the fast read
// gives up. What it checks: white space, the commas and colons between
// tokens, brackets that match, strings (no control byte, only the escapes
// \" \\ \/ \b \f \n \r \t and \u with four hex digits; an escaped surrogate
// needs no pair, as with AllowInvalidUTF8), numbers and literals to the
// JSON grammar. Nesting in a skipped value deeper than MaxDepth gives up
// (the decoder's own limit is far deeper).

// What may come before the next token (Reader.sep).
const (
	sepValue = iota // a value, nothing before it: the top level, or after a colon or a comma in an array
	sepFirst        // just after '{' or '[': its first name or element, or its end
	sepName         // after a comma in an object: a name
	sepColon        // after a name: a colon, then the value
	sepComma        // after a value in a container: a comma, or the container's end
	sepDone         // after the top-level value: nothing
)

// next moves past the white space and the comma or colon that come before
// the next token and returns the token's first byte (w.pos is at it), or 0
// when the text has none there or has something else than a comma or colon
// where one belongs. A name (a string) is returned only where a name
// belongs and a value only where a value does: Object reads the names.
func (w *Reader) next() byte {
	b, i := w.src, skipSpace(w.src, w.pos)
	if i >= len(b) {
		return 0
	}
	c := b[i]
	switch w.sep {
	case sepDone:
		return 0
	case sepColon:
		if c != ':' {
			return 0
		}
		if i = skipSpace(b, i+1); i >= len(b) {
			return 0
		}
		w.sep, c = sepValue, b[i]
	case sepComma:
		if c == ',' {
			if i = skipSpace(b, i+1); i >= len(b) {
				return 0
			}
			w.sep, c = sepValue, b[i]
			if w.top() == '{' {
				w.sep = sepName
			}
			if c == '}' || c == ']' {
				return 0 // a comma before the end
			}
		} else if c != closer(w.top()) {
			return 0
		}
	case sepFirst:
		if c == '}' || c == ']' {
			if c != closer(w.top()) {
				return 0
			}
		}
	case sepValue:
		if c == '}' || c == ']' {
			return 0
		}
	}
	w.pos = i
	return c
}

// nameNext reports whether the token at w.pos (after next) is where an
// object's member name belongs.
func (w *Reader) nameNext() bool {
	return w.sep == sepName || (w.sep == sepFirst && w.top() == '{')
}

// top is the innermost open container ('{' or '['), or 0 at the top level.
func (w *Reader) top() byte {
	if len(w.open) == 0 {
		return 0
	}
	return w.open[len(w.open)-1]
}

// valueRead sets the state after a value that ends at end.
func (w *Reader) valueRead(end int) {
	w.pos = end
	if len(w.open) == 0 {
		w.sep = sepDone
	} else {
		w.sep = sepComma
	}
}

// closer is the byte that closes the container opened by c.
func closer(c byte) byte {
	if c == '{' {
		return '}'
	}
	return ']'
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// scanString reads the JSON string that opens at b[i] (a quote): end is the
// offset just after its closing quote, or -1 when it is broken (no closing
// quote, a control byte, an escape JSON does not have); esc reports an
// escape in it, high a byte of 0x80 or more.
//
// Eight bytes are looked at a time: a word's bytes that are a quote, a
// backslash or below 0x20 are found by the borrows of a subtraction (the
// lowest flagged byte is always a true one), and its bytes before the first
// of them are added to the bytes seen for the high bit.
func scanString(b []byte, i int) (end int, esc, high bool) {
	i++
	var hi uint64
	for {
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q := x ^ (lsb * '"')
			s := x ^ (lsb * '\\')
			m := ((q - lsb) &^ q) | ((s - lsb) &^ s) | ((x - lsb*0x20) &^ x)
			if m &= msb; m != 0 {
				k := uint(bits.TrailingZeros64(m)) / 8
				hi |= x & (1<<(8*k) - 1)
				i += int(k)
				break
			}
			hi |= x
			i += 8
		}
		if i >= len(b) {
			return -1, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, hi&msb != 0
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return -1, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return -1, false, false
				}
				i += 6
			default:
				return -1, false, false
			}
		case c < 0x20:
			return -1, false, false
		default:
			hi |= uint64(c)
			i++
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanNumber reads the JSON number at b[i]: the offset just after it, or -1
// when the text there is none.
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// scanLiteral reads null, true or false at b[i]: the offset after it, or -1.
func scanLiteral(b []byte, i int) int {
	var lit string
	switch b[i] {
	case 'n':
		lit = "null"
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	default:
		return -1
	}
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// scanScalar reads the string, number or literal at b[i] (i < len(b)):
// the offset after it, or -1; high reports a byte of 0x80 or more in it.
func scanScalar(b []byte, i int) (end int, high bool) {
	switch c := b[i]; {
	case c == '"':
		end, _, high = scanString(b, i)
		return end, high
	case c == 'n' || c == 't' || c == 'f':
		return scanLiteral(b, i), false
	}
	return scanNumber(b, i), false
}

// skipValue reads the value at b[i] (white space before it skipped): the
// offset just after it, or -1 when it is broken or nested deeper than
// MaxDepth. open is scratch for the containers open in it; high reports a
// byte of 0x80 or more in its strings.
func skipValue(b []byte, i int, open []byte) (end int, _ []byte, high bool) {
	open = open[:0]
	for {
		// i is where a value starts.
		if i >= len(b) {
			return -1, open, false
		}
		switch c := b[i]; c {
		case '{', '[':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == closer(c) {
				i++
				break // an empty container: a value read
			}
			if len(open) >= MaxDepth {
				return -1, open, false
			}
			open = append(open, c)
			if c == '{' {
				var h bool
				if i, h = skipName(b, i); i < 0 {
					return -1, open, false
				}
				high = high || h
			}
			continue
		default:
			var h bool
			if i, h = scanScalar(b, i); i < 0 {
				return -1, open, false
			}
			high = high || h
		}
		// A value was read: a comma and the next one, or ends.
		for {
			if len(open) == 0 {
				return i, open, high
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return -1, open, false
			}
			top := open[len(open)-1]
			if b[i] == closer(top) {
				i++
				open = open[:len(open)-1]
				continue
			}
			if b[i] != ',' {
				return -1, open, false
			}
			i = skipSpace(b, i+1)
			if top == '{' {
				var h bool
				if i, h = skipName(b, i); i < 0 {
					return -1, open, false
				}
				high = high || h
			}
			break
		}
	}
}

// skipName reads a member's name and its colon at b[i]: the offset of the
// value after them (white space skipped), or -1; high as scanString's.
func skipName(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	end, _, high := scanString(b, i)
	if end < 0 {
		return -1, false
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return -1, false
	}
	return skipSpace(b, i+1), high
}

// unescape appends to dst the text s of a JSON string (between its quotes,
// its escapes valid as scanString found them, valid UTF-8) with its escapes
// undone. An escaped surrogate that is not half of a pair is false: the
// caller leaves such a string to jsontext.AppendUnquote.
func unescape(dst, s []byte) ([]byte, bool) {
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...), true
		}
		dst = append(dst, s[:i]...)
		c := s[i+1]
		s = s[i+2:]
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(s)
			s = s[4:]
			if utf16.IsSurrogate(r) {
				if len(s) < 6 || s[0] != '\\' || s[1] != 'u' || !isHex(s[2]) || !isHex(s[3]) || !isHex(s[4]) || !isHex(s[5]) {
					return dst, false
				}
				if r = utf16.DecodeRune(r, hex4(s[2:])); r == utf8.RuneError {
					return dst, false
				}
				s = s[6:]
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, c)
		}
	}
}

// hex4 is the value of the four hex digits that start s.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
