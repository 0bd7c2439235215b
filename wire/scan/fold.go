package scan

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The look-alikes the tag finder folds to the ASCII structure of a tag. A
// reader (a person or a model) may take each for the ASCII character, so a
// tag spelt with them is a tag; the folding is a skeleton in the manner of
// UTS #39 for the characters a tag is made of, not the whole table.

// angleOpeners are the look-alikes of '<'.
var angleOpeners = []rune{
	0xFF1C, // ＜ fullwidth
	0xFE64, // ﹤ small
	0x2039, // ‹ single guillemet
	0x27E8, // ⟨ mathematical angle bracket
	0x3008, // 〈 CJK angle bracket
	0x02C2, // ˂ modifier letter left arrowhead
	0x2329, // 〈 left-pointing angle bracket
	0x276E, // ❮ heavy angle quotation mark ornament
	0x276C, // ❬ medium angle bracket ornament
	0x2770, // ❰ heavy angle bracket ornament
	0x29FC, // ⧼ curved angle bracket
	0x227A, // ≺ precedes
	0x226A, // ≪ much less-than
	0x27EA, // ⟪ mathematical double angle bracket
	0x300A, // 《 CJK double angle bracket
	0x1438, // ᐸ Canadian syllabics pa
	0x16B2, // ᚲ runic kauna
}

// angleClosers are the look-alikes of '>'.
var angleClosers = []rune{
	0xFF1E, 0xFE65, 0x203A, 0x27E9, 0x3009, 0x02C3, 0x232A,
	0x276F, 0x276D, 0x2771, 0x29FD, 0x227B, 0x226B, 0x27EB, 0x300B,
	0x1433, // ᐳ Canadian syllabics po
}

// Guillemets are quotation marks in ordinary prose (« bonjour »): they open
// or close a tag only written tight, with no whitespace inside (see
// matchTag).
const (
	guillemetOpen  = 0x00AB // «
	guillemetClose = 0x00BB // »
)

// slashes are the look-alikes of '/'.
var slashes = []rune{
	0xFF0F, // ／ fullwidth
	0x2215, // ∕ division slash
	0x2044, // ⁄ fraction slash
	0x29F8, // ⧸ big solidus
	0x2571, // ╱ box drawings diagonal
	0x27CB, // ⟋ rising diagonal
	0x30CE, // ノ katakana no
	0x31D3, // ㇓ CJK stroke sp
	0x4E3F, // 丿 CJK ideograph
	0x2F03, // ⼃ Kangxi radical slash
	0x2CC6, // Ⳇ Coptic old Coptic esh
	0x1735, // ᜵ Philippine single punctuation
}

// bars are the look-alikes of '|'.
var bars = []rune{
	0xFF5C, // ｜ fullwidth
	0xFFE8, // ￨ halfwidth forms light vertical
	0x2223, // ∣ divides
	0x2502, // │ box drawings light vertical
	0x2758, // ❘ light vertical bar ornament
	0x01C0, // ǀ dental click
	0x05C0, // ׀ Hebrew paseq
}

// nameLookalikes maps letters of other scripts that look like a Latin
// letter, and dashes that look like a hyphen, to the lower-case ASCII
// character of a tag name. Letters with a compatibility decomposition
// (mathematical alphanumerics, fullwidth, circled, ligatures) are folded by
// NFKD instead (foldName). The map is made on its first use (a tag name
// with a code point beyond ASCII), not at every start of every command.
var nameLookalikes = sync.OnceValue(nameLookalikesTable)

func nameLookalikesTable() map[rune]byte {
	return map[rune]byte{
		// Cyrillic.
		0x0430: 'a', 0x0435: 'e', 0x043E: 'o', 0x0440: 'p', 0x0441: 'c', 0x0443: 'y', 0x0445: 'x',
		0x0455: 's', 0x0456: 'i', 0x0458: 'j', 0x04BB: 'h', 0x0501: 'd', 0x051B: 'q', 0x051D: 'w',
		0x04CF: 'l', 0x0475: 'v', 0x04AF: 'y',
		0x0410: 'a', 0x0412: 'b', 0x0415: 'e', 0x041A: 'k', 0x041C: 'm', 0x041D: 'h', 0x041E: 'o',
		0x0420: 'p', 0x0421: 'c', 0x0422: 't', 0x0423: 'y', 0x0425: 'x', 0x0405: 's', 0x0406: 'i',
		0x0408: 'j', 0x04BA: 'h', 0x0500: 'd', 0x051A: 'q', 0x051C: 'w', 0x04AE: 'y', 0x04C0: 'l',
		0x0474: 'v',
		// Greek.
		0x03B1: 'a', 0x03B3: 'y', 0x03B9: 'i', 0x03BA: 'k', 0x03BD: 'v', 0x03BF: 'o', 0x03C1: 'p',
		0x03C5: 'u', 0x03C7: 'x', 0x03F2: 'c', 0x03F3: 'j',
		0x0391: 'a', 0x0392: 'b', 0x0395: 'e', 0x0396: 'z', 0x0397: 'h', 0x0399: 'i', 0x039A: 'k',
		0x039C: 'm', 0x039D: 'n', 0x039F: 'o', 0x03A1: 'p', 0x03A4: 't', 0x03A5: 'y', 0x03A7: 'x',
		0x03F9: 'c', 0x037F: 'j',
		// Armenian.
		0x0585: 'o', 0x057D: 'u', 0x0570: 'h', 0x0578: 'n', 0x0566: 'q', 0x0581: 'g',
		// Latin letters of other shapes and small capitals.
		0x0131: 'i', 0x0237: 'j', 0x0251: 'a', 0x0261: 'g', 0x0269: 'i', 0x026A: 'i', 0x029F: 'l',
		0x0274: 'n', 0x0280: 'r', 0x028F: 'y', 0x0299: 'b', 0x0262: 'g', 0x029C: 'h', 0x1D00: 'a',
		0x1D04: 'c', 0x1D05: 'd', 0x1D07: 'e', 0x1D0A: 'j', 0x1D0B: 'k', 0x1D0D: 'm', 0x1D0F: 'o',
		0x1D18: 'p', 0x1D1B: 't', 0x1D1C: 'u', 0x1D20: 'v', 0x1D21: 'w', 0x1D22: 'z', 0xA731: 's',
		// Dashes.
		0x2010: '-', 0x2011: '-', 0x2012: '-', 0x2013: '-', 0x2212: '-', 0x02D7: '-', 0x2043: '-',
	}
}

// runeIn reports whether r is one of list.
func runeIn(r rune, list []rune) bool {
	for _, c := range list {
		if c == r {
			return true
		}
	}
	return false
}

// openBracket reports what r opens, and whether it is a look-alike.
func openBracket(r rune) (k bracketKind, confusable bool) {
	switch {
	case r == '<':
		return angleBracket, false
	case r == '[':
		return squareBracket, false
	case r == 0xFF3B: // ［ fullwidth
		return squareBracket, true
	case r == guillemetOpen:
		return quoteBracket, true
	case r >= 0x2B0 && runeIn(r, angleOpeners):
		return angleBracket, true
	}
	return noBracket, false
}

// closeBracket reports whether r closes an angle tag (or, with square set, a
// square-bracket marker), and whether it is a look-alike.
func closeBracket(r rune, square bool) (ok, confusable bool) {
	if square {
		switch r {
		case ']':
			return true, false
		case 0xFF3D: // ］ fullwidth
			return true, true
		}
		return false, false
	}
	switch {
	case r == '>':
		return true, false
	case r == guillemetClose, r >= 0x2B0 && runeIn(r, angleClosers):
		return true, true
	}
	return false, false
}

// IsOpener reports whether r opens a tag for the tag finder: '<', '[' and
// every look-alike of '<' (the brackets an escaper neutralises in a tag
// start).
func IsOpener(r rune) bool {
	k, _ := openBracket(r)
	return k != noBracket
}

// IsBracketLookalike reports whether r is a look-alike of '<' or '>' that
// the tag finder folds to it (fullwidth, guillemets, ornaments, CJK and
// mathematical angle brackets, ...).
func IsBracketLookalike(r rune) bool {
	if r < 0x80 {
		return false
	}
	k, _ := openBracket(r)
	ok, _ := closeBracket(r, false)
	return k == angleBracket || k == quoteBracket || ok
}

// slashRune reports whether r is a solidus, and whether it is a look-alike.
func slashRune(r rune) (ok, confusable bool) {
	switch {
	case r == '/':
		return true, false
	case r >= 0x1700 && runeIn(r, slashes):
		return true, true
	}
	return false, false
}

// barRune reports whether r is a vertical bar, and whether it is a look-alike.
func barRune(r rune) (ok, confusable bool) {
	switch {
	case r == '|':
		return true, false
	case r >= 0x1C0 && runeIn(r, bars):
		return true, true
	}
	return false, false
}

// isMark reports whether r is a combining mark that draws on the letter
// before it (nonspacing or enclosing): inside a tag name it is skipped, the
// letter read as if it were plain.
func isMark(r rune) bool {
	return r >= 0x300 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r))
}

// asciiName folds an ASCII character of a tag name to lower case; ok is
// false for a character that cannot be part of a name.
func asciiName(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == ':':
		return byte(r), true
	case r >= 'A' && r <= 'Z':
		return byte(r + 'a' - 'A'), true
	}
	return 0, false
}

// foldName appends to buf the lower-case ASCII name characters that the
// first code point of s stands for, and returns its size in s. A
// non-ASCII code point folds through nameLookalikes, or through its
// compatibility decomposition (NFKD: mathematical alphanumerics, fullwidth
// and circled letters, ligatures such as U+FB06 for "st", letters with
// accents) with combining marks dropped and each remaining code point
// folded the same way; confusable is then set. ok is false (and buf
// unchanged) when the code point cannot be part of a name.
func foldName(buf []byte, s string) (out []byte, n int, confusable, ok bool) {
	if s == "" {
		return buf, 0, false, false
	}
	if c := s[0]; c < utf8.RuneSelf {
		b, ok := asciiName(rune(c))
		if !ok {
			return buf, 1, false, false
		}
		return append(buf, b), 1, false, true
	}
	r, n := utf8.DecodeRuneInString(s)
	if c, ok := nameLookalikes()[r]; ok {
		return append(buf, c), n, true, true
	}
	d := norm.NFKD.PropertiesString(s[:n]).Decomposition()
	if len(d) == 0 {
		return buf, n, false, false
	}
	start := len(buf)
	for len(d) > 0 {
		dr, dn := utf8.DecodeRune(d)
		d = d[dn:]
		if isMark(dr) {
			continue
		}
		c, ok := asciiName(dr)
		if !ok {
			c, ok = nameLookalikes()[dr]
		}
		if !ok {
			return buf[:start], n, false, false
		}
		buf = append(buf, c)
	}
	if len(buf) == start {
		return buf, n, false, false
	}
	return buf, n, true, true
}

// NameRune folds r to the lower-case ASCII character of a tag name, as the
// tag finder folds it, and says whether it was a look-alike (a fullwidth or
// mathematical letter, a Cyrillic or Greek homoglyph, a letter with an
// accent). ok is false when r cannot be part of a name or stands for more
// than one character (a ligature).
func NameRune(r rune) (c byte, confusable, ok bool) {
	if r < utf8.RuneSelf {
		c, ok = asciiName(r)
		return c, false, ok
	}
	var enc [utf8.UTFMax]byte
	var one [4]byte
	buf, _, confusable, ok := foldName(one[:0], string(utf8.AppendRune(enc[:0], r)))
	if !ok || len(buf) != 1 {
		return 0, false, false
	}
	return buf[0], confusable, true
}
