package render

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// lexTexts are the texts the views highlight in the fixtures: every file
// under testdata/ and every string of eight bytes or more in its JSON and
// JSON lines (system prompts, messages, tool results), with the texts of
// this package's tests, each with the lexer GuessLang picks (JSON as the
// view pretty-prints it).
func lexTexts(t testing.TB) map[string]string {
	t.Helper()
	var texts []string
	collect := func(b []byte) {
		var v any
		if json.Unmarshal(b, &v) == nil {
			texts = appendStrings(texts, v)
		}
	}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "golden") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		texts = append(texts, string(b))
		collect(b)
		for line := range strings.Lines(string(b)) {
			collect([]byte(line))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range decorTexts {
		texts = append(texts, s)
	}
	out := map[string]string{}
	for _, s := range texts {
		lang := GuessLang(s)
		if lang == "json" {
			s, _ = PrettyJSON(s)
		}
		if lang != "" {
			out[s] = lang
		}
	}
	return out
}

func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		if len(v) >= 8 {
			out = append(out, v)
		}
	case []any:
		for _, x := range v {
			out = appendStrings(out, x)
		}
	case map[string]any:
		for _, x := range v {
			out = appendStrings(out, x)
		}
	}
	return out
}

// TestLexersMatchChroma: our lexers colour the fixtures' texts as chroma's
// own JSON, XML and markdown lexers do, span for span, whole and in the
// windows a long text is highlighted in (from a line start inside it), but
// for two differences by design, which byDesign cuts out of both:
//   - markdown: fenced code that names a language stays plain; chroma's
//     lexer colours it with that language's lexer, which wirelens would
//     have to carry (and initialise) for a few code samples in prompts;
//   - JSON: chroma's lexer gives up on a string of more than about 10,000
//     characters (its matcher's limits), shows it as Error and so loses its
//     place in the grammar; ours colours it as the string it is.
func TestLexersMatchChroma(t *testing.T) {
	texts := lexTexts(t)
	keys := make([]string, 0, len(texts))
	for s := range texts {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	bytes, windows, designed, checked, cutBytes := 0, 0, 0, 0, 0
	check := func(s, lang, where string) {
		checked += len(s)
		compare := func() (got, want []Span, n int, cut bool) {
			got, want = Highlight(s, lang), highlightWith(lexers.Get(lang), s)
			if g, w, n, cut := byDesign(s, lang, got, want); cut {
				return g, w, n, true
			}
			return got, want, 0, false
		}
		got, want, n, cut := compare()
		// chroma gives each regular expression 250 ms a match (regexp2's
		// MatchTimeout, set by its RegexLexer) and tokenises differently
		// past it: on a loaded machine the oracle disagrees with itself.
		// A disagreement counts when chroma says the same twice running.
		for try := 0; !slices.Equal(got, want) && try < 3; try++ {
			g, w, n2, cut2 := compare()
			if slices.Equal(w, want) {
				break // chroma's answer is stable: the disagreement stands
			}
			got, want, n, cut = g, w, n2, cut2
		}
		if cut {
			designed++
			cutBytes += n
		}
		if slices.Equal(got, want) {
			return
		}
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		show := func(sp []Span) string {
			if i >= len(sp) {
				return "end"
			}
			return fmt.Sprintf("%v %.60q", sp[i].Type, s[sp[i].Start:sp[i].End])
		}
		at := 0
		if i < len(want) {
			at = want[i].Start
		} else if i < len(got) {
			at = got[i].Start
		}
		t.Errorf("%s %s text %.60q: span %d at %d (%.80q): ours %s, chroma %s", lang, where, s, i, at, s[at:min(len(s), at+80)], show(got), show(want))
	}
	for _, s := range keys {
		lang := texts[s]
		bytes += len(s)
		check(s, lang, "whole")
		if len(s) <= litWhole {
			continue
		}
		last := -1
		for _, f := range []int{3, 2} {
			lo := strings.LastIndexByte(s[:len(s)/f], '\n') + 1
			if lo == last {
				continue // both in one line: the same window
			}
			last = lo
			hi := lo + 4<<10
			if i := strings.IndexByte(s[min(hi, len(s)):], '\n'); i >= 0 {
				hi += i + 1
			}
			hi = min(RuneBoundary(s, hi), len(s))
			windows++
			check(s[lo:hi], lang, fmt.Sprintf("window %d-%d of", lo, hi))
		}
	}
	t.Logf("%d texts (%d bytes) and %d windows; differences by design cut from %d of them, %d of the %d bytes lexed", len(keys), bytes, windows, designed, cutBytes, checked)
	// The cuts must stay the exception, or the comparison tests little.
	// Their number grows with the fixtures: a wire capture keeps a request's
	// body as one JSON string (200 KB and more), chroma gives up on it, and
	// the capture file's whole text and windows are compared only to it
	// (the body itself is a text of its own, compared whole); prompts carry
	// fenced code. So the bound is a share of what is compared: cuts in at
	// most one text or window in ten, taking at most half of the bytes.
	if n := len(keys) + windows; len(keys) < 400 || designed*10 > n || cutBytes*2 > checked {
		t.Errorf("%d texts and windows, %d with differences by design cutting %d of %d bytes: the fixtures are not what this test was written for", n, designed, cutBytes, checked)
	}
}

var fencedLang = regexp.MustCompile("(?ms)^```\\w+\n.*?^```$")

// byDesign cuts the differences by design (see TestLexersMatchChroma) out
// of our spans and chroma's: the spans inside fenced code that names a
// language, and in JSON everything from a string of more than 10,000
// bytes on. It reports the bytes it cut and whether it cut anything that
// differed.
func byDesign(s, lang string, got, want []Span) ([]Span, []Span, int, bool) {
	var cut []Mark
	switch lang {
	case "markdown":
		for _, m := range fencedLang.FindAllStringIndex(s, -1) {
			body := m[0] + strings.IndexByte(s[m[0]:], '\n') + 1
			cut = append(cut, Mark{body, m[1] - 3})
		}
	case "json":
		for _, sp := range got {
			if sp.Type == chroma.LiteralStringDouble && sp.End-sp.Start > 10000 {
				cut = append(cut, Mark{sp.Start, len(s)})
				break
			}
		}
	}
	if len(cut) == 0 {
		return got, want, 0, false
	}
	n := 0
	for _, m := range cut {
		n += m.End - m.Start
	}
	keep := func(sp []Span) []Span {
		var out []Span
		for _, x := range sp {
			if !slices.ContainsFunc(cut, func(m Mark) bool { return x.End > m.Start && x.Start < m.End }) {
				out = append(out, x)
			}
		}
		return out
	}
	g, w := keep(got), keep(want)
	return g, w, n, !slices.Equal(got, want)
}

// FuzzHighlight: on any text, with any of the three lexers, highlighting
// does not panic, and its spans are in bounds, in order, not empty and not
// overlapping, each whole UTF-8 (chroma lexes runes: a text that is not
// stops the spans where it stops being), and never Text (which is not drawn as a
// span). Seeded from the hostile corpora, each under a JSON, an XML and a
// markdown opening so that the lexers are deep in their states.
func FuzzHighlight(f *testing.F) {
	for _, s := range wiretest.Strings(f) {
		for _, pre := range []string{"", `{"a": [`, "<t a=", "# h\n- `", "---\nk: "} {
			f.Add(pre + s)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, lang := range []string{"json", "xml", "markdown"} {
			end := 0
			for i, sp := range Highlight(text, lang) {
				if sp.Start < end || sp.End <= sp.Start || sp.End > len(text) {
					t.Fatalf("%s: span %d [%d,%d) after %d in %d bytes", lang, i, sp.Start, sp.End, end, len(text))
				}
				if !utf8.ValidString(text[sp.Start:sp.End]) {
					t.Fatalf("%s: span %d [%d,%d) is not whole UTF-8", lang, i, sp.Start, sp.End)
				}
				if sp.Type == chroma.Text || sp.Type == chroma.TextWhitespace {
					t.Fatalf("%s: span %d is %v", lang, i, sp.Type)
				}
				end = sp.End
			}
		}
	})
}

// BenchmarkHighlight highlights the view's unit of work (litWhole bytes,
// to a line end) of the fixtures' longest text of each language, with our
// lexers and chroma's, the lexers built before the timing. A text whose
// first line is longer than that (a wire capture's) has no such unit and
// is not taken.
func BenchmarkHighlight(b *testing.B) {
	longest := map[string]string{}
	for s, lang := range lexTexts(b) {
		if len(s) > litWhole {
			s = s[:strings.LastIndexByte(s[:litWhole], '\n')+1]
		}
		if len(s) > len(longest[lang]) {
			longest[lang] = s
		}
	}
	for _, lang := range []string{"json", "xml", "markdown"} {
		s := longest[lang]
		if s == "" {
			b.Fatalf("no %s text", lang)
		}
		for _, who := range []string{"ours", "chroma"} {
			lx := lexerFor(lang)
			if who == "chroma" {
				lx = lexers.Get(lang)
			}
			highlightWith(lx, s)
			b.Run(who+"/"+lang, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					highlightWith(lx, s)
				}
			})
		}
	}
}

// TestJSONLongString: a string far longer than chroma's own lexer matches
// (a 40,000-character system prompt, with escapes in it) is one string
// span, and the grammar goes on after it: the next name is a name.
func TestJSONLongString(t *testing.T) {
	long := strings.Repeat(`You are an agent.\n Use \"tools\". `, 1200)
	text := `{"text": "` + long + `", "role": "user"}`
	got := Highlight(text, "json")
	want := []Span{
		{0, 1, chroma.Punctuation},
		{1, 7, chroma.NameTag},
		{7, 8, chroma.Punctuation},
		{9, 11 + len(long), chroma.LiteralStringDouble},
		{11 + len(long), 12 + len(long), chroma.Punctuation},
		{13 + len(long), 19 + len(long), chroma.NameTag},
		{19 + len(long), 20 + len(long), chroma.Punctuation},
		{21 + len(long), 27 + len(long), chroma.LiteralStringDouble},
		{27 + len(long), 28 + len(long), chroma.Punctuation},
	}
	if !slices.Equal(got, want) {
		t.Errorf("%d bytes: got %d spans, first %v; want %v", len(text), len(got), got[:min(len(got), 6)], want)
	}
}

// TestMarkdownListLines: a list item's line is lexed on its own, as
// chroma's lexer does: its line break opens no emphasis on the next line
// (a tool description's "**Important:**" after "4. ..."), a code span or a
// link does not run from one item into the next, a bullet takes one white
// space (emphasis may open after a second) and a task's box is the
// marker's; a plain line's break and an escaped one still open emphasis.
func TestMarkdownListLines(t *testing.T) {
	show := func(s string, sp []Span) string {
		var b strings.Builder
		for _, x := range sp {
			fmt.Fprintf(&b, "%v %q; ", x.Type, s[x.Start:x.End])
		}
		return b.String()
	}
	for _, c := range []struct{ text, want string }{
		{"4. Never `x`.\n**Important:** y `z`.\n", "Keyword \"4.\"; LiteralStringBacktick \"`x`\"; LiteralStringBacktick \"`z`\"; "},
		{"- a `b\n- c` d\n", "Keyword \"-\"; Keyword \"-\"; "},
		{"- a [link\n- b](u) c\n", "Keyword \"-\"; Keyword \"-\"; "},
		{"-  **x** y\n", "Keyword \"-\"; GenericStrong \"**x**\"; "},
		{"- [ ] task `x`\n", "Keyword \"- [ ]\"; LiteralStringBacktick \"`x`\"; "},
		{"text\n**bar** x\n", "GenericStrong \"**bar**\"; "},
		{"foo\\\n**bar** x\n", "GenericStrong \"**bar**\"; "},
	} {
		got, chr := show(c.text, Highlight(c.text, "markdown")), show(c.text, highlightWith(lexers.Get("markdown"), c.text))
		if got != c.want || chr != c.want {
			t.Errorf("%q:\n ours   %s\n chroma %s\n want   %s", c.text, got, chr, c.want)
		}
	}
}
