package token

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// oracle is tiktoken-go's o200k_base codec set as wire/tokens.go set it
// before this package: the counts here must equal its.
var oracle = sync.OnceValue(func() tokenizer.Codec {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		panic(err)
	}
	c.SetErrorMode(tokenizer.ErrorModeReplace)
	return c
})

// check fails the test when the ids or the count of text differ from the
// oracle's.
func check(t testing.TB, name, text string) {
	t.Helper()
	want, _, err := oracle().Encode(text)
	if err != nil {
		t.Fatalf("%s: tiktoken-go: %v", name, err)
	}
	got := Encode(text)
	if len(got) != len(want) || !slices.EqualFunc(got, want, func(a int, b uint) bool { return uint(a) == b }) {
		t.Errorf("%s %.80q:\n got %d ids %v\nwant %d ids %v", name, text, len(got), head(got), len(want), head(want))
		return
	}
	if n := Count(text); n != len(want) {
		t.Errorf("%s %.80q: Count %d, want %d", name, text, n, len(want))
	}
}

func head[T any](s []T) []T { return s[:min(len(s), 40)] }

func TestReferenceVectors(t *testing.T) {
	var vectors struct {
		O200k []struct {
			Text   string `json:"text"`
			Tokens []int  `json:"tokens"`
		} `json:"o200k_base"`
	}
	if err := json.Unmarshal(wiretest.Read(t, "tokens", "token-vectors.json"), &vectors); err != nil {
		t.Fatal(err)
	}
	cases := vectors.O200k
	if len(cases) == 0 {
		t.Fatal("no o200k_base vectors")
	}
	for _, tc := range cases {
		if got := Encode(tc.Text); !slices.Equal(got, tc.Tokens) {
			t.Errorf("%q:\n got %v\nwant %v", tc.Text, got, tc.Tokens)
		}
		check(t, "vector", tc.Text)
	}
}

// TestSplitCorners holds the corners of the split pattern as the oracle
// runs it: white space before new lines, DEL, contractions, marks, letters
// of every case class, numbers, invalid UTF-8.
func TestSplitCorners(t *testing.T) {
	for _, text := range []string{
		"", "a", " ", "  ", "\n", "\r\n", " \n", "  \n  \n  x", "\n \nx", "a\n\n", "x  \t y", "x \u3000\u3000y",
		"\t\tfoo", " \u00a0x", "a\u0085b", "end   ",
		"\x7f", "a\x7fb", " \x7f", "\x7f\x7f a", "!\x7f!", "x\x7f'sy", "1\x7f2",
		"don't we'll I'M you'RE they've he'd it'S 'll 'LL 'Ll 'ſ x'ſ x'ſt x'\u017f", "'s", " 's", "a'", "a''s",
		"HELLO world", "ABCdef", "A1", " A1", "ǅungla", "ʰʰa", "\u0301", "\u0301\u0301", "a\u0301b", " \u0301x", "!\u0301",
		"Ⅻ ⅻ 123456 ١٢٣٤ ½", "3.14159", "1,000,000",
		"x/y//\n", "!!!\n\n/", " ///\r\n", "<|endoftext|>", "<|endofprompt|>",
		"日本語のテキスト", "한국어 텍스트", "Ελληνικά ΚΕΙΜΕΝΟ", "emoji 👩‍👩‍👧 🇫🇷",
		"\xff", "a\xffb", "\xe2\x82", "\xe2\x82x", "\xed\xa0\x80", "\xf0\x9f\x98", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe0\x80\xaf",
		"\xef\xbf\xbd", "\x80\x80\x80",
		// Around the ASCII word's short way in piece: a word that goes on
		// past ASCII, capitals, a contraction, a prefix that is no space.
		" café", " caféx", "café", " Café", "Caféine", " naïve", "aé", " aé", "xyzé ok", " HEllo", "HEllo", "Hello",
		" Hello's", " hello'S", "hello'll", " Ab", " A", "A", " a", "a ", "Hello,world", "hello\nworld", "-hello",
		" hello\u0301", "hello\u00b5x", " z\u017f", "it'ſ", " ǅa", "aǅ",
	} {
		check(t, "corner", text)
	}
}

func TestCorpora(t *testing.T) {
	for _, s := range wiretest.Strings(t) {
		check(t, "corpus", s)
	}
}

// TestFixtures counts every file under testdata whole and, for JSON and
// JSON lines, every string in it.
func TestFixtures(t *testing.T) {
	root := wiretest.Testdata(t)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name, _ := filepath.Rel(root, path)
		files++
		check(t, name, string(raw))
		for _, s := range jsonStrings(raw) {
			check(t, name, s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d fixtures under %s", files, root)
	}
}

// jsonStrings is every string of raw read as one JSON value or as JSON
// lines; nothing if it is neither.
func jsonStrings(raw []byte) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				out = append(out, k)
				walk(e)
			}
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 64<<20)
	var v any
	if json.Unmarshal(raw, &v) == nil {
		walk(v)
		return out
	}
	for sc.Scan() {
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			walk(v)
		}
	}
	return out
}

// TestLongRuns: runs without white space long enough for the heap merge,
// and a piece too long for any token.
func TestLongRuns(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("x", 5000),
		strings.Repeat("ab", 3000),
		strings.Repeat("é", 2000),
		strings.Repeat("!", 700),
		strings.Repeat("lorem", 300),
		strings.Repeat("9", 1000),
		strings.Repeat("\u4e00\u4e8c", 500),
		strings.Repeat("0123456789abcdef", 200),
		strings.Repeat("Zxq", 100) + strings.Repeat(" ", 300) + strings.Repeat("\n", 200),
		strings.Repeat("aGVsbG8gd29ybGQ=", 300), // base64
	} {
		check(t, "run", text)
	}
}

func FuzzCountMatchesTiktoken(f *testing.F) {
	for _, s := range wiretest.Strings(f) {
		f.Add(s)
	}
	f.Add(strings.Repeat("ab", 100))
	f.Add("  \n  \n  x\x7f'S")
	f.Fuzz(func(t *testing.T, text string) {
		check(t, "fuzz", text)
	})
}

func TestLoadConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i] = Count("The quick brown fox jumps over the lazy dog.")
		}()
	}
	wg.Wait()
	for _, n := range counts {
		if n != counts[0] || n == 0 {
			t.Fatalf("concurrent counts %v", counts)
		}
	}
	if !Loaded() {
		t.Fatal("counted without a loaded table")
	}
}

// TestOracleQuirks pins the two ways tiktoken-go's compiled pattern departs
// from the pattern as written, which this package keeps (split.go).
func TestOracleQuirks(t *testing.T) {
	if n := Count("\x7f\x7f"); n != 0 {
		t.Errorf("DEL counts %d tokens, want none", n)
	}
	var pieces []string
	for s, i := "  \n  \n  x", 0; i < len(s); {
		end := piece(s, i)
		pieces = append(pieces, s[i:end])
		i = end
	}
	if want := []string{"  \n", "  \n", " ", " x"}; !slices.Equal(pieces, want) {
		t.Errorf("pieces %q, want %q", pieces, want)
	}
}

// TestHotPiecesKeepCounts: Count, which looks short pieces up in the table
// of pieces met before (hotPieces), gives what Encode gives, which does
// not, on texts whose pieces fill the table and fight over its slots (every
// word of a few thousand, in several orders, on several goroutines at once),
// and on pieces of 16 bytes that differ only in their last byte.
func TestHotPiecesKeepCounts(t *testing.T) {
	var words []string
	for i := range 6000 {
		words = append(words, strings.Repeat(string(rune('a'+i%26)), 1+i%7)+string(rune('A'+i/26%26))+strings.Repeat("x", i%9))
	}
	long := []string{strings.Repeat("q", 15) + "a", strings.Repeat("q", 15) + "b", " " + strings.Repeat("Zy", 7) + "z"}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 3 {
				var b strings.Builder
				for i := range words {
					b.WriteString(" " + words[(i*(g+round+1))%len(words)])
					if i%50 == 0 {
						b.WriteString(" " + long[i%len(long)] + "\n")
					}
				}
				text := b.String()
				if got, want := Count(text), len(Encode(text)); got != want {
					t.Errorf("goroutine %d round %d: Count %d, Encode %d tokens", g, round, got, want)
				}
			}
		})
	}
	wg.Wait()
	for _, p := range long {
		if got, want := Count(p), len(Encode(p)); got != want {
			t.Errorf("%q: Count %d, Encode %d", p, got, want)
		}
	}
}
