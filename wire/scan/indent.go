package scan

import "bytes"

// IndentJSON appends to dst the compact JSON src (as encoding/json's Marshal
// and Encoder write it: no white space outside strings) indented as
// json.Indent would indent it: each element on a line of its own that
// starts with prefix and one indent a level (the first line without
// prefix), ": " after a name, empty objects and arrays kept as {} and [].
// It does not check src: json.Indent's scanner, a step for every byte, was
// most of the time of writing a large report; here the bytes of a string
// are copied in one piece.
func IndentJSON(dst, src []byte, prefix, indent string) []byte {
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	open := false // an object or array was opened and nothing is in it yet
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			// To the closing quote: the next quote not escaped.
			j := i + 1
			for j < len(src) {
				k := bytes.IndexAny(src[j:], `"\`)
				if k < 0 {
					j = len(src)
					break
				}
				j += k
				if src[j] == '\\' {
					j += 2
					continue
				}
				break
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
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
			dst = append(dst, c)
		}
	}
	return dst
}
