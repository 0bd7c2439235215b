package classify

import (
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
)

// Escape rules reported by Escapes.
const (
	EscapeEntity    = "entity"    // an HTML/XML character reference: &lt; &#60; &#x3C;
	EscapeMarker    = "marker"    // a visible stand-in: [U+202E], [0x9B], a control picture such as ␛, U+FFFD
	EscapeTruncated = "truncated" // the note "[wirelens: truncated, N bytes not shown]"
)

// truncPrefix and truncSuffix frame the truncation note the assemble
// escaper writes when it caps a body.
const (
	truncPrefix = "[wirelens: truncated, "
	truncSuffix = " bytes not shown]"
)

// Escapes lists the escapes already applied in s, in order: character
// references (&lt; &gt; &amp; &quot; &apos; &#NN; &#xNN;), visible
// replacement markers ([U+XXXX], [0xNN], the control pictures U+2400 to
// U+2421 and U+2424, the replacement character U+FFFD) and wirelens's
// truncation note. Offsets are byte offsets in s; Original is the text the
// escape stands for when it can be known.
func Escapes(s string) []wire.Escape {
	var out []wire.Escape
	// Next candidate offset of each lead byte ('&', '[', 0xE2, 0xEF), found
	// with the vectorised IndexByte; -1 when none is left.
	var next [4]int
	leads := [4]byte{'&', '[', 0xE2, 0xEF}
	find := func(k, from int) {
		if next[k] < 0 {
			return
		}
		if j := strings.IndexByte(s[from:], leads[k]); j >= 0 {
			next[k] = from + j
		} else {
			next[k] = -1
		}
	}
	for k := range next {
		find(k, 0)
	}
	for i := 0; i < len(s); {
		// Jump to the nearest lead at or after i.
		best := -1
		for k := range next {
			if next[k] >= 0 && next[k] < i {
				find(k, i)
			}
			if next[k] >= 0 && (best < 0 || next[k] < best) {
				best = next[k]
			}
		}
		if best < 0 {
			break
		}
		i = best
		c := s[i]
		switch c {
		case '&':
			if e, n := entityAt(s, i); n > 0 {
				out = append(out, e)
				i += n
				continue
			}
		case '[':
			if e, n := bracketAt(s, i); n > 0 {
				out = append(out, e)
				i += n
				continue
			}
		case 0xE2:
			// U+2400..U+243F encode as E2 90 80..E2 90 BF.
			if i+2 < len(s) && s[i+1] == 0x90 {
				if orig, ok := controlPicture(rune(s[i+2]) - 0x80 + 0x2400); ok {
					out = append(out, wire.Escape{Rule: EscapeMarker, Offset: i, Text: s[i : i+3], Original: orig})
					i += 3
					continue
				}
			}
		case 0xEF:
			if strings.HasPrefix(s[i:], "\uFFFD") {
				out = append(out, wire.Escape{Rule: EscapeMarker, Offset: i, Text: "\uFFFD"})
				i += 3
				continue
			}
		}
		i++
	}
	return out
}

// controlPicture maps a control picture to the character it shows.
func controlPicture(r rune) (string, bool) {
	switch {
	case r >= 0x2400 && r <= 0x241F:
		return string(rune(r - 0x2400)), true
	case r == 0x2420:
		return " ", true
	case r == 0x2421:
		return "\x7f", true
	case r == 0x2424:
		return "\n", true
	}
	return "", false
}

// namedEntities are the character references escapers write.
var namedEntities = map[string]string{
	"lt": "<", "gt": ">", "amp": "&", "quot": `"`, "apos": "'",
}

// entityAt reads a character reference at s[i] == '&'; n is 0 when there
// is none.
func entityAt(s string, i int) (wire.Escape, int) {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		hex := false
		if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
			hex = true
			j++
		}
		base := 10
		if hex {
			base = 16
		}
		start := j
		v := 0
		for j < len(s) && j-start < 8 {
			d := digitVal(s[j], hex)
			if d < 0 {
				break
			}
			v = v*base + d
			j++
		}
		if j == start || j >= len(s) || s[j] != ';' {
			return wire.Escape{}, 0
		}
		j++
		orig := ""
		if r := rune(v); utf8.ValidRune(r) {
			orig = string(r)
		}
		return wire.Escape{Rule: EscapeEntity, Offset: i, Text: s[i:j], Original: orig}, j - i
	}
	start := j
	for j < len(s) && j-start < 6 && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j == start || j >= len(s) || s[j] != ';' {
		return wire.Escape{}, 0
	}
	orig, ok := namedEntities[strings.ToLower(s[start:j])]
	if !ok {
		return wire.Escape{}, 0
	}
	j++
	return wire.Escape{Rule: EscapeEntity, Offset: i, Text: s[i:j], Original: orig}, j - i
}

// digitVal is the value of a decimal (or hexadecimal) digit, or -1.
func digitVal(c byte, hex bool) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case hex && c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case hex && c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// bracketAt reads a bracketed marker at s[i] == '[': [U+XXXX] (4 to 6 hex
// digits), [0xNN] or the truncation note; n is 0 when there is none.
func bracketAt(s string, i int) (wire.Escape, int) {
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "[U+"):
		j, v := 3, 0
		for j < len(rest) && j-3 < 6 {
			d := digitVal(rest[j], true)
			if d < 0 {
				break
			}
			v = v*16 + d
			j++
		}
		if j-3 < 4 || j >= len(rest) || rest[j] != ']' {
			return wire.Escape{}, 0
		}
		orig := ""
		if r := rune(v); utf8.ValidRune(r) {
			orig = string(r)
		}
		return wire.Escape{Rule: EscapeMarker, Offset: i, Text: rest[:j+1], Original: orig}, j + 1
	case strings.HasPrefix(rest, "[0x"):
		if len(rest) < 6 || rest[5] != ']' {
			return wire.Escape{}, 0
		}
		hi, lo := digitVal(rest[3], true), digitVal(rest[4], true)
		if hi < 0 || lo < 0 {
			return wire.Escape{}, 0
		}
		return wire.Escape{Rule: EscapeMarker, Offset: i, Text: rest[:6], Original: string([]byte{byte(hi*16 + lo)})}, 6
	case strings.HasPrefix(rest, truncPrefix):
		j := len(truncPrefix)
		start := j
		for j < len(rest) && j-start < 20 && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == start || !strings.HasPrefix(rest[j:], truncSuffix) {
			return wire.Escape{}, 0
		}
		j += len(truncSuffix)
		return wire.Escape{Rule: EscapeTruncated, Offset: i, Text: rest[:j]}, j
	}
	return wire.Escape{}, 0
}
