package wire

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
	"github.com/wirelens/wirelens/wire/token"
	"github.com/wirelens/wirelens/wire/wiretest"
)

type tokenVector struct {
	Text   string `json:"text"`
	Tokens []uint `json:"tokens"`
	Count  int    `json:"count"`
}

// TestTokensMatchReferenceVectors checks the offline tokenizer against ids
// produced by a port of OpenAI's tiktoken, for both encodings it ships.
func TestTokensMatchReferenceVectors(t *testing.T) {
	raw := wiretest.Read(t, "tokens", "token-vectors.json")
	var vectors map[string]json.RawMessage
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []tokenizer.Encoding{tokenizer.O200kBase, tokenizer.Cl100kBase} {
		var cases []tokenVector
		if err := json.Unmarshal(vectors[string(enc)], &cases); err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		if len(cases) == 0 {
			t.Fatalf("%s: no vectors", enc)
		}
		c, err := tokenizer.Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			ids, _, err := c.Encode(tc.Text)
			if err != nil {
				t.Fatalf("%s %q: %v", enc, tc.Text, err)
			}
			if !slices.Equal(ids, tc.Tokens) {
				t.Errorf("%s %q:\n got %v\nwant %v", enc, tc.Text, ids, tc.Tokens)
			}
			if len(tc.Tokens) != tc.Count {
				t.Errorf("%s %q: vector count %d disagrees with its ids", enc, tc.Text, tc.Count)
			}
			if enc == TokenEncoding {
				if n := CountTokens(tc.Text); n != tc.Count {
					t.Errorf("CountTokens(%q) = %d, want %d", tc.Text, n, tc.Count)
				}
			}
		}
	}
}

func TestCountTokensCachesByContent(t *testing.T) {
	a := "The current date and time is 2026-11-29T22:08:44Z."
	n := CountTokens(a)
	if n < 10 || n > 40 {
		t.Fatalf("CountTokens = %d, not a plausible count for %q", n, a)
	}
	if _, ok := tokenCache[HashText(a)]; !ok {
		t.Fatal("count not cached by content hash")
	}
	s := Segment{Text: a}
	if got := s.Tokens(); got != n {
		t.Fatalf("unhashed segment counts %d, want %d", got, n)
	}
	if CountTokens("") != 0 {
		t.Fatal("empty text has tokens")
	}
}

// TestCountTokensInPieces: a long text is counted in pieces cut at line or
// word boundaries, which agrees with a count of the whole text to within a
// token a piece; a long run without white space is cut at rune boundaries,
// never inside a character, and counted whole.
func TestCountTokensInPieces(t *testing.T) {
	var b strings.Builder
	for b.Len() < 5*tokenChunk {
		for _, s := range wiretest.BLNS(t) {
			b.WriteString(s)
			b.WriteString("\n")
		}
	}
	text := b.String()
	whole := token.Count(text)
	pieces := countChunked(text)
	if d := pieces - whole; d < -len(text)/tokenChunk-1 || d > len(text)/tokenChunk+1 {
		t.Errorf("in pieces %d tokens, whole %d: off by more than one a piece", pieces, whole)
	}
	run := strings.Repeat("é", tokenChunk) // two bytes a rune: an odd cut would split one
	for off := 0; off < len(run); {
		end := off + chunkEnd(run[off:])
		if !utf8.ValidString(run[off:end]) || end <= off {
			t.Fatalf("piece %d-%d of a run without white space is not whole runes", off, end)
		}
		off = end
	}
	if n := CountTokens(run); n == 0 {
		t.Error("a long run without white space counts no tokens")
	}
}

// BenchmarkCountTokensLongRun is one 8 MB line without white space, the shape
// that made byte-pair encoding of a whole text blow up.
func BenchmarkCountTokensLongRun(b *testing.B) {
	run := strings.Repeat("x", 8<<20)
	b.SetBytes(int64(len(run)))
	for b.Loop() {
		countChunked(run)
	}
}
