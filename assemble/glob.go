package assemble

import (
	"path"
	"strings"
)

// A .gitignore is workspace text like any other: a hostile one must not
// stall a listing. These limits bound what one costs.
const (
	// maxIgnoreRules is the most rules read from one .gitignore; the rest
	// are not applied (and a note says so).
	maxIgnoreRules = 1000
	// maxIgnorePattern is the longest pattern applied, in bytes; longer
	// ones are not applied (and a note says so).
	maxIgnorePattern = 1024
	// maxIgnoreSteps bounds the work of applying the rules in one listing,
	// in the steps that isIgnored and glob.match count (weighed so that a
	// step is a few nanoseconds at most, whatever the rules: see
	// BenchmarkGitignoreSteps); past it the listing stops with a note.
	// A thousand ordinary rules over a full listing (200 entries shown,
	// 10,000 counted) cost about 120 million; rules that reach the limit
	// took 0.3 to 0.6 s of CPU time here (BenchmarkGitignoreListing).
	maxIgnoreSteps = 200_000_000
)

// glob is a gitignore pattern made ready to match: with ** for any number
// of directories, and otherwise path.Match's syntax (*, ?, [classes], \).
type glob struct {
	// whole is the pattern, matched whole as path.Match does, when it has
	// no "**".
	whole segment
	// segs is the pattern split at "/" when it has a "**", with runs of
	// "**" segments collapsed into one (they match what one matches).
	segs []segment
}

// segment is a pattern for path.Match. The shapes most .gitignore lines
// have (a name, "*.log", "name*") are told apart and matched without it,
// the same way but cheaper: a listing applies every rule to every entry.
type segment struct {
	text string
	kind segmentKind
	lit  string // the text without its star, for the two star shapes
}

type segmentKind int

const (
	segmentMeta       segmentKind = iota // anything else: path.Match
	segmentLiteral                       // no wildcard, class or escape
	segmentStarSuffix                    // "*" then a literal: "*.log"
	segmentStarPrefix                    // a literal then "*": "npm-debug.log*"
	segmentAny                           // "**", as a whole segment
)

// compileGlob makes pattern ready to match.
func compileGlob(pattern string) glob {
	if !strings.Contains(pattern, "**") {
		return glob{whole: compileSegment(pattern)}
	}
	var g glob
	for s := range strings.SplitSeq(pattern, "/") {
		if s == "**" && len(g.segs) > 0 && g.segs[len(g.segs)-1].kind == segmentAny {
			continue
		}
		g.segs = append(g.segs, compileSegment(s))
	}
	return g
}

// compileSegment tells the shape of a path.Match pattern.
func compileSegment(s string) segment {
	const meta = `*?[\`
	switch {
	case s == "**":
		return segment{text: s, kind: segmentAny}
	case !strings.ContainsAny(s, meta):
		return segment{text: s, kind: segmentLiteral}
	case strings.HasPrefix(s, "*") && !strings.ContainsAny(s[1:], meta):
		return segment{text: s, kind: segmentStarSuffix, lit: s[1:]}
	case strings.HasSuffix(s, "*") && !strings.ContainsAny(s[:len(s)-1], meta):
		return segment{text: s, kind: segmentStarPrefix, lit: s[:len(s)-1]}
	}
	return segment{text: s, kind: segmentMeta}
}

// match matches the pattern against a slash path and adds its work to
// steps. It takes time polynomial in the lengths of the pattern and the
// name: ** is matched by dynamic programming over (pattern segment, name
// segment), never by trying each split again, and path.Match matches a
// segment chunk by chunk without backtracking (its work grows with the
// segment's length times the name's).
func (g glob) match(name string, steps *int) bool {
	if g.segs == nil {
		return g.whole.match(name, steps)
	}
	// The name's segments and the table's row, on the stack for names of
	// ordinary depth: a listing matches every entry against every rule.
	var npBuf [32]string
	var okBuf [len(npBuf) + 1]bool
	np := npBuf[:0]
	for rest := name; ; {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			np = append(np, rest)
			break
		}
		np, rest = append(np, rest[:i]), rest[i+1:]
	}
	*steps += 8 + 2*len(np) + len(name)/8
	// ok[j] says whether segs[i:] matches np[j:], for i going from the
	// end of the pattern to its start; at the end only the end matches.
	ok := okBuf[:]
	if len(np) >= len(okBuf) {
		*steps += 64 + 4*len(np) // np and ok on the heap
		ok = make([]bool, len(np)+1)
	}
	ok = ok[:len(np)+1]
	ok[len(np)] = true
	for i := len(g.segs) - 1; i >= 0; i-- {
		*steps += 2 * (len(np) + 1)
		live := false
		if g.segs[i].kind == segmentAny {
			// Any number of segments: segs[i+1:] matches from j or later.
			for j := len(np) - 1; j >= 0; j-- {
				ok[j] = ok[j] || ok[j+1]
			}
			live = ok[0]
		} else {
			// One segment, then the rest (ok[j+1] is still the row of i+1).
			for j := range np {
				ok[j] = ok[j+1] && g.segs[i].match(np[j], steps)
				live = live || ok[j]
			}
			ok[len(np)] = false
		}
		if !live {
			// No row after an empty one has a match.
			return false
		}
	}
	return ok[0]
}

// match is path.Match(s.text, name), a malformed pattern matching nothing,
// with its work counted: a few steps for the plain shapes, which compare
// bytes or look for a slash, and path.Match's bound otherwise, the length
// of the pattern times the name's (it tries each chunk between stars at
// each byte, and backtracks no further).
func (s segment) match(name string, steps *int) bool {
	switch s.kind {
	case segmentLiteral:
		*steps += 2
		return s.text == name
	case segmentStarSuffix:
		// The star takes what comes before the literal, without a slash.
		*steps += 4 + len(name)/8
		rest, ok := strings.CutSuffix(name, s.lit)
		return ok && !strings.Contains(rest, "/")
	case segmentStarPrefix:
		// The star takes what comes after the literal, without a slash.
		*steps += 4 + len(name)/8
		rest, ok := strings.CutPrefix(name, s.lit)
		return ok && !strings.Contains(rest, "/")
	}
	*steps += (len(s.text) + 1) * (len(name) + 1)
	ok, err := path.Match(s.text, name)
	return err == nil && ok
}
