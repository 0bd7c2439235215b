package redact

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// asciiLower is s with ASCII capitals made small, every offset kept: how
// the keywords were looked for before the one-pass matcher.
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

// naiveFind is every occurrence of every key in s, ASCII capitals of s
// matching small letters: one strings.Index per key and offset.
func naiveFind(keys []string, s string) map[[2]int]bool {
	low := asciiLower(s)
	out := map[[2]int]bool{}
	for id, k := range keys {
		if k == "" {
			continue
		}
		for at := 0; at <= len(low); at++ {
			i := strings.Index(low[at:], k)
			if i < 0 {
				break
			}
			out[[2]int{id, at + i}] = true
			at += i
		}
	}
	return out
}

// TestKWMatcher: the automaton reports exactly the occurrences that
// strings.Index finds, overlapping and nested ones included, in either case,
// in the order they end; kwAny agrees.
func TestKWMatcher(t *testing.T) {
	keys := []string{"he", "she", "his", "hers", "a", "aa", "aaa", "key", "api_key", "x-api-key", "ключ"}
	m := newKWMatcher(keys)
	texts := []string{"", "ushers", "USHERS", "ahishers", "aaaa", "x-API-KEY=1 api_key key", "ключ КЛЮЧ", "zzz", "\x00\xff"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString([]string{"h", "E", "s", "r", "a", "A", "k", "y", "_", "-", "x", "p", "i", " ", "ключ"}[r.IntN(15)])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		want := naiveFind(keys, s)
		got := map[[2]int]bool{}
		lastEnd := 0
		kwFind(m, s, func(id, start int) {
			if end := start + len(keys[id]); end < lastEnd {
				t.Errorf("%q: %q at %d reported after an occurrence ending at %d", s, keys[id], start, lastEnd)
			} else {
				lastEnd = end
			}
			if low := asciiLower(s); low[start:start+len(keys[id])] != keys[id] {
				t.Errorf("%q: %q reported at %d", s, keys[id], start)
			}
			got[[2]int{id, start}] = true
		})
		if len(got) != len(want) {
			t.Errorf("%q: %d occurrences, want %d", s, len(got), len(want))
		}
		for o := range want {
			if !got[o] {
				t.Errorf("%q: %q at %d not reported", s, keys[o[0]], o[1])
			}
		}
		if found := kwAny(m, s); found != (len(want) > 0) {
			t.Errorf("%q: kwAny %v with %d occurrences", s, found, len(want))
		}
		if kwAny(m, []byte(s)) != kwAny(m, s) {
			t.Errorf("%q: kwAny differs on bytes", s)
		}
	}
	if !kwAny(newKWMatcher([]string{"x", ""}), "") {
		t.Error("an empty keyword does not occur in the empty text")
	}
}

// oldTried is the rule selection before the one-pass matcher: a rule is
// tried when one of its keywords is in the ASCII lower case of the text.
func oldTried(r *leakRule, low string) bool {
	if len(r.keywords) == 0 {
		return true
	}
	for _, k := range r.keywords {
		if strings.Contains(low, k) {
			return true
		}
	}
	return false
}

// oldStarts are the window starts of a generic rule as they were found
// before: strings.Index of each keyword in the lower case, one occurrence
// after the other.
func oldStarts(r *leakRule, s, low string) []int {
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
	return slices.Compact(starts)
}

// equivalenceTexts are the texts of the equivalence test: every file of
// testdata (whole and line by line), the strings of the corpora, the fake
// keys, and generated texts dense with keywords in mixed case.
func equivalenceTexts(t *testing.T) []string {
	var texts []string
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		texts = append(texts, string(b))
		texts = append(texts, strings.Split(string(b), "\n")...)
		if strings.HasSuffix(path, ".json") {
			var v any
			if json.Unmarshal(b, &v) == nil {
				texts = append(texts, jsonStrings(v, nil)...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) < 1000 {
		t.Fatalf("only %d texts under %s", len(texts), root)
	}
	for _, k := range fakeKeys() {
		texts = append(texts, k.text, strings.ToUpper(k.text))
	}
	r := rand.New(rand.NewPCG(7, 11))
	// The literals that the rules' matches begin with, followed by
	// key-like runs, after word and other characters.
	for _, rule := range leakRules {
		rule.compiled()
		for _, l := range rule.lits {
			var b strings.Builder
			for range 20 {
				b.WriteString([]string{"", "x", " ", "_", "\"", "\n", "s", "=", "\\n"}[r.IntN(9)])
				lit := l.lit
				if r.IntN(3) == 0 {
					lit = strings.ToUpper(lit)
				}
				b.WriteString(lit)
				b.WriteString(fake(r, urlSafe+".", r.IntN(140)))
				b.WriteString([]string{"", " ", "'", "\n", ";", "x"}[r.IntN(6)])
			}
			texts = append(texts, b.String())
		}
	}
	// The names of the rules made from the generic template, in names of
	// up to 60 characters, assigned values of their keywords and key-like
	// runs, several to a text.
	for _, rule := range leakRules {
		for _, n := range rule.names {
			for range 10 {
				var b strings.Builder
				for range 1 + r.IntN(6) {
					b.WriteString([]string{"", " ", "\n", "x ", "\"", "é"}[r.IntN(6)])
					b.WriteString(fake(r, "abcdefghijklmnopqrstuvwxyz_.-", r.IntN(60)))
					name := n
					if r.IntN(3) == 0 {
						name = strings.ToUpper(name)
					}
					b.WriteString(name)
					b.WriteString(fake(r, "abcdefghijklmnopqrstuvwxyz_", r.IntN(25)))
					b.WriteString([]string{" = ", "=", ": ", "\" => \"", ":='", ","}[r.IntN(6)])
					if len(rule.keywords) > 0 && r.IntN(2) == 0 {
						b.WriteString(rule.keywords[r.IntN(len(rule.keywords))])
					}
					size := 8 + r.IntN(70)
					if q := quantities(rule.expr); len(q) > 0 && r.IntN(4) > 0 {
						size = q[r.IntN(len(q))]
					}
					b.WriteString(fake(r, []string{"0123456789abcdef", urlSafe, "abcdefghijklmnopqrstuvwxyz0123456789"}[r.IntN(3)], size))
					b.WriteString([]string{"", " ", "'", "\n", ";", "x", "\\n"}[r.IntN(7)])
				}
				texts = append(texts, b.String())
			}
		}
	}
	for range 500 {
		var b strings.Builder
		for range r.IntN(30) {
			k := leakKeys[r.IntN(len(leakKeys))]
			if r.IntN(2) == 0 {
				k = strings.ToUpper(k)
			}
			if n := r.IntN(4); n > 0 && n < len(k) {
				k = k[:len(k)-n] // a keyword cut short
			}
			b.WriteString(k)
			b.WriteString([]string{"", "_", " = ", "\n", "x", "\"", ": "}[r.IntN(7)])
		}
		texts = append(texts, b.String())
	}
	return texts
}

// quantities are the counts of the expression's {n} and {n,m} repeats of 8
// or more (the lengths of the values it looks for).
func quantities(expr string) []int {
	var out []int
	for _, m := range regexp.MustCompile(`\{(\d+)(?:,(\d+))?\}`).FindAllStringSubmatch(expr, -1) {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(g); err == nil && n >= 8 {
				out = append(out, n)
			}
		}
	}
	return out
}

// jsonStrings appends the strings of a decoded JSON value to out.
func jsonStrings(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = jsonStrings(e, out)
		}
	case map[string]any:
		for k, e := range v {
			out = jsonStrings(e, append(out, k))
		}
	}
	return out
}

// TestLeakScanEquivalence: on every text of the fixtures and corpora, the
// one-pass keyword scan tries the same rules as one strings.Contains per
// keyword over the lower case did, and gives the generic rules the same
// window starts; leakMayHold agrees with the rules tried.
func TestLeakScanEquivalence(t *testing.T) {
	leakOnce.Do(loadLeakRules)
	texts := equivalenceTexts(t)
	tried := 0
	for _, s := range texts {
		tried += checkLeakScan(t, s)
	}
	// The comparison means something only if rules were tried.
	if tried < 1000 || litMatches < 100 || nameMatches < 100 {
		t.Fatalf("%d rules tried over %d texts, %d matches of litFind, %d of windowedNames", tried, len(texts), litMatches, nameMatches)
	}
}

// litMatches counts the matches litFind was compared on, nameMatches those
// windowedNames was.
var litMatches, nameMatches int

// checkLeakScan compares the keyword scan of s with the old way, and
// litFind with FindAllStringSubmatchIndex, and returns how many rules are
// tried on s.
func checkLeakScan(t *testing.T, s string) int {
	t.Helper()
	low := asciiLower(s)
	hits := leakScan(s)
	tried := 0
	for _, r := range leakRules {
		old, now := oldTried(r, low), r.tried(&hits)
		if old != now {
			t.Fatalf("rule %s on %.80q: tried %v, was %v", r.id, s, now, old)
		}
		if now {
			tried++
		}
		if r.windowed {
			if o, n := oldStarts(r, s, low), windowStarts(r, s, hits.at); !slices.Equal(o, n) {
				t.Fatalf("rule %s on %.80q: window starts %v, were %v", r.id, s, n, o)
			}
		}
		if now && r.compiled() != nil && r.lits != nil {
			old, lit := r.compiled().FindAllStringSubmatchIndex(s, -1), litFind(r, s, hits.at)
			if !slices.EqualFunc(old, lit, slices.Equal) {
				t.Fatalf("rule %s on %.80q: litFind %v, FindAll %v", r.id, s, lit, old)
			}
			litMatches += len(old)
		}
		if now && r.compiled() != nil && r.names != nil {
			old, win := r.compiled().FindAllStringSubmatchIndex(s, -1), windowedNames(r, s)
			if !slices.EqualFunc(old, win, slices.Equal) {
				t.Fatalf("rule %s on %.80q: windowedNames %v, FindAll %v", r.id, s, win, old)
			}
			nameMatches += len(old)
		}
	}
	if may := leakMayHold([]byte(s)); may != (tried > 0) {
		t.Fatalf("leakMayHold %v on %.80q with %d rules tried", may, s, tried)
	}
	return tried
}

// FuzzLeakScan: on any text, the keyword scan tries the rules that
// strings.Contains over the lower case did, with the same window starts, and
// litFind finds what FindAllStringSubmatchIndex does.
func FuzzLeakScan(f *testing.F) {
	for _, s := range []string{"", "API_KEY=abc", "Token: x", "passwdpassword", "sEcReTkEyAuTh", "AKIA", "\xffkey\x00",
		"ss.abcdefghijklmnopqrstuvwx s.abcdefghijklmnopqrstuvwx\n", "AKIAAKIAQWERTYUIOPASDFGH"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		leakOnce.Do(loadLeakRules)
		checkLeakScan(t, s)
	})
}
