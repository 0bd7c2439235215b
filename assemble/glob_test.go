package assemble

import (
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// matchGlob compiles pattern and matches it against name.
func matchGlob(pattern, name string) bool {
	var steps int
	return compileGlob(pattern).match(name, &steps)
}

// oldMatchGlob is the matcher before it was made safe, kept as the
// reference of what ordinary patterns mean: it tries every split at each
// "**" again, so it takes time exponential in their number.
func oldMatchGlob(pattern, name string) bool {
	if !strings.Contains(pattern, "**") {
		ok, err := path.Match(pattern, name)
		return err == nil && ok
	}
	pp := strings.Split(pattern, "/")
	np := strings.Split(name, "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(pp) {
			return j == len(np)
		}
		if pp[i] == "**" {
			for k := j; k <= len(np); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(np) {
			return false
		}
		ok, err := path.Match(pp[i], np[j])
		return err == nil && ok && match(i+1, j+1)
	}
	return match(0, 0)
}

// globCases are ordinary patterns with the answers matchGlob gave before it
// was made safe against hostile patterns (recorded from that code): the
// rewrite must not change one of them. Some differ from git's own matcher
// ("x/**" matches x itself; "[!a]" is a class of '!' and 'a', as in
// path.Match, not a negation); they are kept as they were.
var globCases = []struct {
	pattern, name string
	want          bool
}{
	// One segment: path.Match.
	{"*.go", "main.go", true},
	{"*.go", ".go", true},
	{"*.go", "a/main.go", false},
	{"*.go", "main.gox", false},
	{"?.go", "a.go", true},
	{"?.go", "ab.go", false},
	{"?", "/", false},
	{"a?b", "a/b", false},
	{"[abc].txt", "b.txt", true},
	{"[a-c].txt", "d.txt", false},
	{"[^a].txt", "b.txt", true},
	{"[^a].txt", "a.txt", false},
	{"[!a].txt", "!.txt", true},
	{"[!a].txt", "b.txt", false},
	{"a[^x]b", "a/b", true},
	{"a[/]b", "a/b", true},
	{"[", "[", false},
	{"[]", "x", false},
	{"a[", "a", false},
	{`\*.go`, "*.go", true},
	{`\*.go`, "a.go", false},
	{`a\`, `a\`, false},
	{"doc/frotz", "doc/frotz", true},
	{"doc/frotz", "a/doc/frotz", false},
	{"a/*/b", "a/x/b", true},
	{"a/*/b", "a/x/y/b", false},
	{"", "", true},
	{"a//b", "a//b", true},
	// ** for any number of directories.
	{"**/x", "x", true},
	{"**/x", "a/x", true},
	{"**/x", "a/b/x", true},
	{"**/x", "a/xy", false},
	{"**/x", "x/a", false},
	{"x/**", "x", true},
	{"x/**", "x/a", true},
	{"x/**", "x/a/b", true},
	{"x/**", "y/x/a", false},
	{"x/**", "xy/a", false},
	{"a/**", "a/", true},
	{"a/**/b", "a/b", true},
	{"a/**/b", "a/x/b", true},
	{"a/**/b", "a/x/y/b", true},
	{"a/**/b", "a/bb", false},
	{"a/**/b", "b", false},
	{"a/**/b/**/c", "a/b/c", true},
	{"a/**/b/**/c", "a/x/b/y/z/c", true},
	{"a/**/b/**/c", "a/x/c/b", false},
	{"**/*.go", "a/b.go", true},
	{"**/*.go", "b.go", true},
	{"**/*.go", "a/b/c.txt", false},
	{"**/[a-c]?/*.go", "z/b1/m.go", true},
	{"**/[a-c]?/*.go", "z/d1/m.go", false},
	{"**", "x", true},
	{"**", "a/b/c", true},
	{"**", "", true},
	{"**/", "a", false},
	{"**/**", "a/b", true},
	{"a/**/[", "a/[", false},
	{"a/**//b", "a/b", false},
	// ** inside a segment is a plain * there.
	{"a**b", "axxb", true},
	{"a**b", "a/b", false},
	{"a**b", "ab", true},
	{"**a/b", "xa/b", true},
	{"a/**b", "a/xb", true},
}

func TestMatchGlobOrdinaryPatterns(t *testing.T) {
	for _, c := range globCases {
		if got := matchGlob(c.pattern, c.name); got != c.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

// ignoredBy reads gitignore as the .gitignore of a directory prefix above
// the listed one and says whether it ignores rel.
func ignoredBy(t *testing.T, gitignore, prefix, rel string, isDir bool) bool {
	t.Helper()
	fsys := fstest.MapFS{".gitignore": &fstest.MapFile{Data: []byte(gitignore)}}
	rules, _, _ := readGitignore(fsys, prefix)
	var steps int
	return isIgnored(rules, rel, isDir, &steps)
}

// TestIsIgnoredOrdinaryRules reads ordinary .gitignore files and applies
// them, with the answers of the code before the matcher was rewritten:
// anchoring, directory-only rules, negation (the last match wins), escapes,
// comments and the prefix of an outer .gitignore.
func TestIsIgnoredOrdinaryRules(t *testing.T) {
	for _, c := range []struct {
		gitignore, prefix, rel string
		isDir, want            bool
	}{
		// Unanchored: the base name, at any depth.
		{"*.log\n", "", "a.log", false, true},
		{"*.log\n", "", "x/y/a.log", false, true},
		{"*.log\n", "", "a.log.txt", false, false},
		{"build\n", "", "src/build", true, true},
		{"build\n", "", "src/build", false, true},
		// Directory-only.
		{"build/\n", "", "build", true, true},
		{"build/\n", "", "build", false, false},
		{"build/\n", "", "src/build", true, true},
		// Anchored by a slash anywhere.
		{"/build\n", "", "build", false, true},
		{"/build\n", "", "src/build", false, false},
		{"doc/frotz\n", "", "doc/frotz", false, true},
		{"doc/frotz\n", "", "a/doc/frotz", false, false},
		{"/doc/frotz/\n", "", "doc/frotz", true, true},
		{"/doc/frotz/\n", "", "doc/frotz", false, false},
		// Negation: the last matching rule wins.
		{"*.log\n!keep.log\n", "", "a.log", false, true},
		{"*.log\n!keep.log\n", "", "keep.log", false, false},
		{"*.log\n!keep.log\n", "", "x/keep.log", false, false},
		{"!keep.log\n*.log\n", "", "keep.log", false, true},
		// Escapes, comments, blanks, trailing spaces, CRLF.
		{`\!important` + "\n", "", "!important", false, true},
		{`\#hash` + "\n", "", "#hash", false, true},
		{"#hash\n", "", "#hash", false, false},
		{"  \n\nfoo   \n", "", "foo", false, true},
		{"foo\r\nbar\r\n", "", "bar", false, true},
		{"/\n", "", "x", false, false},
		// ** forms.
		{"**/x\n", "", "x", false, true},
		{"**/x\n", "", "a/b/x", false, true},
		{"**/x\n", "", "a/xy", false, false},
		{"x/**\n", "", "x/a/b", false, true},
		{"x/**\n", "", "y/x/a", false, false},
		{"a/**/b\n", "", "a/b", false, true},
		{"a/**/b\n", "", "a/x/y/b", false, true},
		{"a/**/b/\n", "", "a/x/b", false, false},
		{"**/*.go\n", "", "p/q.go", false, true},
		// Character classes.
		{"[abc].txt\n", "", "d/b.txt", false, true},
		{"[a-c].txt\n", "", "d.txt", false, false},
		{"[^a].txt\n", "", "b.txt", false, true},
		// The .gitignore of a directory above: anchored patterns are
		// relative to it, unanchored ones still match the base name.
		{"/pkg/ws/gen/\n", "pkg/ws/", "gen", true, true},
		{"/ws/\n", "pkg/ws/", "ws", true, false},
		{"/ws/cache\n", "pkg/", "cache", false, false},
		{"/ws/cache\n", "ws/", "cache", false, true},
		{"tmp/\n", "pkg/", "tmp", true, true},
		{"**/gen/*.go\n", "pkg/ws/", "gen/y.go", false, true},
	} {
		if got := ignoredBy(t, c.gitignore, c.prefix, c.rel, c.isDir); got != c.want {
			t.Errorf(".gitignore %q (prefix %q): isIgnored(%q, dir=%v) = %v, want %v",
				c.gitignore, c.prefix, c.rel, c.isDir, got, c.want)
		}
	}
}

// TestMatchGlobAgreesWithTheOldMatcher matches random small patterns built
// from the pieces of ordinary ones (** and *, ?, classes, escapes, empty
// and malformed segments) against random paths, with both matchers.
func TestMatchGlobAgreesWithTheOldMatcher(t *testing.T) {
	pieces := []string{"**", "**", "*", "a", "b", "ab", "?", "[ab]", "[^a]", "a*", "*b", "a**b", `\*`, `\`, "[", "", "*?*", "*.go", "a.*", "*a*", ".go"}
	names := []string{"a", "b", "ab", "ba", "aab", "*", "", "[", "é", "\xff", "x.go", "a.go", ".go", "a.b"}
	r := rand.New(rand.NewPCG(1, 2))
	join := func(from []string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = from[r.IntN(len(from))]
		}
		return strings.Join(parts, "/")
	}
	for range 20000 {
		p, n := join(pieces, 1+r.IntN(6)), join(names, 1+r.IntN(6))
		if got, want := matchGlob(p, n), oldMatchGlob(p, n); got != want {
			t.Errorf("matchGlob(%q, %q) = %v, the old matcher said %v", p, n, got, want)
		}
	}
}

// FuzzMatchGlob checks that the matcher agrees with the old one on any
// pattern and path small enough for the old one to finish.
func FuzzMatchGlob(f *testing.F) {
	for _, c := range globCases {
		f.Add(c.pattern, c.name)
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if strings.Count(pattern, "**") > 6 || strings.Count(name, "/") > 8 || len(pattern) > 64 || len(name) > 64 {
			return
		}
		if got, want := matchGlob(pattern, name), oldMatchGlob(pattern, name); got != want {
			t.Errorf("matchGlob(%q, %q) = %v, the old matcher said %v", pattern, name, got, want)
		}
	})
}

// TestMatchGlobHostilePatternsAreBounded matches the patterns of a hostile
// .gitignore and bounds the steps the matcher counts by a constant times
// the pattern's length times the name's. The old matcher took over a
// minute of CPU time for the first pattern against a path three deep;
// against these paths it would not finish.
func TestMatchGlobHostilePatternsAreBounded(t *testing.T) {
	deep := strings.TrimSuffix(strings.Repeat("a/", 100), "/")
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		// Runs of ** collapse into one, which the last segment then fails.
		{strings.Repeat("**/", 800) + "nomatch", deep, false},
		{strings.Repeat("**/", 800) + "a", deep, true},
		// ** between segments that do match: each (pattern segment, name
		// segment) pair is tried at most once.
		{strings.Repeat("**/a/", 200) + "nomatch", deep, false},
		{strings.Repeat("**/a/", 200) + "a", deep, false},
		{strings.Repeat("**/a/", 50) + "a", deep, true},
		// Stars in one segment: path.Match does not backtrack.
		{strings.Repeat("*a", 500) + "b", strings.Repeat("a", 255), false},
		{"**/" + strings.Repeat("*a", 500) + "b", deep + "/" + strings.Repeat("a", 255), false},
	} {
		var steps int
		if got := compileGlob(c.pattern).match(c.name, &steps); got != c.want {
			t.Errorf("%.40q... against a %d-byte path: %v, want %v", c.pattern, len(c.name), got, c.want)
		}
		if limit := 4 * (len(c.pattern) + 1) * (len(c.name) + 1); steps > limit {
			t.Errorf("%.40q... against a %d-byte path: %d steps, want at most %d", c.pattern, len(c.name), steps, limit)
		}
	}
	// 800 "**" cost what one does.
	var one, many int
	compileGlob("**/nomatch").match(deep, &one)
	compileGlob(strings.Repeat("**/", 800)+"nomatch").match(deep, &many)
	if one != many {
		t.Errorf("800 ** took %d steps, one took %d", many, one)
	}
}

// TestReadGitignoreLimits reads a .gitignore with more rules than are
// applied and a pattern longer than is applied: the first rules stay, the
// rest are counted, and Collect notes both.
func TestReadGitignoreLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("/" + strings.Repeat("x", maxIgnorePattern+1) + "\n")
	for i := range maxIgnoreRules + 5 {
		fmt.Fprintf(&b, "# comment\nf%d\n", i)
	}
	fsys := fstest.MapFS{".gitignore": &fstest.MapFile{Data: []byte(b.String())}}
	rules, over, long := readGitignore(fsys, "")
	if len(rules) != maxIgnoreRules || over != 5 || long != 1 {
		t.Fatalf("%d rules, %d over, %d long; want %d, 5, 1", len(rules), over, long, maxIgnoreRules)
	}
	if last := rules[len(rules)-1].pattern.whole.text; last != fmt.Sprintf("f%d", maxIgnoreRules-1) {
		t.Errorf("last rule %q", last)
	}

	ws := writeTree(t, t.TempDir(), map[string]string{
		".gitignore": b.String(),
		"f0":         "x",
		"f1004":      "x",
		"main.go":    "x",
	})
	got := collectDir(t, ws, testNow)
	if want := ".gitignore\nf1004\nmain.go\n"; got.Listing != want {
		t.Errorf("listing:\n got %q\nwant %q", got.Listing, want)
	}
	notes := strings.Join(got.Notes, "\n")
	for _, want := range []string{
		filepath.Join(ws, ".gitignore") + ": only the first 1000 rules applied, 5 more not",
		filepath.Join(ws, ".gitignore") + ": patterns longer than 1024 bytes not applied: 1",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q in %q", want, got.Notes)
		}
	}
}

// TestCollectHostileGitignoreStops lists a workspace whose .gitignore is
// as costly as the limits let it be, against long names: the listing stops
// when the rules have cost maxIgnoreSteps, says so, and Collect returns.
func TestCollectHostileGitignoreStops(t *testing.T) {
	rule := strings.Repeat("*a", (maxIgnorePattern-1)/2) + "b\n"
	files := map[string]string{".gitignore": strings.Repeat(rule, maxIgnoreRules)}
	for i := range 20 {
		files[fmt.Sprintf("%02d%s", i, strings.Repeat("a", 200))] = "x"
	}
	ws := writeTree(t, t.TempDir(), files)
	b := collectDir(t, ws, testNow)
	if !strings.HasSuffix(b.Listing, "[wirelens: listing stopped, the .gitignore rules cost too much to apply]\n") {
		t.Errorf("listing does not say it stopped:\n%s", b.Listing)
	}
	if strings.Count(b.Listing, "\n") > 10 {
		t.Errorf("listing went on past the limit:\n%s", b.Listing)
	}
	if want := ws + ": listing stopped: the .gitignore rules cost too much to apply"; !strings.Contains(strings.Join(b.Notes, "\n"), want) {
		t.Errorf("no note %q in %q", want, b.Notes)
	}
}
