package scan

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible makes hostile text safe to print: every control character, escape
// sequence, bidi control, tag character, invisible character and invalid byte
// is shown visibly (control pictures such as ␛ and ␇, or [U+202E], [0x9B])
// and never emitted raw. Newlines and tabs are kept; a carriage return is
// shown as ␍. This is the one sanitiser for the terminal, the window title,
// the clipboard and every report.
func Visible(s string) string { return visible(s, false) }

// VisibleLine is Visible for one line: newlines show as ␤ and tabs as a space.
func VisibleLine(s string) string { return visible(s, true) }

func visible(s string, oneLine bool) string {
	if isPlain(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	hz := Hazards(s)
	next := 0 // index into hz
	for i := 0; i < len(s); {
		if next < len(hz) && hz[next].Offset == i {
			h := hz[next]
			next++
			writeHazard(&b, s[h.Offset:h.Offset+h.Len], h)
			i = h.Offset + h.Len
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			if oneLine {
				b.WriteString("␤")
			} else {
				b.WriteByte('\n')
			}
		case r == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\t')
			}
		case r == '\r':
			b.WriteString("␍")
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII (plus newline and tab when kept).
func isPlain(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if !oneLine && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// writeHazard shows one hazard: escape sequences as ␛ followed by the
// sequence's printable bytes, C0 controls as control pictures, everything
// else as [U+XXXX] or [0xNN].
func writeHazard(b *strings.Builder, text string, h Hazard) {
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(b, "[0x%02X]", text[i])
		} else {
			writeRuneVisible(b, r)
		}
		i += max(n, 1)
	}
}

// writeRuneVisible writes one code point of a hazard visibly.
func writeRuneVisible(b *strings.Builder, r rune) {
	switch {
	case r == 0x1b:
		b.WriteString("␛")
	case r < 0x20:
		b.WriteRune(0x2400 + r) // ␀ ... ␟
	case r == 0x7f:
		b.WriteString("␡")
	case r >= 0x20 && r < 0x7f:
		b.WriteRune(r)
	default:
		fmt.Fprintf(b, "[U+%04X]", r)
	}
}
