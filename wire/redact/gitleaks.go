package redact

import (
	"bytes"
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
	group    int      // the capture group of the secret; 0: the first non-empty one
	entropy  float64
	allow    []leakAllow

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
var (
	leakOnce   sync.Once
	leakRules  []*leakRule
	leakGlobal []*leakAllow
	leakErr    error
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
}

func (r *leakRule) compiled() *regexp.Regexp {
	r.once.Do(func() {
		re, err := regexp.Compile(r.expr)
		if err == nil {
			r.re = re
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

// leakFind appends to out the secrets gitleaks' rules find in s; low is s
// in lower case (ASCII), for the keywords.
func leakFind(s, low string, out []Secret) []Secret {
	leakOnce.Do(loadLeakRules)
	for _, r := range leakRules {
		if len(r.keywords) > 0 {
			hit := false
			for _, k := range r.keywords {
				if strings.Contains(low, k) {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
		}
		re := r.compiled()
		if re == nil {
			continue
		}
		var matches [][]int
		if strings.HasPrefix(r.id, "generic") && len(r.keywords) > 0 {
			matches = windowed(r, s, low)
		} else {
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

// leakMayHold reports whether s holds a keyword of a rule (or there is a
// rule without keywords), so that leakFind may find something in it.
func leakMayHold(s []byte) bool {
	leakOnce.Do(loadLeakRules)
	leakKeysOnce.Do(func() {
		seen := map[string]bool{}
		for _, r := range leakRules {
			if len(r.keywords) == 0 {
				leakAlways = true
			}
			for _, k := range r.keywords {
				if !seen[k] {
					seen[k] = true
					leakKeys = append(leakKeys, []byte(k))
				}
			}
		}
	})
	if leakAlways {
		return true
	}
	low := bytes.ToLower(s)
	for _, k := range leakKeys {
		if bytes.Contains(low, k) {
			return true
		}
	}
	return false
}

var (
	leakKeysOnce sync.Once
	leakKeys     [][]byte
	leakAlways   bool
)

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
// around an occurrence of a keyword in low, the ASCII lower case of s. A
// match that reaches the end of its window, short of the end of s, is
// dropped: it may be cut short.
func windowed(r *leakRule, s, low string) [][]int {
	re := r.anchoredRe()
	if re == nil {
		return nil
	}
	var starts []int
	for _, k := range r.keywords {
		for at := 0; ; {
			i := strings.Index(low[at:], k)
			if i < 0 {
				break
			}
			i += at
			start := i
			for start > 0 && i-start < nameBefore && isNameByte(s[start-1]) {
				start--
			}
			starts = append(starts, start)
			at = i + len(k)
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	var out [][]int
	end := -1
	for _, start := range starts {
		if start < end {
			continue // inside the last match
		}
		stop := min(len(s), start+nameBefore+windowAfter)
		m := re.FindStringSubmatchIndex(s[start:stop])
		if m == nil || m[1] == stop-start && stop != len(s) {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += start
			}
		}
		out = append(out, m)
		end = m[1]
	}
	return out
}

// asciiLower is s with ASCII capitals made small, every offset kept.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
