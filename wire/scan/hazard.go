package scan

import (
	"unicode"
	"unicode/utf8"
)

// HazardClass is the kind of a dangerous code point or sequence.
type HazardClass string

// Hazard classes. Each maps to one audit rule.
const (
	HazardBidi      HazardClass = "bidi"         // bidi-control
	HazardTag       HazardClass = "tag"          // tag-smuggling: U+E0000..U+E007F outside an emoji flag
	HazardInvisible HazardClass = "invisible"    // invisible-char: zero-width, default-ignorable, blank fillers, U+2028/9, concatenation marks, stray jamo
	HazardVSRun     HazardClass = "vs-run"       // invisible-char: a run of variation selectors, or one with no base
	HazardControl   HazardClass = "control"      // control-char: C0 but tab/LF/CR, DEL, C1
	HazardEscape    HazardClass = "escape"       // control-char: a whole terminal escape sequence
	HazardInvalid   HazardClass = "invalid-utf8" // a byte that is not UTF-8
)

// Hazard is one dangerous code point or sequence in a text.
type Hazard struct {
	Offset int // byte offset
	Len    int // bytes
	Class  HazardClass
	Rune   rune // the first code point (for invalid UTF-8, the byte)
}

// IsBidi reports whether r is a bidirectional formatting control.
func IsBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// IsTagChar reports whether r is a Unicode tag character.
func IsTagChar(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

// IsVariationSelector reports whether r is a variation selector.
func IsVariationSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF) || (r >= 0x180B && r <= 0x180D) || r == 0x180F
}

// IsInvisible reports whether r is a default-ignorable or blank-looking code
// point that hides text (not counting bidi controls, tags and variation
// selectors, which have their own classes), a prepended concatenation mark,
// or a Hangul filler or conjoining vowel or final jamo. The last two measure
// as no cells in x/ansi while terminals draw them, or draw them in other
// widths: a name padded with them overflows its column on screen.
func IsInvisible(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x115F, r == 0x17B4, r == 0x17B5, r == 0x180E:
		return true
	case IsConcatenationMark(r), isJamoVowel(r), isJamoFinal(r):
		return true
	case r >= 0x200B && r <= 0x200D: // ZWSP, ZWNJ, ZWJ
		return true
	case r >= 0x2060 && r <= 0x2065, r >= 0x206A && r <= 0x206F:
		return true
	case r == 0x2028, r == 0x2029, r == 0x2800, r == 0x3164, r == 0xFEFF, r == 0xFFA0:
		return true
	case r >= 0xFFF0 && r <= 0xFFF8:
		return true
	case r >= 0x1BCA0 && r <= 0x1BCA3, r >= 0x1D173 && r <= 0x1D17A:
		return true
	case r >= 0xE0080 && r <= 0xE0FFF && !(r >= 0xE0100 && r <= 0xE01EF):
		return true
	}
	return false
}

// IsConcatenationMark reports whether r is a prepended concatenation mark
// (Arabic number signs, the end of ayah, Syriac abbreviation mark, Kaithi
// number signs): a format character that a terminal draws, spanning the
// characters after it, where x/ansi measures it and the character after it
// as no cells.
func IsConcatenationMark(r rune) bool {
	switch {
	case r >= 0x0600 && r <= 0x0605, r == 0x06DD, r == 0x070F, r == 0x0890, r == 0x0891, r == 0x08E2:
		return true
	case r == 0x110BD, r == 0x110CD:
		return true
	}
	return false
}

// isJamoLead, isJamoVowel and isJamoFinal are the conjoining Hangul jamo:
// leading consonants (U+1100..U+115F, U+A960..U+A97C), vowels (U+1160..U+11A7,
// U+D7B0..U+D7C6; U+1160 is the vowel filler) and final consonants
// (U+11A8..U+11FF, U+D7CB..U+D7FB).
func isJamoLead(r rune) bool {
	return r >= 0x1100 && r <= 0x115F || r >= 0xA960 && r <= 0xA97C
}

func isJamoVowel(r rune) bool {
	return r >= 0x1160 && r <= 0x11A7 || r >= 0xD7B0 && r <= 0xD7C6
}

func isJamoFinal(r rune) bool {
	return r >= 0x11A8 && r <= 0x11FF || r >= 0xD7CB && r <= 0xD7FB
}

// joinsJamo reports whether the conjoining jamo r continues a Hangul
// syllable after prev (a decomposed syllable, as in NFD file names): a vowel
// after a leading consonant, a vowel or a precomposed LV syllable, a final
// after a vowel, a final or any precomposed syllable. The vowel filler
// never does (nor anything after a filler: fillers are hazards).
func joinsJamo(prev, r rune) bool {
	syllable := prev >= 0xAC00 && prev <= 0xD7A3
	switch {
	case r == 0x1160:
		return false
	case isJamoVowel(r):
		return isJamoLead(prev) || isJamoVowel(prev) || syllable && (prev-0xAC00)%28 == 0
	case isJamoFinal(r):
		return isJamoVowel(prev) || isJamoFinal(prev) || syllable
	}
	return false
}

// isEmoji approximates Extended_Pictographic and the emoji modifiers.
func isEmoji(r rune) bool {
	switch {
	case r == 0x00A9, r == 0x00AE, r == 0x203C, r == 0x2049, r == 0x2122, r == 0x2139:
		return true
	case r >= 0x2194 && r <= 0x21AA, r >= 0x231A && r <= 0x23FF, r == 0x24C2:
		return true
	case r >= 0x25AA && r <= 0x27BF, r >= 0x2934 && r <= 0x2935, r >= 0x2B05 && r <= 0x2B55:
		return true
	case r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	case r >= 0x1F000 && r <= 0x1FAFF:
		return true
	}
	return false
}

// joinsScript reports whether r is a letter or mark of a script that uses
// ZWJ and ZWNJ in ordinary writing (anything but Latin, Greek, Cyrillic and
// the common scripts).
func joinsScript(r rune) bool {
	if !(unicode.IsLetter(r) || unicode.IsMark(r)) || r < 0x0590 {
		return false
	}
	return !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Greek, r) && !unicode.Is(unicode.Cyrillic, r)
}

// plainByte: printable ASCII and the white space of text, never a hazard.
func plainByte(c byte) bool {
	return c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' || c == '\r'
}

// Hazards finds every hazard in s, in order, without overlaps. The one
// scanner behind the audit, the assemble sanitiser and the display sanitiser.
//
// Legitimate uses stay quiet: a ZWJ inside an emoji sequence, a ZWJ or ZWNJ
// between letters of a script that joins (Persian, Indic, ...), a single
// variation selector after a base character, the tag sequence of an emoji
// flag (U+1F3F4 followed by tags and U+E007F), the vowel and final jamo of a
// decomposed Hangul syllable.
func Hazards(s string) []Hazard {
	var out []Hazard
	prev := rune(-1) // previous code point, -1 after a hazard
	for i := 0; i < len(s); {
		if n := len(out); n > 0 && out[n-1].Offset+out[n-1].Len == i {
			// Nothing joins across a hazard: an emoji before an invalid
			// byte does not make the tags after it a flag.
			prev = -1
		}
		c := s[i]
		if plainByte(c) {
			// A run of plain ASCII in one tight loop: most of any text.
			j := i + 1
			for j < len(s) && plainByte(s[j]) {
				j++
			}
			prev = rune(s[j-1])
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			// A lone 8-bit C1 byte is an escape introducer on some terminals.
			if c >= 0x80 && c <= 0x9f {
				if l := c1SequenceLen(s, i, 1, rune(c)); l > 0 {
					out = append(out, Hazard{i, l, HazardEscape, rune(c)})
					i += l
					continue
				}
			}
			out = append(out, Hazard{i, 1, HazardInvalid, rune(c)})
			i++
			continue
		}
		switch {
		case r == 0x1b:
			l := escapeLen(s, i)
			out = append(out, Hazard{i, l, HazardEscape, r})
			i += l
			continue
		case r >= 0x80 && r <= 0x9f:
			if l := c1SequenceLen(s, i, n, r); l > 0 {
				out = append(out, Hazard{i, l, HazardEscape, r})
				i += l
				continue
			}
			out = append(out, Hazard{i, n, HazardControl, r})
		case r < 0x20 || r == 0x7f:
			out = append(out, Hazard{i, n, HazardControl, r})
		case IsBidi(r):
			out = append(out, Hazard{i, n, HazardBidi, r})
		case IsTagChar(r):
			if prev == 0x1F3F4 && r != 0xE007F {
				if l := flagTagLen(s, i); l > 0 {
					i += l
					prev = 0xE007F
					continue
				}
			}
			// One hazard for the whole run of tag characters.
			l := n
			for i+l < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[i+l:])
				if !IsTagChar(r2) {
					break
				}
				l += n2
			}
			out = append(out, Hazard{i, l, HazardTag, r})
			i += l
			continue
		case IsVariationSelector(r):
			l := n
			for i+l < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[i+l:])
				if !IsVariationSelector(r2) {
					break
				}
				l += n2
			}
			if l == n && prev > 0x20 && !IsVariationSelector(prev) {
				// A single selector after a base character: legitimate.
				prev = r
				i += n
				continue
			}
			out = append(out, Hazard{i, l, HazardVSRun, r})
			i += l
			continue
		case IsInvisible(r):
			if (isJamoVowel(r) || isJamoFinal(r)) && joinsJamo(prev, r) {
				prev = r
				i += n
				continue
			}
			if r == 0x200D || r == 0x200C {
				next, _ := utf8.DecodeRuneInString(s[i+n:])
				if r == 0x200D && (isEmoji(prev) || prev == 0xFE0F || (prev >= 0x1F3FB && prev <= 0x1F3FF)) && isEmoji(next) {
					prev = r
					i += n
					continue
				}
				if joinsScript(prev) && joinsScript(next) {
					prev = r
					i += n
					continue
				}
			}
			out = append(out, Hazard{i, n, HazardInvisible, r})
		default:
			prev = r
			i += n
			continue
		}
		i += n
	}
	return out
}

// HasHazards reports whether Hazards would find anything, without
// allocating for plain text.
func HasHazards(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c >= 0x7f {
			return len(Hazards(s)) > 0
		}
	}
	return false
}

// flagTagLen is the length of an emoji flag's tag sequence starting at i
// (tag letters and digits ending with CANCEL TAG), or 0.
func flagTagLen(s string, i int) int {
	l := 0
	for i+l < len(s) {
		r, n := utf8.DecodeRuneInString(s[i+l:])
		if r == 0xE007F {
			if l == 0 {
				return 0
			}
			return l + n
		}
		if !(r >= 0xE0030 && r <= 0xE0039 || r >= 0xE0061 && r <= 0xE007A) || l > 4*8 {
			return 0
		}
		l += n
	}
	return 0
}

// escapeLen is the length of the escape sequence starting with ESC at i.
func escapeLen(s string, i int) int {
	if i+1 >= len(s) {
		return 1
	}
	switch c := s[i+1]; {
	case c == '[':
		return 2 + csiLen(s, i+2)
	case c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X':
		return 2 + stringSeqLen(s, i+2)
	case c >= 0x20 && c <= 0x2f: // nF: intermediates then a final byte
		j := i + 1
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j - i
	case c >= 0x30 && c <= 0x7e:
		return 2
	}
	return 1
}

// csiLen is the length of a CSI sequence's parameters, intermediates and
// final byte starting at j.
func csiLen(s string, j int) int {
	k := j
	for k < len(s) && s[k] >= 0x30 && s[k] <= 0x3f {
		k++
	}
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x40 && s[k] <= 0x7e {
		k++
	}
	return k - j
}

// stringSeqLen is the length of an OSC, DCS, APC, PM or SOS body starting at
// j, up to and including its terminator (BEL, ESC \ or ST). An unterminated
// body ends at the end of the line.
func stringSeqLen(s string, j int) int {
	for k := j; k < len(s); k++ {
		switch s[k] {
		case 0x07:
			return k + 1 - j
		case 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2 - j
			}
			return k - j
		case '\n':
			return k - j
		case 0xc2:
			if k+1 < len(s) && s[k+1] == 0x9c {
				return k + 2 - j
			}
		case 0x9c:
			return k + 1 - j
		}
	}
	return len(s) - j
}

// c1SequenceLen is the length of an escape sequence introduced by the C1
// control r (encoded in n bytes at i), or 0 when r introduces none.
func c1SequenceLen(s string, i, n int, r rune) int {
	switch r {
	case 0x9b: // CSI
		return n + csiLen(s, i+n)
	case 0x9d, 0x90, 0x9f, 0x9e, 0x98: // OSC, DCS, APC, PM, SOS
		return n + stringSeqLen(s, i+n)
	}
	return 0
}
