package redact

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The rules of gitleaks (github.com/zricethezav/gitleaks/v8, MIT), read from
// the default configuration that module embeds (config.DefaultConfig): about
// 220 rules, each a regular expression with the keywords that must occur for
// it to be tried, the capture group that holds the secret, a minimum Shannon
// entropy, and allowlists (regular expressions and stop words). They are
// applied here as gitleaks documents them; only the rule data is taken from
// the module, which is updated with `go get`.

// leakRule is one gitleaks rule, its expression compiled on first use.
type leakRule struct {
	id       string
	desc     string
	expr     string
	keywords []string // lower case; none means the rule is always tried
	kw       []int    // the keywords' indexes in leakKeys
	always   bool     // no keyword, or an empty one: the rule is always tried
	windowed bool     // a generic rule with keywords: tried by windowed
	group    int      // the capture group of the secret; 0: the first non-empty one
	entropy  float64
	allow    []leakAllow
	// lits, when set, are the literals (after \b when boundary is set)
	// that every match begins with, each at a keyword: tried by litFind.
	lits     []litStart
	boundary bool
	// searchLits: a literal does not begin with a keyword (authress's "sc"
	// before its keyword "sc_"): litFind searches for the literals.
	searchLits bool
	// names, when set, are the literals one of which every match's name
	// holds (a rule made from gitleaks' generic template for one service,
	// such as lob-api-key's "lob", whose keywords are in the value):
	// tried by windowedNames. They are assign's, for a rule that is not
	// windowed.
	names []string
	// assign, when set, are the literals of the name group of a rule made
	// from the generic template: windowedFrom tries a window only where
	// one ends just before an assignment (mayAssign).
	assign []string

	once sync.Once
	re   *regexp.Regexp

	anchoredOnce sync.Once
	anchored     *regexp.Regexp // \A(?:expr), for windowed
}

// leakAllow is an allowlist: a finding is dropped when its target matches
// one of the regexes or its secret holds one of the stop words (both, when
// all is set and both are given).
type leakAllow struct {
	target    string // "" (the secret), "match" or "line"
	exprs     []string
	stopWords []string
	all       bool
	never     bool // only paths or commits: nothing in a payload matches

	once sync.Once
	res  []*regexp.Regexp
}

// leakRules are the rules, and leakGlobal the allowlists of every rule.
// leakKeys are the distinct keywords of the rules, found in a text by
// leakKW in one pass.
var (
	leakOnce   sync.Once
	leakRules  []*leakRule
	leakGlobal []*leakAllow
	leakErr    error

	leakKeys   []string
	leakKW     *kwMatcher
	leakAlways bool // a rule is always tried
)

// loadLeakRules reads gitleaks' default configuration. Expressions are
// compiled when a rule is first tried, so a run pays only for the rules
// whose keywords occur.
func loadLeakRules() {
	var vc config.ViperConfig
	if leakErr = toml.Unmarshal([]byte(config.DefaultConfig), &vc); leakErr != nil {
		return
	}
	allowOf := func(target, cond string, regexes, stop, paths, commits []string) *leakAllow {
		a := &leakAllow{target: target, exprs: regexes, all: strings.EqualFold(cond, "AND")}
		for _, w := range stop {
			a.stopWords = append(a.stopWords, strings.ToLower(w))
		}
		if len(regexes) == 0 && len(stop) == 0 || a.all && (len(paths) > 0 || len(commits) > 0) {
			a.never = true
		}
		return a
	}
	if g := vc.AllowList; g != nil {
		leakGlobal = append(leakGlobal, allowOf(g.RegexTarget, g.Condition, g.Regexes, g.StopWords, g.Paths, g.Commits))
	}
	for _, g := range vc.Allowlists {
		if len(g.TargetRules) == 0 {
			leakGlobal = append(leakGlobal, allowOf(g.RegexTarget, g.Condition, g.Regexes, g.StopWords, g.Paths, g.Commits))
		}
	}
	for _, vr := range vc.Rules {
		// A rule that only names paths, or that is reported only with
		// others (a multi-part rule's part), does not apply to text alone.
		if vr.Regex == "" || vr.Path != "" || vr.SkipReport || len(vr.Required) > 0 {
			continue
		}
		r := &leakRule{id: vr.ID, desc: vr.Description, expr: vr.Regex, group: vr.SecretGroup, entropy: vr.Entropy}
		for _, k := range vr.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		if a := vr.AllowList; a != nil {
			r.allow = append(r.allow, *allowOf(a.RegexTarget, a.Condition, a.Regexes, a.StopWords, a.Paths, a.Commits))
		}
		for _, a := range vr.Allowlists {
			r.allow = append(r.allow, *allowOf(a.RegexTarget, a.Condition, a.Regexes, a.StopWords, a.Paths, a.Commits))
		}
		leakRules = append(leakRules, r)
	}
	index := map[string]int{}
	for _, r := range leakRules {
		r.always = len(r.keywords) == 0
		r.windowed = strings.HasPrefix(r.id, "generic") && len(r.keywords) > 0
		r.assign = assignLits(r.expr)
		if !r.windowed {
			r.names = r.assign
		}
		for _, k := range r.keywords {
			r.always = r.always || k == ""
			id, ok := index[k]
			if !ok {
				id = len(leakKeys)
				index[k] = id
				leakKeys = append(leakKeys, k)
			}
			r.kw = append(r.kw, id)
		}
		leakAlways = leakAlways || r.always
	}
	leakKW = newKWMatcher(leakKeys)
}

// leakHits is what one pass of leakKW found in a text: which keywords occur
// (a bit each, by index), and every occurrence, in the order they end.
type leakHits struct {
	seen []uint64
	at   []keyAt
}

// keyAt is an occurrence of a keyword (by index) at an offset.
type keyAt struct{ id, start int }

// leakScan finds the keywords of the rules in s.
func leakScan(s string) leakHits {
	h := leakHits{seen: make([]uint64, (len(leakKeys)+63)/64)}
	kwFind(leakKW, s, func(id, start int) {
		h.seen[id/64] |= 1 << (id % 64)
		h.at = append(h.at, keyAt{id, start})
	})
	return h
}

// tried reports whether r is tried on a text of which h is the keyword
// pass: it has no keyword, or one of its keywords occurs.
func (r *leakRule) tried(h *leakHits) bool {
	if r.always {
		return true
	}
	for _, id := range r.kw {
		if h.seen[id/64]&(1<<(id%64)) != 0 {
			return true
		}
	}
	return false
}

func (r *leakRule) compiled() *regexp.Regexp {
	r.once.Do(func() {
		re, err := regexp.Compile(r.expr)
		if err == nil {
			r.re = re
		}
		if lits, boundary, ok := startLits(r.expr); ok && !r.windowed {
			r.lits, r.boundary = lits, boundary
			r.searchLits = !keyedLits(lits, r.keywords)
		}
	})
	return r.re
}

func (r *leakRule) anchoredRe() *regexp.Regexp {
	r.anchoredOnce.Do(func() {
		re, err := regexp.Compile(`\A(?:` + r.expr + `)`)
		if err == nil {
			r.anchored = re
		}
	})
	return r.anchored
}

// allowed reports whether the allowlist drops a finding.
func (a *leakAllow) allowed(secret, match, line string) bool {
	if a.never {
		return false
	}
	a.once.Do(func() {
		for _, e := range a.exprs {
			if re, err := regexp.Compile(e); err == nil {
				a.res = append(a.res, re)
			}
		}
	})
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	byRegex := false
	if target != "" {
		for _, re := range a.res {
			if re.MatchString(target) {
				byRegex = true
				break
			}
		}
	}
	byWord := false
	if secret != "" && len(a.stopWords) > 0 {
		low := strings.ToLower(secret)
		for _, w := range a.stopWords {
			if strings.Contains(low, w) {
				byWord = true
				break
			}
		}
	}
	if a.all {
		return (len(a.res) == 0 || byRegex) && (len(a.stopWords) == 0 || byWord)
	}
	return byRegex || byWord
}

// leakFind appends to out the secrets gitleaks' rules find in s: the rules
// whose keywords occur (an ASCII capital in s matching its small letter).
func leakFind(s string, out []Secret) []Secret {
	leakOnce.Do(loadLeakRules)
	if leakKW == nil {
		return out
	}
	hits := leakScan(s)
	for _, r := range leakRules {
		if !r.tried(&hits) {
			continue
		}
		re := r.compiled()
		if re == nil {
			continue
		}
		var matches [][]int
		switch {
		case r.windowed:
			matches = windowed(r, s, hits.at)
		case r.names != nil && !strings.Contains(s, "\u017f") && !strings.Contains(s, "\u212a"):
			// (Under (?i) the expression's k and s also match the Kelvin
			// sign and the long s, which the ASCII search of the names
			// does not: a text holding one takes the whole search.)
			matches = windowedNames(r, s)
		case r.lits != nil:
			matches = litFind(r, s, hits.at)
		default:
			matches = re.FindAllStringSubmatchIndex(s, -1)
		}
		for _, m := range matches {
			// The match without the line feeds around it, as gitleaks
			// takes it.
			ms, me := m[0], m[1]
			for ms < me && s[ms] == '\n' {
				ms++
			}
			for me > ms && s[me-1] == '\n' {
				me--
			}
			start, end := ms, me
			switch {
			case r.group > 0 && 2*r.group+1 < len(m):
				start, end = m[2*r.group], m[2*r.group+1]
			case r.group == 0:
				for g := 1; 2*g+1 < len(m); g++ {
					if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
						start, end = m[2*g], m[2*g+1]
						break
					}
				}
			}
			if start < 0 || end <= start {
				continue
			}
			secret := s[start:end]
			if r.entropy != 0 && shannon(secret) <= r.entropy {
				continue
			}
			if strings.HasPrefix(r.id, "generic") && notCredential(secret, s[ms:start]) {
				continue
			}
			match := s[ms:me]
			ls := strings.LastIndexByte(s[:ms], '\n') + 1
			le := strings.IndexByte(s[me:], '\n')
			if le < 0 {
				le = len(s)
			} else {
				le += me
			}
			line := s[ls:le]
			dropped := false
			for _, a := range leakGlobal {
				if a.allowed(secret, match, line) {
					dropped = true
					break
				}
			}
			for k := 0; !dropped && k < len(r.allow); k++ {
				dropped = r.allow[k].allowed(secret, match, line)
			}
			if dropped {
				continue
			}
			out = append(out, Secret{Rule: r.id, Kind: kindOfRule(r.id), Start: start, End: end})
		}
	}
	return out
}

// shannon is the Shannon entropy of s in bits per byte.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// kindOfRule is a rule id read as words: "anthropic-api-key" is "anthropic
// api key".
func kindOfRule(id string) string { return strings.ReplaceAll(id, "-", " ") }

// leakMayHold reports whether s holds a keyword of a rule (an ASCII capital
// matching its small letter), or there is a rule without keywords: whether
// leakFind may find something in it.
func leakMayHold(s []byte) bool {
	leakOnce.Do(loadLeakRules)
	return leakAlways || leakKW != nil && kwAny(leakKW, s)
}

// hashNames, in the name of an assignment, say its value is a digest
// (lockfiles, manifests, caches), not a credential.
var hashNames = []string{"hash", "checksum", "digest", "integrity", "sha1", "sha256", "sha512", "etag", "fingerprint"}

// notCredential reports whether a value a generic rule found in an
// assignment (name holds what came before it) is an identifier or a digest:
// a UUID, or the value of a name that says it is a hash.
func notCredential(value, name string) bool {
	if isUUID(value) {
		return true
	}
	low := strings.ToLower(name)
	for _, h := range hashNames {
		if strings.Contains(low, h) {
			return true
		}
	}
	return false
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hexadecimal form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// The generic rules' expressions start with an unanchored, case-insensitive
// run of name characters, which Go's regexp matches slowly (about 1 s per MB
// of code). A match is a name holding a keyword (at most nameBefore bytes of
// it before the keyword), an assignment and a value, so each is looked for
// with the expression anchored at the start of the name around a keyword,
// in a window of windowAfter bytes past the keyword.
const (
	nameBefore  = 50
	windowAfter = 256
)

// isNameByte reports whether c may stand in a name ([\w.-]).
func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// windowed returns the matches of r's expression in s (as
// FindAllStringSubmatchIndex would, offsets into s) that start at a name
// around an occurrence of one of its keywords (at, from leakScan). A match
// that reaches the end of its window, short of the end of s, is dropped: it
// may be cut short.
func windowed(r *leakRule, s string, at []keyAt) [][]int {
	re := r.anchoredRe()
	if re == nil {
		return nil
	}
	return windowedFrom(re, s, windowStarts(r, s, at), r.assign)
}

// windowedFrom is the matches of re, anchored, from each of starts in turn
// (in order), within a window of the name and windowAfter bytes: a start
// inside the last match moves to its end.
func windowedFrom(re *regexp.Regexp, s string, starts []int, assign []string) [][]int {
	var out [][]int
	end, tried := -1, -1
	for _, start := range starts {
		// FindAll goes on from the end of the last match: a name that
		// begins inside it begins, for the search, where it ends.
		start = max(start, end)
		if start == tried {
			continue
		}
		tried = start
		stop := min(len(s), start+nameBefore+windowAfter)
		if assign != nil && !mayAssign(s, start, stop, assign) {
			continue
		}
		m := re.FindStringSubmatchIndex(s[start:stop])
		if m == nil || m[1] == stop-start && stop != len(s) {
			continue
		}
		shiftMatch(m, start)
		out = append(out, m)
		end = m[1]
	}
	return out
}

// templatePrefix is how gitleaks' generic template begins: a name of at most
// 50 characters holding one of the literals of the group that follows, then
// at most 20 more.
const templatePrefix = `(?i)[\w.-]{0,50}?(?:`

// windowedNames returns the matches of a template rule's expression in s
// (as FindAllStringSubmatchIndex would) by trying it anchored at the start
// of the name around each occurrence of one of its names (ASCII capitals
// matching small letters, as (?i) does): a match's name holds one, with at
// most nameBefore name bytes before it, so the earliest start a match can
// have is there. Go's regexp takes about a second per MB for the
// unanchored search of these expressions.
func windowedNames(r *leakRule, s string) [][]int {
	re := r.anchoredRe()
	if re == nil {
		return nil
	}
	var starts []int
	for _, n := range r.names {
		for i := foldIndex(s, n, 0); i >= 0; i = foldIndex(s, n, i+1) {
			start := i
			for start > 0 && i-start < nameBefore && isNameByte(s[start-1]) {
				start--
			}
			starts = append(starts, start)
		}
	}
	slices.Sort(starts)
	return windowedFrom(re, s, slices.Compact(starts), r.assign)
}

// foldIndex is the offset of the first occurrence of the lower-case ASCII
// literal lit in s at or after from, ASCII capitals matching, or -1. The
// places where lit's first byte stands, in either case, are found by
// IndexByte (vectorised), and only those are compared.
func foldIndex(s, lit string, from int) int {
	if len(lit) == 0 {
		if from <= len(s) {
			return from
		}
		return -1
	}
	lo, up := lit[0], lit[0]
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	last := len(s) - len(lit) // the last offset lit can start at
	nextLo, nextUp := -1, -1  // the next offset of lo, of up, at or after i (len(s) for none)
	for i := from; i <= last; i++ {
		if nextLo < i {
			nextLo = indexByteFrom(s, lo, i)
		}
		if nextUp < i {
			nextUp = indexByteFrom(s, up, i)
		}
		i = min(nextLo, nextUp)
		if i > last {
			return -1
		}
		if asciiEqualFold(s[i:i+len(lit)], lit) {
			return i
		}
	}
	return -1
}

// indexByteFrom is the offset of the first c in s at or after from, or
// len(s).
func indexByteFrom(s string, c byte, from int) int {
	if j := strings.IndexByte(s[from:], c); j >= 0 {
		return from + j
	}
	return len(s)
}

// windowStarts are where windowed tries r's expression, in order: the start
// of the name around each occurrence of one of r's keywords, the
// occurrences of a keyword taken one after the other as strings.Index finds
// them (one that overlaps the one before is left out).
func windowStarts(r *leakRule, s string, at []keyAt) []int {
	var starts []int
	ends := make([]int, len(r.kw))
	for _, k := range at {
		j := slices.Index(r.kw, k.id)
		if j < 0 || k.start < ends[j] {
			continue
		}
		ends[j] = k.start + len(leakKeys[k.id])
		start := k.start
		for start > 0 && k.start-start < nameBefore && isNameByte(s[start-1]) {
			start--
		}
		starts = append(starts, start)
	}
	slices.Sort(starts)
	return slices.Compact(starts)
}

// Warm reads gitleaks' rules in the background (a few milliseconds of
// parsing), so that a command that will look for secrets, called first,
// need not wait for them on its first text.
func Warm() { go leakOnce.Do(loadLeakRules) }

// shiftMatch moves the offsets of a submatch index slice found in s[by:]
// to offsets in s (unmatched groups, -1, stay).
func shiftMatch(m []int, by int) {
	for k := range m {
		if m[k] >= 0 {
			m[k] += by
		}
	}
}
