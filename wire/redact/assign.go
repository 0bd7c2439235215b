package redact

import (
	"regexp/syntax"
	"strings"
)

// Most of the windows windowedFrom tries hold a keyword in prose ("the API
// key is ..."), where gitleaks' generic template cannot match: its match is
// a name holding one of the group's literals (at most nameBefore characters
// of it before the literal), at most 20 more name characters and 3 quotes
// or spaces, and then an assignment (= > : | ? or , first). Every character
// before the assignment is a name character, a space or a quote, so the
// assignment starts at the first character that is none of these, one of
// the group's literals ends at most assignGap characters before it, and a
// value of at least valueMin characters starts a few characters after it
// (mayValue). A window where that does not hold is not tried: the template's
// anchored expression (a backtracking search over up to 300 bytes) would
// find nothing there.

// templateAssign is what follows the name group in the template.
const templateAssign = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// assignGap is the most characters between the end of the group's literal
// and the assignment: [ \t\w.-]{0,20} and [\s'"]{0,3}.
const assignGap = 23

// assignLits are the strings the name group of a template expression
// matches in ASCII (in lower case), or nil when expr is not made from the
// template or its group is not a small set of literals.
func assignLits(expr string) []string {
	rest, ok := strings.CutPrefix(expr, templatePrefix)
	if !ok {
		return nil
	}
	group, after, ok := cutGroup(rest)
	if !ok || !strings.HasPrefix(after, templateAssign) || topLevel(after, '|') >= 0 {
		return nil // not the template, or the template or something else (atlassian's)
	}
	re, err := syntax.Parse(`(?i:`+group+`)`, syntax.Perl)
	if err != nil {
		return nil
	}
	lits, ok := expandLits(re.Simplify())
	if !ok || len(lits) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, l := range lits {
		if l == "" {
			return nil // the group may match nothing: no literal to look for
		}
		if strings.IndexFunc(l, func(r rune) bool { return r >= 0x80 || !isNameByte(byte(r)) }) >= 0 {
			return nil // not a name (nytimes' "new-york-times,"): mayAssign and windowedNames look for names
		}
		if l = asciiLowerString(l); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// cutGroup splits s after the ")" that closes the group s is inside of.
func cutGroup(s string) (group, after string, ok bool) {
	i := topLevel(s, ')')
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// topLevel is the offset of the first c in the expression s outside its
// groups and classes (a ")" closing the group s is inside of is at the top
// level), or -1.
func topLevel(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		if depth == 0 && s[i] == c {
			return i
		}
		switch s[i] {
		case '\\':
			i++
		case '[':
			// A class: up to its closing bracket (a "]" first is a member).
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return -1
}

// expandLits is every ASCII string re matches, when those are few (at most
// 64, each class of at most 4 characters).
func expandLits(re *syntax.Regexp) ([]string, bool) {
	const most = 64
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= 0x80 {
				return nil, false
			}
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r >= 0x80 {
					continue // matches no ASCII: the Kelvin sign of a folded k
				}
				if out = append(out, string(r)); len(out) > 4 {
					return nil, false
				}
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return expandLits(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := expandLits(re.Sub[0])
		return append(sub, ""), ok
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			lits, ok := expandLits(sub)
			if !ok {
				return nil, false
			}
			if out = append(out, lits...); len(out) > most {
				return nil, false
			}
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			lits, ok := expandLits(sub)
			if !ok || len(out)*len(lits) > most {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range lits {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// After the assignment (at most 4 characters, ":::=") and at most 5 quotes,
// spaces or "=", the template's value is at least valueMin characters of
// [\w.=-] or [a-z0-9+/] (under (?i)).
const (
	assignMost = 4
	valueSkip  = 5
	valueMin   = 10
)

// valueByte reports whether c may stand in the template's value.
func valueByte(c byte) bool { return isNameByte(c) || c == '=' || c == '+' || c == '/' }

// gapByte reports whether c may stand between an assignment's first
// character and the value: the rest of the assignment, or a quote, a space
// or "=" before the value.
func gapByte(c byte) bool {
	return strings.IndexByte("=>:|?,`'\" \t\n\f\r", c) >= 0
}

// folded reports whether s starts with the Kelvin sign or the long s, which
// \w and [a-z] match under (?i): a text holding one is left to the
// expression.
func folded(s string) bool { return strings.HasPrefix(s, "\u212a") || strings.HasPrefix(s, "\u017f") }

// mayValue reports whether a value may follow the assignment at q in
// s[:stop]: a run of valueMin value characters starts after q, only
// characters that may stand in the gap before it, at most
// assignMost+valueSkip characters on.
func mayValue(s string, q, stop int) bool {
	for p := q + 1; p < stop && p <= q+assignMost+valueSkip; p++ {
		n := 0
		for i := p; i < stop && n < valueMin; i++ {
			if s[i] >= 0x80 && folded(s[i:]) {
				return true
			}
			if !valueByte(s[i]) {
				break
			}
			n++
		}
		if n >= valueMin {
			return true
		}
		if !gapByte(s[p]) {
			return false
		}
	}
	return false
}

// assignByte reports whether c may stand before the template's assignment:
// a name character, a space or a quote ([\w.-], [ \t], \s, ' and ").
func assignByte(c byte) bool {
	return isNameByte(c) || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\'' || c == '"'
}

// mayAssign reports whether the template's expression, anchored at start,
// may match in s[start:stop]: false only when it cannot (see above). A
// window with the Kelvin sign or the long s before the value is left to the
// expression: under (?i) its k and s match them, which the literals and the
// classes of bytes here do not; other characters outside ASCII stand in no
// name, gap or value.
func mayAssign(s string, start, stop int, lits []string) bool {
	q := start
	for q < stop && assignByte(s[q]) {
		q++
	}
	if q == stop {
		return false
	}
	switch c := s[q]; {
	case c >= 0x80 && folded(s[q:]):
		return true
	case c != '=' && c != '>' && c != ':' && c != '|' && c != '?' && c != ',':
		return false
	}
	if !mayValue(s, q, stop) {
		return false
	}
	// The first occurrence that ends at most assignGap before q and
	// before it, nameBefore or fewer characters after start.
	w := s[:q]
	for _, l := range lits {
		if i := foldIndex(w, l, max(start, q-assignGap-len(l))); i >= 0 && i-start <= nameBefore {
			return true
		}
	}
	return false
}
