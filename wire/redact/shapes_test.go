package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestShapesHaveLiterals: every shape is searched from its literals; a shape
// added without them would be run over whole texts again, slowly.
func TestShapesHaveLiterals(t *testing.T) {
	for _, sh := range shapes {
		if sh.at == nil || len(sh.lits) == 0 {
			t.Errorf("shape %s: no literals every match begins with (%s)", sh.name, sh.re)
		}
	}
	if sh := &shapes[len(shapes)-2]; sh.name != "bearer-token" || !sh.lits[0].fold || !strings.EqualFold(sh.lits[0].lit, "bearer") {
		t.Errorf("bearer-token's literal: %+v", sh.lits)
	}
}

// shapeTexts are texts dense with the shapes' literals, in either case,
// after word and other characters, followed by key-like runs of every
// length around the shapes' minimums, several to a text, and overlapping.
func shapeTexts() []string {
	r := rand.New(rand.NewPCG(3, 5))
	var texts []string
	for _, sh := range shapes {
		for _, l := range sh.lits {
			for range 200 {
				var b strings.Builder
				for range 1 + r.IntN(8) {
					b.WriteString([]string{"", "x", " ", "_", "-", "\"", "\n", "é", "\xff", "task", "Bearer "}[r.IntN(11)])
					lit := l.lit
					switch r.IntN(4) {
					case 0:
						lit = strings.ToUpper(lit)
					case 1:
						lit += lit[:1+r.IntN(len(lit))] // a literal that overlaps itself
					}
					b.WriteString(lit)
					b.WriteString(fake(r, []string{urlSafe, urlSafe + ".+/= \n", upper32 + digits}[r.IntN(3)], r.IntN(60)))
					b.WriteString([]string{"", " ", "'", "\n", ";", "x", "-----END RSA PRIVATE KEY-----"}[r.IntN(7)])
				}
				texts = append(texts, b.String())
			}
		}
	}
	return texts
}

// TestShapeFindEquivalence: on every text of the fixtures and corpora and
// on texts dense with the shapes' literals, a shape's find gives what
// FindAllStringIndex over the whole text gives.
func TestShapeFindEquivalence(t *testing.T) {
	leakOnce.Do(loadLeakRules)
	texts := append(equivalenceTexts(t), shapeTexts()...)
	matches := 0
	for _, s := range texts {
		matches += checkShapeFind(t, s)
	}
	if matches < 1000 {
		t.Fatalf("only %d matches over %d texts: the comparison means little", matches, len(texts))
	}
}

// checkShapeFind compares every shape's find with FindAllStringIndex on s
// and returns the number of matches.
func checkShapeFind(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for i := range shapes {
		sh := &shapes[i]
		old, now := sh.re.FindAllStringIndex(s, -1), sh.find(s)
		if !slices.EqualFunc(old, now, slices.Equal) {
			t.Fatalf("shape %s on %.80q: find %v, FindAll %v", sh.name, s, now, old)
		}
		n += len(old)
	}
	return n
}

// FuzzShapeFind: on any text, a shape's find gives what FindAllStringIndex
// gives.
func FuzzShapeFind(f *testing.F) {
	for _, s := range []string{"", "sk-sk-abcdefghijklmnopqrstuvwxyz0123", "task-abcdefghijklmnopqrstuvwx1",
		"rk_live_sk_live_0123456789abcdefgh", "BeArEr abcdefghijklmnop1", "\xffAKIAABCDEFGHIJKLMNOP",
		"-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkShapeFind(t, s) })
}
