package assemble

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// BenchmarkEscapeBody escapes a capped-size AGENTS.md full of code and
// hostile code points.
func BenchmarkEscapeBody(b *testing.B) {
	unit := "Use `if a < b && c > d {}`; </untrusted_agents_md> \u202eevil\u202c \x1b[31mred\x1b[0m ok\u200b.\n"
	src := strings.Repeat(unit, MaxFileBytes/len(unit))
	b.SetBytes(int64(len(src)))
	for _, mode := range []EscapeMode{EscapeEntities, EscapeTargeted} {
		b.Run(string(mode), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				EscapeBody(src, mode, "bench")
			}
		})
	}
}

// BenchmarkBuildPoisoned collects the poisoned workspace from disk, binds
// it and encodes it, as `wirelens build` does.
func BenchmarkBuildPoisoned(b *testing.B) {
	for _, l := range []Layout{LayoutIsolated, LayoutLegacy} {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				in, closeIn, err := OpenInput(poisonedDir, nil, nil, testNow)
				if err != nil {
					b.Fatal(err)
				}
				base, err := Collect(in)
				if err != nil {
					b.Fatal(err)
				}
				res, err := Bind(base, Config{Layout: l, Host: testHost, Skills: []string{"deploy"}})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := encode.Encode(res.Request, wire.FormatAnthropic); err != nil {
					b.Fatal(err)
				}
				closeIn()
			}
		})
	}
}

// BenchmarkGitignorePathological matches hostile .gitignore patterns: a
// long run of "**/" ending in a name that matches nothing, against a path as
// deep as a listing goes and against a deep one; "**/a/" repeated (no two
// "**" side by side) against a path of a's; and "*a*a*...*b" against a long
// base name of a's.
func BenchmarkGitignorePathological(b *testing.B) {
	deep := strings.TrimSuffix(strings.Repeat("a/", 40), "/")
	for _, c := range []struct{ name, pattern, path string }{
		{"doublestar-800/depth-3", strings.Repeat("**/", 800) + "nomatch", "a/b/c"},
		{"doublestar-800/depth-40", strings.Repeat("**/", 800) + "nomatch", deep},
		{"doublestar-a-400/depth-40", strings.Repeat("**/a/", 400) + "nomatch", deep},
		{"star-a-500/name-255", strings.Repeat("*a", 500) + "b", strings.Repeat("a", 255)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if matchGlob(c.pattern, c.path) {
					b.Fatal("matched")
				}
			}
		})
	}
}

// hostileRules is a .gitignore of maxIgnoreRules lines made by line.
func hostileRules(line func(i int) string) string {
	var s strings.Builder
	for i := range maxIgnoreRules {
		s.WriteString(line(i) + "\n")
	}
	return s.String()
}

// ordinaryRule is the i-th rule of a large but ordinary .gitignore: each of
// the shapes such files have.
func ordinaryRule(i int) string {
	return fmt.Sprintf([]string{"*.ext%d", "dir%d/", "/build%d", "**/gen%d/*.x", "[Dd]ebug%d/", "npm-debug%d.log*"}[i%6], i)
}

// BenchmarkGitignoreSteps applies rules of each shape to names and reports
// the time of one step: the weights glob.match gives each kind of work
// keep these close, so that maxIgnoreSteps bounds time whatever the rules.
func BenchmarkGitignoreSteps(b *testing.B) {
	read := func(prefix, gitignore string) []ignoreRule {
		r, _, _ := readGitignore(fstest.MapFS{".gitignore": &fstest.MapFile{Data: []byte(gitignore)}}, prefix)
		return r
	}
	short := make([]string, 100)
	for i := range short {
		short[i] = fmt.Sprintf("pkg%02d/sub%02d/file%02d.go", i/40, i/20%20, i%20)
	}
	long := make([]string, 10)
	for i := range long {
		long[i] = fmt.Sprintf("d/%02d%s", i, strings.Repeat("a", 250))
	}
	var up []ignoreRule
	for i := range 20 {
		up = append(up, read(strings.Repeat("d/", 20-i), hostileRules(func(int) string { return "**/nomatch" }))...)
	}
	for _, c := range []struct {
		name  string
		rules []ignoreRule
		names []string
	}{
		{"ordinary", read("", hostileRules(ordinaryRule)), short},
		{"literal", read("", hostileRules(func(i int) string { return fmt.Sprintf("nomatch%d", i) })), short},
		{"anchored", read("", hostileRules(func(i int) string { return fmt.Sprintf("/a/nomatch%d", i) })), short},
		{"star-suffix", read("", hostileRules(func(i int) string { return fmt.Sprintf("*.ext%d", i) })), short},
		{"class", read("", hostileRules(func(i int) string { return fmt.Sprintf("[Dd]ebug%d", i) })), short},
		{"doublestar", read("", hostileRules(func(i int) string { return fmt.Sprintf("**/a/**/b/nomatch%d", i) })), short},
		{"ancestors-20", up, short},
		{"star-chunks", read("", hostileRules(func(int) string { return "*" + strings.Repeat("a", maxIgnorePattern-2) + "?" })), long},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total int
			for b.Loop() {
				for _, n := range c.names {
					var steps int
					isIgnored(c.rules, n, false, &steps)
					total += steps
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/step")
		})
	}
}

// BenchmarkGitignoreListing lists workspaces of 12,000 files (a full
// listing and its count) with no .gitignore, a large ordinary one, and
// hostile ones as costly as the limits let them be: the longest patterns
// against long names, and a .gitignore in each of 20 directories above the
// workspace. It reports the steps the rules cost.
func BenchmarkGitignoreListing(b *testing.B) {
	many := func(files map[string]string, n int, name func(i int) string) map[string]string {
		for i := range n {
			files[name(i)] = "x"
		}
		return files
	}
	long := func(i int) string { return fmt.Sprintf("d%d/%04d%s", i%3, i, strings.Repeat("a", 250)) }
	short := func(i int) string { return fmt.Sprintf("pkg%02d/sub%02d/file%02d.go", i/400, i/20%20, i%20) }
	for _, c := range []struct {
		name  string
		up    string // the .gitignore of each of 20 directories above
		files map[string]string
	}{
		{"none", "", many(map[string]string{}, 12000, short)},
		{"ordinary", "", many(map[string]string{".gitignore": hostileRules(ordinaryRule)}, 12000, short)},
		{"star-chunks", "", many(map[string]string{".gitignore": hostileRules(func(int) string {
			return "*" + strings.Repeat("a", maxIgnorePattern-2) + "?"
		})}, 300, long)},
		{"ancestors-20", hostileRules(func(int) string { return "**/nomatch" }), many(map[string]string{}, 12000, short)},
	} {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			ws := root
			if c.up != "" {
				writeTree(b, root, map[string]string{".git/HEAD": "x"})
				for range 20 {
					writeTree(b, ws, map[string]string{".gitignore": c.up})
					ws = filepath.Join(ws, "d")
				}
			}
			writeTree(b, ws, c.files)
			in, closeIn, err := OpenInput(ws, nil, nil, testNow)
			if err != nil {
				b.Fatal(err)
			}
			defer closeIn()
			var steps int
			for b.Loop() {
				c := &collector{b: &Baseline{}}
				l := &lister{c: c, d: in.Workspace, ignore: append(c.outerIgnores(in), c.gitignore(in.Workspace, "")...)}
				l.walk(".", 0)
				steps = l.steps
			}
			b.ReportMetric(float64(steps), "steps/op")
		})
	}
}
