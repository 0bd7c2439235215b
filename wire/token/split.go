package token

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizer cuts text into the pieces o200k_base's split pattern
// matches, as tiktoken-go v0.10.0 runs it (regexp2, compiled to Go):
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// The first alternative that matches at a position wins, each taken with
// its backtracking. Three things of that engine's are kept, as the
// counts must equal its: \s is unicode.IsSpace; a failed \s* of the fifth
// alternative gives back to the first \r or \n of the run, not the last; and
// DEL (U+007F) is in neither negated class (the compiled ASCII bitmaps leave
// it out), so no alternative matches it and the search steps over it: it
// yields no token.

// class is what the split pattern tells apart about a rune.
type class uint8

const (
	cNone  class = iota // DEL: matched by no alternative
	cLu                 // Lu, Lt
	cLl                 // Ll
	cLo                 // Lm, Lo
	cM                  // M (a mark is not \p{L})
	cN                  // \p{N}
	cNL                 // \r, \n
	cSpace              // other white space (unicode.IsSpace)
	cOther              // anything else
)

const (
	// inUpper is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], inLower
	// [\p{Ll}\p{Lm}\p{Lo}\p{M}], inPrefix [^\r\n\p{L}\p{N}] and inPunct
	// [^\s\p{L}\p{N}], as bit sets of classes.
	inUpper  = 1<<cLu | 1<<cLo | 1<<cM
	inLower  = 1<<cLl | 1<<cLo | 1<<cM
	inPrefix = 1<<cM | 1<<cSpace | 1<<cOther
	inPunct  = 1<<cM | 1<<cOther
	inSpace  = 1<<cNL | 1<<cSpace
)

var asciiClass = func() (t [utf8.RuneSelf]class) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = classOf(r)
	}
	t[0x7f] = cNone
	return t
}()

func classOf(r rune) class {
	switch {
	case r == '\r' || r == '\n':
		return cNL
	case unicode.IsSpace(r):
		return cSpace
	case unicode.In(r, unicode.Lu, unicode.Lt):
		return cLu
	case unicode.Is(unicode.Ll, r):
		return cLl
	case unicode.In(r, unicode.Lm, unicode.Lo):
		return cLo
	case unicode.Is(unicode.M, r):
		return cM
	case unicode.Is(unicode.N, r):
		return cN
	}
	return cOther
}

// at is the class of the rune at s[i] and its length; past the end it is
// cNone, 0.
func at(s string, i int) (class, int) {
	if i >= len(s) {
		return cNone, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return classOf(r), n
}

func is(c class, set int) bool { return set>>c&1 != 0 }

// piece is the end of the piece that starts at s[i], or -1 if none does (a
// DEL). s is valid UTF-8.
func piece(s string, i int) int {
	// The commonest piece first: a word of ASCII letters, lower case after
	// at most one capital, with or without a space before it, that ends at
	// an ASCII byte. The first alternative matches it so (a space is in its
	// prefix class, a capital in its upper run, and no ASCII byte but a-z
	// is in its lower run), and a rune past ASCII, which might go on with
	// the word, takes the general way below.
	j := i
	if s[j] == ' ' {
		j++
	}
	k := j
	if k < len(s) && 'A' <= s[k] && s[k] <= 'Z' {
		k++
	}
	m := k
	for m < len(s) && 'a' <= s[m] && s[m] <= 'z' {
		m++
	}
	if m > k && (m == len(s) || s[m] < utf8.RuneSelf) {
		return contraction(s, m)
	}
	c0, n0 := at(s, i)
	switch c0 {
	case cNone:
		return -1
	case cN:
		end := i
		for k := 0; k < 3; k++ {
			c, n := at(s, end)
			if c != cN {
				break
			}
			end += n
		}
		return end
	case cNL:
		// Only \s*[\r\n]+ can match, and its \s* gives back to s[i].
		return nlRun(s, i)
	}
	// [^\r\n\p{L}\p{N}]?[upper]*[lower]+, with the prefix, then without.
	if is(c0, inPrefix) {
		if end := upperLower(s, i+n0); end >= 0 {
			return contraction(s, end)
		}
	}
	if end := upperLower(s, i); end >= 0 {
		return contraction(s, end)
	}
	// [^\r\n\p{L}\p{N}]?[upper]+[lower]*, with the prefix, then without.
	if is(c0, inPrefix) {
		if c, _ := at(s, i+n0); is(c, inUpper) {
			return contraction(s, run(s, run(s, i+n0, inUpper), inLower))
		}
	}
	if is(c0, inUpper) {
		return contraction(s, run(s, run(s, i, inUpper), inLower))
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
	j = i
	if s[i] == ' ' {
		j++
	}
	if end := run(s, j, inPunct); end > j {
		for end < len(s) && (s[end] == '\r' || s[end] == '\n' || s[end] == '/') {
			end++
		}
		return end
	}
	// s[i] is white space: \s*[\r\n]+, \s+(?!\S), \s+.
	end, last := i, i
	for {
		c, n := at(s, end)
		if !is(c, inSpace) {
			break
		}
		if c == cNL {
			return nlRun(s, end)
		}
		last = end
		end += n
	}
	if end < len(s) && last > i {
		return last // give back the last white space to the next piece
	}
	return end
}

// nlRun is the end of the run of \r and \n at s[i].
func nlRun(s string, i int) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// run is the end of the run of runes in set from s[i].
func run(s string, i int, set int) int {
	for {
		for i < len(s) && s[i] < utf8.RuneSelf && is(asciiClass[s[i]], set) {
			i++
		}
		c, n := at(s, i)
		if !is(c, set) {
			return i
		}
		i += n
	}
}

// upperLower matches [upper]*[lower]+ at s[i] as the backtracking engine
// does, and returns its end, or -1. The upper run is taken whole; if no
// lower rune follows it gives back runes until one of its own (Lm, Lo, M
// are in both sets) can be the lower run.
func upperLower(s string, i int) int {
	lastLower := -1
	for {
		c, n := at(s, i)
		if !is(c, inUpper) {
			if c == cLl {
				return run(s, i, inLower)
			}
			return lastLower
		}
		i += n
		if is(c, inLower) {
			lastLower = i
		}
	}
}

// contraction extends a letter piece ending at s[i] by
// (?i:'s|'t|'re|'ve|'m|'ll|'d), as the compiled engine matches it (it takes
// U+017F, the long s, for s).
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] {
	case 's', 'S', 't', 'T', 'm', 'M', 'd', 'D':
		return i + 2
	case 'r', 'R', 'v', 'V':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l', 'L':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	case 0xc5: // U+017F is C5 BF
		if i+2 < len(s) && s[i+2] == 0xbf {
			return i + 3
		}
	}
	return i
}
