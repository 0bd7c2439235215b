package scan

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// SafeJSON rewrites every hazard Hazards finds in a JSON text (bidi
// controls, C1 controls, tag characters, invisible characters inside string
// values) as \u escapes. The JSON means exactly the same to a parser, and
// printing it to a terminal shows nothing raw. Every JSON report goes
// through it.
//
// JSON structure is ASCII and encoding/json already escapes the C0
// controls, so what is left are code points inside strings (and the
// printable tail of an escape sequence, kept as it is).
func SafeJSON(b []byte) []byte {
	s := string(b)
	hz := Hazards(s)
	if len(hz) == 0 {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b) + len(hz)*12)
	last := 0
	for _, h := range hz {
		out.WriteString(s[last:h.Offset])
		seg := s[h.Offset : h.Offset+h.Len]
		for i := 0; i < len(seg); {
			r, n := utf8.DecodeRuneInString(seg[i:])
			if r == utf8.RuneError && n <= 1 {
				r = utf8.RuneError // invalid bytes cannot be in a JSON string
			}
			if r < 0x80 && r >= 0x20 && r != 0x7f {
				out.WriteRune(r) // the printable tail of an escape sequence
			} else if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(&out, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(&out, `\u%04x`, r)
			}
			i += n
		}
		last = h.Offset + h.Len
	}
	out.WriteString(s[last:])
	return out.Bytes()
}
