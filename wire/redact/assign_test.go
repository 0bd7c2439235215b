package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAssignLits: the generic rule and the rules made from the template
// get the literals of their name group (a gitleaks update that changes the
// template switches the filter off: this says so).
func TestAssignLits(t *testing.T) {
	leakOnce.Do(loadLeakRules)
	with := 0
	for _, r := range leakRules {
		if r.assign != nil {
			with++
		}
		if r.id == "generic-api-key" {
			want := []string{"access", "auth", "api", "credential", "creds", "key", "passwd", "password", "secret", "token"}
			got := slices.Clone(r.assign)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("generic-api-key's literals %q, want %q", got, want)
			}
		}
		if r.names != nil && !slices.Equal(r.assign, r.names) {
			t.Errorf("%s: literals %q, names %q", r.id, r.assign, r.names)
		}
	}
	if with < 10 {
		t.Errorf("only %d rules filtered", with)
	}
}

// assignTexts are prose and code dense with the generic rule's keywords:
// keywords in sentences, before assignments after up to 30 characters of
// names, spaces and quotes, with values of every length.
func assignTexts() []string {
	r := rand.New(rand.NewPCG(9, 13))
	words := []string{"the", "API", "key", "is", "token", "secret", "password", "passwd", "auth", "access", "creds", "credential",
		"Api", "KEY", "sk", "my", "db", "x.y", "a-b", "\u212aey", "\u017fecret", "lob", "gocardless"}
	seps := []string{" ", "", "_", ".", "-", "\n", "\t", "'", "\"", " = ", "=", ": ", ":", " => ", "||", "?=", ",", ":::=", "(", ";", "é", "\\n"}
	var texts []string
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString(seps[r.IntN(len(seps))])
			if r.IntN(6) == 0 {
				b.WriteString(fake(r, []string{urlSafe, hexLow, alnum + "+/="}[r.IntN(3)], 8+r.IntN(40)))
				b.WriteString(seps[r.IntN(len(seps))])
			}
		}
		texts = append(texts, b.String())
	}
	return texts
}

// TestWindowedAssignEquivalence: on the fixtures, the corpora and texts
// dense with keywords and assignments, the windows mayAssign passes over
// hold no match: windowed and windowedNames find what they found trying
// every window.
func TestWindowedAssignEquivalence(t *testing.T) {
	leakOnce.Do(loadLeakRules)
	texts := append(equivalenceTexts(t), assignTexts()...)
	matches, skipped := 0, 0
	for _, s := range texts {
		m, k := checkWindowedAssign(t, s)
		matches, skipped = matches+m, skipped+k
	}
	if matches < 1000 || skipped < 1000 {
		t.Fatalf("%d matches, %d windows passed over: the comparison means little", matches, skipped)
	}
}

// checkWindowedAssign compares, on s, every filtered rule's windows with and
// without the filter; it returns the matches and the windows passed over.
func checkWindowedAssign(t *testing.T, s string) (matches, skipped int) {
	t.Helper()
	hits := leakScan(s)
	for _, r := range leakRules {
		if r.assign == nil || !r.tried(&hits) {
			continue
		}
		re := r.anchoredRe()
		var starts []int
		if r.windowed {
			starts = windowStarts(r, s, hits.at)
		} else {
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
			starts = slices.Compact(starts)
		}
		all, some := windowedFrom(re, s, starts, nil), windowedFrom(re, s, starts, r.assign)
		if !slices.EqualFunc(all, some, slices.Equal) {
			t.Fatalf("rule %s on %.120q: %v with the filter, %v trying every window", r.id, s, some, all)
		}
		matches += len(all)
		for _, st := range starts {
			if !mayAssign(s, st, min(len(s), st+nameBefore+windowAfter), r.assign) {
				skipped++
			}
		}
	}
	return matches, skipped
}

// FuzzWindowedAssign: on any text, the filter passes over no window that
// holds a match.
func FuzzWindowedAssign(f *testing.F) {
	for _, s := range assignTexts()[:20] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		leakOnce.Do(loadLeakRules)
		checkWindowedAssign(t, s)
	})
}

// TestFoldIndex: foldIndex finds what a byte-by-byte comparison finds, at
// every offset, on texts dense with the literal's letters in either case.
func TestFoldIndex(t *testing.T) {
	naive := func(s, lit string, from int) int {
		for i := from; i+len(lit) <= len(s); i++ {
			if asciiEqualFold(s[i:i+len(lit)], lit) {
				return i
			}
		}
		return -1
	}
	r := rand.New(rand.NewPCG(5, 8))
	found := 0
	for range 3000 {
		lit := []string{"key", "lob", "a", "sc_", "_x", "ab-1", "token"}[r.IntN(7)]
		s := fake(r, "kKeEyYlLoObBaAsScC_xX-1 \xff", r.IntN(60))
		for from := 0; from <= len(s)+1; from++ {
			if from > len(s) {
				continue
			}
			got, want := foldIndex(s, lit, from), naive(s, lit, from)
			if got != want {
				t.Fatalf("foldIndex(%q, %q, %d) = %d, want %d", s, lit, from, got, want)
			}
			if got >= 0 {
				found++
			}
		}
	}
	if found < 1000 {
		t.Fatalf("only %d occurrences compared", found)
	}
}
