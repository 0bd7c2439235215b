package cells

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/wire/scan"
)

// Text whose width terminals disagree on.
const (
	family    = "\U0001F468\u200D\U0001F469\u200D\U0001F467" // 2 cells as a cluster, 6 per code point
	thumbs    = "\U0001F44D\U0001F3FD"                       // 2 as a cluster, 4 per code point
	heart     = "\u2764\uFE0F"                               // 2 as a cluster, 1 per code point
	heartFire = "\u2764\uFE0F\u200D\U0001F525"               // 2 as a cluster, 3 per code point, 4 apart
	arabicNum = "\u0600"                                     // x/ansi: no cells, and none for the digit after it
)

// TestWidthWidest checks the widest measure against the two measures a
// terminal or Bubble Tea's renderer may use.
func TestWidthWidest(t *testing.T) {
	cases := map[string]int{
		"":                             0,
		"plain":                        5,
		"\x1b[1;31mred\x1b[0m":         3,
		"│ box · … ─":                  11,
		"中文":                           4,
		family:                         6,
		thumbs:                         4,
		heart:                          2,
		heartFire:                      4,
		arabicNum + "12":               3,
		"\u1112\u1161\u11AB":           4, // a decomposed Hangul syllable: 2 as a cluster, 4 per code point in x/ansi
		"\x1b[7m" + family + "\x1b[0m": 6,
	}
	for s, want := range cases {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
		if got := Width(s); got < ansi.StringWidth(s) || got < ansi.StringWidthWc(s) {
			t.Errorf("Width(%q) = %d is narrower than a measure (%d, %d per code point)", s, got, ansi.StringWidth(s), ansi.StringWidthWc(s))
		}
	}
}

// TestFitNeverOverflows fits text padded with what terminals measure
// differently to every width: the result is exactly the width by the widest
// measure and no wider by any; text every measure agrees on is cut exactly
// as ansi.Truncate cuts it.
func TestFitNeverOverflows(t *testing.T) {
	texts := []string{
		strings.Repeat(family, 9) + " after",
		strings.Repeat(thumbs, 9) + " after",
		strings.Repeat(heart, 9) + " after",
		strings.Repeat(heartFire, 9) + " after",
		strings.Repeat(arabicNum+"1", 9) + " after",
		"\x1b[1m" + strings.Repeat("a"+family+"\x1b[0m", 5),
	}
	for _, s := range texts {
		for w := 1; w <= 40; w++ {
			got := Fit(s, w)
			if n := Width(got); n != w {
				t.Errorf("Fit(%q, %d) is %d wide: %q", s, w, n, got)
			}
			if n, wc := ansi.StringWidth(got), ansi.StringWidthWc(got); n > w || wc > w {
				t.Errorf("Fit(%q, %d) takes %d cells (%d per code point): %q", s, w, n, wc, got)
			}
		}
	}
	plain := "\x1b[1mThe quick brown fox\x1b[0m 中文 jumps"
	for w := 0; w <= 30; w++ {
		if got, want := Clip(plain, w, "…"), ansi.Truncate(plain, w, "…"); got != want {
			t.Errorf("Clip(%d) = %q, ansi.Truncate %q", w, got, want)
		}
	}
}

// TestWrapKeepsClustersAndFits wraps text with emoji sequences and hazards
// at every width, with and without brackets around each hazard: every row,
// drawn as a renderer draws it, fits the width by the widest measure unless
// it is one code point, and no row starts inside a ZWJ sequence or between
// an emoji and its modifier unless the sequence is wider than a row.
func TestWrapKeepsClustersAndFits(t *testing.T) {
	text := "a " + family + " b " + thumbs + heart + " c\u0301 \u1112\u1161\u11AB " + heartFire + "\x1b[2J" + arabicNum + "12 " +
		strings.Repeat(family, 3) + "\n" + strings.Repeat("word ", 20)
	hz := scan.Hazards(text)
	for _, bracket := range []int{0, 2} {
		for w := 1; w <= 60; w++ {
			for _, h := range [][]scan.Hazard{hz, nil} {
				rows := Wrap(text, h, hazardPieces(text, h, bracket), w, 0, -1)
				for i, start := range rows {
					end := len(text)
					if i+1 < len(rows) {
						end = rows[i+1]
					}
					row := strings.TrimSuffix(text[start:end], "\n")
					row = row[:RowEnd(text, start, start+len(row))-start]
					one := utf8.RuneCountInString(row) <= 1
					if n := drawnWidth(text, h, bracket, start, start+len(row)); n > w && !one {
						t.Errorf("width %d: row %q is %d cells", w, row, n)
					}
					// The widest sequence, measured rune by rune: the family
					// with its two joiners shown alone.
					r, _ := utf8.DecodeRuneInString(text[start:])
					if (r == 0x200D || r == 0x1F3FD || r == 0xFE0F) && w >= 22 {
						t.Errorf("width %d: a row starts inside a sequence: %q", w, row)
					}
				}
			}
		}
	}
}

// hazardPieces draws every hazard as a piece of its own with bracket cells
// around it (nil when bracket is 0).
func hazardPieces(text string, hz []scan.Hazard, bracket int) Pieces {
	if bracket == 0 {
		return nil
	}
	return func(i int) (int, int) {
		for _, h := range hz {
			if h.Offset+h.Len <= i {
				continue
			}
			if h.Offset <= i {
				return h.Offset + h.Len, bracket
			}
			return h.Offset, 0
		}
		return len(text), 0
	}
}

// drawnWidth is the width of text[start:end] drawn as hazardPieces says:
// each piece sanitised on its own, hazards bracketed.
func drawnWidth(text string, hz []scan.Hazard, bracket, start, end int) int {
	pieces := hazardPieces(text, hz, bracket)
	if pieces == nil {
		return Width(scan.VisibleLine(text[start:end]))
	}
	n := 0
	for pos := start; pos < end; {
		next, extra := pieces(pos)
		next = min(next, end)
		n += Width(scan.VisibleLine(text[pos:next])) + extra
		pos = next
	}
	return n
}

// TestWrapBreaksWideHazards wraps an unterminated OSC string (one hazard
// that runs to the end of its line) in rows narrower than it: it is broken
// between its code points, every row fits, and every byte is on a row.
func TestWrapBreaksWideHazards(t *testing.T) {
	text := "x \x1b]0;" + strings.Repeat("owned title ", 20) + "\nafter"
	hz := scan.Hazards(text)
	for _, bracket := range []int{0, 2} {
		for w := 6; w <= 40; w++ {
			rows := Wrap(text, hz, hazardPieces(text, hz, bracket), w, 0, -1)
			for i, start := range rows {
				end := len(text)
				if i+1 < len(rows) {
					end = rows[i+1]
				}
				end -= len(text[start:end]) - len(strings.TrimSuffix(text[start:end], "\n"))
				if n := drawnWidth(text, hz, bracket, start, end); n > w {
					t.Errorf("bracket %d, width %d: row %q is %d cells", bracket, w, text[start:end], n)
				}
			}
		}
	}
}

// spans is a layer of ranges for Layers.
type spans [][2]int

func (s spans) Len() int               { return len(s) }
func (s spans) Range(i int) (int, int) { return s[i][0], s[i][1] }

// TestLayersPiece splits a text as the content pane draws it: a range of a
// layer marks a piece that a range of a later layer does not split, a range
// of an earlier layer does, every piece ends at the cut, and the piece
// there has the cut's cells besides its brackets.
func TestLayersPiece(t *testing.T) {
	l := &Layers{Text: "0123456789abcdef", Layers: []Ranges{spans{{4, 6}}, spans{{2, 8}, {12, 14}}}, Bracket: 2, Cut: 10, CutCells: 1}
	type piece struct{ start, end, layer, index, extra int }
	want := []piece{{0, 2, -1, -1, 0}, {2, 4, 1, 0, 2}, {4, 6, 0, 0, 2}, {6, 8, 1, 0, 2}, {8, 10, -1, -1, 0}, {10, 12, -1, -1, 1}, {12, 14, 1, 1, 2}, {14, 16, -1, -1, 0}}
	c := l.Cursor(0)
	for pos, k := 0, 0; pos < len(l.Text); k++ {
		next, layer, index, extra := l.Piece(c, pos, len(l.Text))
		if got := (piece{pos, next, layer, index, extra}); k >= len(want) || got != want[k] {
			t.Fatalf("piece %d: %+v, want %+v", k, got, want[min(k, len(want)-1)])
		}
		pos = next
	}
	if p := (&Layers{Text: "abc", Cut: -1, CutCells: 1}).Pieces(0); p != nil {
		t.Error("pieces with no cells of their own are asked for")
	}
}

// TestEmojiPresentationAfterASCII: an ASCII character followed by U+FE0F is
// one cluster that terminals draw as a two-cell emoji ("0" U+FE0F): Width
// counts two, and a wrap keeps it whole on the next row.
func TestEmojiPresentationAfterASCII(t *testing.T) {
	for _, s := range []string{"0\uFE0F", "#\uFE0F", "\x1b[7m0\uFE0F\x1b[m"} {
		if w := Width(s); w != 2 {
			t.Errorf("Width(%q) = %d, want 2", s, w)
		}
	}
	// Wrap measures the cluster code point by code point, as the sanitiser
	// may show a lone U+FE0F: never narrower than the two cells it takes.
	if rows := Wrap("abcdefgh0\uFE0F", nil, nil, 10, 0, -1); len(rows) != 2 || rows[1] != 8 {
		t.Errorf("Wrap at 10 cells: rows %v, want [0 8] (the cluster whole on the second row)", rows)
	}
}

// TestWrapAtWordBoundaries: rows break after the spaces that end a word,
// a word is broken only when it is longer than a row, a code point's
// visible form ([U+E0074]) is never split, the spaces a row ends
// with are all that is left undrawn, and every row fits as drawn.
func TestWrapAtWordBoundaries(t *testing.T) {
	text := "The project's AGENTS.md files follow. They contain project background, structure, coding styles " +
		"and instructions: tag\U000E0074\U000E0065\U000E0073\U000E0074 characters and a " + strings.Repeat("verylongword", 8) +
		" end.\n   indented line with  two  spaces  between  words and a trailing space \nlast"
	hz := scan.Hazards(text)
	words := strings.Fields(text)
	for _, bracket := range []int{0, 2} {
		for w := 11; w <= 90; w++ {
			rows := Wrap(text, hz, hazardPieces(text, hz, bracket), w, 0, -1)
			var drawn strings.Builder
			for i, start := range rows {
				end := len(text)
				if i+1 < len(rows) {
					end = rows[i+1]
				}
				row := strings.TrimSuffix(text[start:end], "\n")
				shown := row[:RowEnd(text, start, start+len(row))-start]
				if n := drawnWidth(text, hz, bracket, start, start+len(shown)); n > w {
					t.Fatalf("width %d: row %q is %d cells", w, shown, n)
				}
				if strings.Trim(row[len(shown):], " ") != "" {
					t.Fatalf("width %d: row %q leaves %q undrawn", w, row, row[len(shown):])
				}
				drawn.WriteString(text[start:end])
				if start == 0 || text[start-1] == '\n' || text[start-1] == ' ' {
					continue
				}
				// A row that starts inside a word: only in a word longer than a row.
				ws := strings.LastIndexAny(text[:start], " \n") + 1
				we := start + strings.IndexAny(text[start:]+" ", " \n")
				if drawnWidth(text, hz, bracket, ws, we) <= w {
					t.Fatalf("width %d: the word %q is broken at %d", w, text[ws:we], start-ws)
				}
				if strings.Count(scan.VisibleLine(shown), "[U+") != strings.Count(scan.VisibleLine(shown), "]") {
					t.Fatalf("width %d: row %q splits a code point's visible form", w, scan.VisibleLine(shown))
				}
			}
			if drawn.String() != text {
				t.Fatalf("width %d: the rows do not hold the text", w)
			}
			if got := strings.Fields(drawn.String()); len(got) != len(words) {
				t.Fatalf("width %d: %d words, want %d", w, len(got), len(words))
			}
		}
	}
}
