package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// Many rules' expressions begin, after an optional \b, with one of a few
// literals ("hvs." or "s." for a Vault token), each of which starts with a
// keyword of the rule. Every match then starts where one of the rule's
// keywords occurs, and the expression need only be tried there, anchored,
// not run over the whole text (which Go's regexp does slowly when the
// expression has no single literal prefix).

// litStart is a literal that a match of an expression begins with.
type litStart struct {
	lit  string
	fold bool // ASCII letters match in either case
}

// startLits returns the literals of which every match of expr begins with
// one, and whether \b comes before them; ok is false when expr is not of
// that form: an expression, or the first of a sequence, that is a literal,
// a group of one, or alternatives each of that form.
func startLits(expr string) (lits []litStart, boundary, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, false
	}
	if re.Op == syntax.OpConcat && len(re.Sub) > 1 && re.Sub[0].Op == syntax.OpWordBoundary {
		boundary = true
		re = re.Sub[1]
	}
	lits, ok = firstLits(re, nil)
	if !ok {
		return nil, false, false
	}
	for _, l := range lits {
		if boundary && !isWordByte(l.lit[0]) {
			return nil, false, false
		}
	}
	return lits, boundary, true
}

// firstLits appends to out the literals that every match of re begins
// with, if it has that form.
func firstLits(re *syntax.Regexp, out []litStart) ([]litStart, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		for _, r := range re.Rune {
			// A letter that folds to one outside ASCII (k to the Kelvin
			// sign) would match bytes the keywords do not.
			if fold && !asciiFold(r) || r == unicode.ReplacementChar {
				return nil, false
			}
		}
		if len(re.Rune) == 0 {
			return nil, false
		}
		return append(out, litStart{string(re.Rune), fold}), true
	case syntax.OpCapture:
		return firstLits(re.Sub[0], out)
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		return firstLits(re.Sub[0], out)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			var ok bool
			if out, ok = firstLits(sub, out); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// asciiFold reports whether r and every rune it folds to are ASCII.
func asciiFold(r rune) bool {
	if r >= 0x80 {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= 0x80 {
			return false
		}
	}
	return true
}

// isWordByte reports whether c is a word character of \b ([0-9A-Za-z_]).
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// keyedLits reports whether each of lits begins with one of keywords (in
// lower case; ASCII letters of the literals in either case), so that a
// match starts where a keyword occurs.
func keyedLits(lits []litStart, keywords []string) bool {
	for _, l := range lits {
		low := asciiLowerString(l.lit)
		if !slices.ContainsFunc(keywords, func(k string) bool { return k != "" && strings.HasPrefix(low, k) }) {
			return false
		}
	}
	return true
}

// asciiLowerString is s with ASCII capitals made small.
func asciiLowerString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerByte(c)
	}
	return string(b)
}

// hasLit reports whether s begins with one of lits.
func hasLit(s string, lits []litStart) bool {
	for _, l := range lits {
		if len(s) < len(l.lit) {
			continue
		}
		if l.fold && asciiEqualFold(s[:len(l.lit)], l.lit) || s[:len(l.lit)] == l.lit {
			return true
		}
	}
	return false
}

// asciiEqualFold reports whether a and b, of the same length, are equal
// but for the case of ASCII letters.
func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// litStarts are the offsets in s where one of lits begins, in order
// (overlapping ones included; a folded literal's ASCII letters in either
// case).
func litStarts(s string, lits []litStart) []int {
	var starts []int
	for _, l := range lits {
		lit := l.lit
		if l.fold {
			lit = asciiLowerString(lit) // for foldIndex
		}
		for i := 0; i < len(s); i++ {
			if l.fold {
				i = foldIndex(s, lit, i)
			} else if j := strings.Index(s[i:], lit); j >= 0 {
				i += j
			} else {
				i = -1
			}
			if i < 0 {
				break
			}
			starts = append(starts, i)
		}
	}
	slices.Sort(starts)
	return starts
}

// litFind returns the matches of r's expression in s, as
// FindAllStringSubmatchIndex would, trying it anchored only where one of its
// literals begins: at an occurrence of one of its keywords (at, from
// leakScan) when each literal begins with a keyword, else where a search
// for the literals finds one (searchLits).
func litFind(r *leakRule, s string, at []keyAt) [][]int {
	re := r.anchoredRe()
	if re == nil {
		return nil
	}
	var starts []int
	if r.searchLits {
		starts = litStarts(s, r.lits)
	} else {
		for _, k := range at {
			if slices.Contains(r.kw, k.id) {
				starts = append(starts, k.start)
			}
		}
		slices.Sort(starts)
	}
	return anchoredAll(re, s, starts, r.boundary, r.lits, true)
}

// anchoredAll is the matches of the anchored expression re tried at each of
// starts (in order) in s, as the unanchored search finds them: a start
// repeated, or inside the last match, is passed over, and so is one just
// after a word character when boundary is set (\b before a literal that
// begins with a word character: the anchored expression sees no character
// before it). With lits set, a start must begin one of them. sub asks for
// the offsets of the groups too (FindStringSubmatchIndex).
func anchoredAll(re *regexp.Regexp, s string, starts []int, boundary bool, lits []litStart, sub bool) [][]int {
	var out [][]int
	end := 0
	for i, p := range starts {
		if p < end || i > 0 && p == starts[i-1] || lits != nil && !hasLit(s[p:], lits) {
			continue
		}
		if boundary && p > 0 && isWordByte(s[p-1]) {
			continue
		}
		var m []int
		if sub {
			m = re.FindStringSubmatchIndex(s[p:])
		} else {
			m = re.FindStringIndex(s[p:])
		}
		if m == nil {
			continue
		}
		shiftMatch(m, p)
		out = append(out, m)
		end = m[1]
	}
	return out
}
