package scan

import (
	"bytes"
	"slices"
)

// IndentJSON appends to dst the compact JSON src (as encoding/json's Marshal
// and Encoder write it: no white space outside strings) indented as
// json.Indent would indent it: each element on a line of its own that
// starts with prefix and one indent a level (the first line without
// prefix), ": " after a name, empty objects and arrays kept as {} and [].
// It does not check src: json.Indent's scanner, a step for every byte, was
// most of the time of writing a large report; here the bytes of a string
// are copied in one piece.
func IndentJSON(dst, src []byte, prefix, indent string) []byte {
	// Room for the indentation at once, not grown (and copied) as it goes.
	dst = slices.Grow(dst, len(src)+len(src)/2)
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	open := false // an object or array was opened and nothing is in it yet
	depth := 0
	for i := 0; i < len(src); {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			end := len(src)
			if q := QuoteEnd(src, i+1); q >= 0 {
				end = q + 1
			}
			dst = append(dst, src[i:end]...)
			i = end
			continue
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline(depth)
			}
			dst = append(dst, c)
		default:
			// A number or a literal, copied to the next punctuation.
			j := i + 1
			for j < len(src) && !jsonPunct[src[j]] {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst
}

// jsonPunct are the bytes IndentJSON acts on outside strings.
var jsonPunct = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true, ':': true}

// QuoteEnd is the offset in b of the quote that closes the JSON string whose
// text starts at from (just after its opening quote): the next quote after
// an even number of backslashes, or -1 when there is none.
func QuoteEnd(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		n := 0 // backslashes before the quote: odd means escaped
		for k := i - 1; k >= from && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
	return -1
}
