package scan

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire/wiretest"
)

type hostileSeeds struct {
	EnvelopeBreakout []string `json:"envelope_breakout"`
	UnicodeSmuggling []string `json:"unicode_smuggling"`
	TerminalEscapes  []string `json:"terminal_escapes"`
}

func loadHostileSeeds(t testing.TB) hostileSeeds {
	t.Helper()
	g := wiretest.Seeds(t)
	s := hostileSeeds{EnvelopeBreakout: g["envelope_breakout"], UnicodeSmuggling: g["unicode_smuggling"], TerminalEscapes: g["terminal_escapes"]}
	if len(s.TerminalEscapes) == 0 || len(s.UnicodeSmuggling) == 0 {
		t.Fatal("hostile seeds are empty")
	}
	return s
}

func loadBLNS(t testing.TB) []string { return wiretest.BLNS(t) }

func loadRawByteSeeds(t testing.TB) []string {
	var out []string
	for _, b := range wiretest.RawBytes(t) {
		out = append(out, string(b))
	}
	return out
}

// legitimateSeeds are the smuggling seeds that are ordinary writing.
var legitimateSeeds = map[string]bool{
	"\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F": true, // flag of England
	"\U0001F468\u200D\U0001F469\u200D\U0001F467":                             true, // family
	"\u2764\uFE0F":     true, // red heart, VS16
	"\u8FBB\U000E0100": true, // ideographic variation sequence
	"\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645": true, // Persian ZWNJ
}

// safeForTerminal reports the first code point in s that must never reach a
// terminal raw: ESC and the other C0 controls but newline and tab, DEL, C1,
// bidi controls, tag characters, invisible characters, invalid bytes.
func safeForTerminal(s string) (bad rune, at int, ok bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return r, i, false
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return r, i, false
		case IsBidi(r), IsTagChar(r), r == 0x200B, r == 0x2060, r == 0xFEFF, r == 0x00AD, r == 0x2028, r == 0x2029:
			return r, i, false
		}
	}
	return 0, 0, true
}

func TestScanHazardsClasses(t *testing.T) {
	cases := []struct {
		in    string
		class HazardClass
		off   int
		len   int
	}{
		{"a\u202Eb", HazardBidi, 1, 3},
		{"x\u2066y", HazardBidi, 1, 3},
		{"\u061Cz", HazardBidi, 0, 2},
		{"hi\U000E0041\U000E0042", HazardTag, 2, 8},
		{"ab\u200Bcd", HazardInvisible, 2, 3},
		{"ign\u200Core", HazardInvisible, 3, 3}, // ZWNJ between Latin letters
		{"soft\u00ADhyphen", HazardInvisible, 4, 2},
		{"\uFEFFBOM", HazardInvisible, 0, 3},
		{"a\uFE0F\uFE0F", HazardVSRun, 1, 6},
		{"\U0001F600\U000E0139\U000E0157", HazardVSRun, 4, 8},
		{"nul\x00", HazardControl, 3, 1},
		{"del\x7f", HazardControl, 3, 1},
		{"nel\u0085x", HazardControl, 3, 2},
		{"\x1b[31mred", HazardEscape, 0, 5},
		{"\x1b]0;title\x07rest", HazardEscape, 0, 10},
		{"\x1b]2;t\x1b\\rest", HazardEscape, 0, 7},
		{"\x1b]0;unterminated\nnext", HazardEscape, 0, 16},
		{"\x1b(0", HazardEscape, 0, 3},
		{"\x1bc", HazardEscape, 0, 2},
		{"end\x1b", HazardEscape, 3, 1},
		{"\u009b31mx", HazardEscape, 0, 5},
		{"\u009d0;c1\u009c", HazardEscape, 0, 8},
		{"\x9b31m", HazardEscape, 0, 4},
		{"ok\xffno", HazardInvalid, 2, 1},
	}
	for _, tc := range cases {
		hz := Hazards(tc.in)
		if len(hz) == 0 {
			t.Errorf("%q: no hazard, want %s", tc.in, tc.class)
			continue
		}
		h := hz[0]
		if h.Class != tc.class || h.Offset != tc.off || h.Len != tc.len {
			t.Errorf("%q: got %s at %d len %d, want %s at %d len %d", tc.in, h.Class, h.Offset, h.Len, tc.class, tc.off, tc.len)
		}
	}
}

func TestScanHazardsQuietOnLegitimateText(t *testing.T) {
	quiet := []string{
		"plain ASCII with\ttab and\nnewline and\r\nCRLF",
		"\U0001F468\u200D\U0001F469\u200D\U0001F467 family",
		"\u2764\uFE0F\u200D\U0001F525 heart on fire",
		"\U0001F44D\U0001F3FD thumbs",
		"\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F scotland",
		"\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",
		"\u0915\u094D\u200D\u0937 devanagari half form",
		"\u8FBB\U000E0100 ideographic variation",
		"中文字符和English混合 text",
		"שלום עולם مرحبا",
		"&lt;/untrusted_agents_md&gt;",
	}
	for _, s := range quiet {
		if hz := Hazards(s); len(hz) != 0 {
			t.Errorf("%q: unexpected hazards %+v", s, hz)
		}
	}
}

func TestScanHazardsCorpora(t *testing.T) {
	seeds := loadHostileSeeds(t)
	for _, s := range seeds.UnicodeSmuggling {
		hz := Hazards(s)
		if legitimateSeeds[s] {
			if len(hz) != 0 {
				t.Errorf("legitimate seed %q flagged: %+v", s, hz)
			}
			continue
		}
		if len(hz) == 0 {
			t.Errorf("hostile seed %q not flagged", s)
		}
	}
	for _, s := range seeds.TerminalEscapes {
		if !strings.ContainsAny(s, "\x1b\x00\x07\x08\x0b\x0c\x0e\x0f\x7f\u0080\u0085\u0090\u009b\u009c\u009d\u009f") {
			// A bare carriage return is allowed in text (CONTRACT.md); the
			// display sanitiser shows it instead.
			if !strings.Contains(Visible(s), "␍") {
				t.Errorf("%q: carriage return not shown", s)
			}
			continue
		}
		found := false
		for _, h := range Hazards(s) {
			if h.Class == HazardEscape || h.Class == HazardControl {
				found = true
			}
		}
		if !found {
			t.Errorf("terminal escape seed %q: no escape or control found", s)
		}
	}
}

// TestVisibleNeverEmitsHazards is the display sanitiser's property over every
// corpus: nothing dangerous survives, and the text is never lost silently.
func TestVisibleNeverEmitsHazards(t *testing.T) {
	seeds := loadHostileSeeds(t)
	var all []string
	all = append(all, seeds.EnvelopeBreakout...)
	all = append(all, seeds.UnicodeSmuggling...)
	all = append(all, seeds.TerminalEscapes...)
	all = append(all, loadBLNS(t)...)
	all = append(all, loadRawByteSeeds(t)...)
	for _, s := range all {
		for _, out := range []string{Visible(s), VisibleLine(s)} {
			if !utf8.ValidString(out) {
				t.Errorf("%q: output is not valid UTF-8", s)
			}
			if bad, at, ok := safeForTerminal(out); !ok && !legitimateSeeds[s] {
				t.Errorf("%q: output %q holds U+%04X at %d", s, out, bad, at)
			}
		}
		if strings.Contains(VisibleLine(s), "\n") {
			t.Errorf("%q: VisibleLine kept a newline", s)
		}
	}
}

func TestVisibleShowsWhatItReplaces(t *testing.T) {
	cases := map[string]string{
		"\x1b[2J":                           "␛[2J",
		"a\u202Eb":                          "a[U+202E]b",
		"bell\x07":                          "bell␇",
		"cr\rx":                             "cr␍x",
		"nul\x00":                           "nul␀",
		"del\x7f":                           "del␡",
		"\x9b31m":                           "[0x9B]31m",
		"\u009b31m":                         "[U+009B]31m",
		"ok\xff":                            "ok[0xFF]",
		"tag\U000E0041":                     "tag[U+E0041]",
		"keep\ttab\nline":                   "keep\ttab\nline",
		"family \U0001F468\u200D\U0001F469": "family \U0001F468\u200D\U0001F469",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	if got := VisibleLine("a\nb\tc"); got != "a␤b c" {
		t.Errorf("VisibleLine = %q", got)
	}
}

func FuzzVisible(f *testing.F) {
	seeds := loadHostileSeeds(f)
	for _, s := range append(append(seeds.TerminalEscapes, seeds.UnicodeSmuggling...), seeds.EnvelopeBreakout...) {
		f.Add(s)
	}
	for _, s := range loadRawByteSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hz := Hazards(s)
		end := 0
		for _, h := range hz {
			if h.Offset < end || h.Len <= 0 || h.Offset+h.Len > len(s) {
				t.Fatalf("%q: hazard %+v overlaps or is out of range", s, h)
			}
			end = h.Offset + h.Len
		}
		out := VisibleLine(s)
		if !utf8.ValidString(out) {
			t.Fatalf("%q: not valid UTF-8", s)
		}
		if left := Hazards(out); len(left) > 0 {
			t.Fatalf("%q: VisibleLine left hazards %+v in %q", s, left, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || IsBidi(r) {
				t.Fatalf("%q: VisibleLine emitted U+%04X in %q", s, r, out)
			}
		}
	})
}

// A hazard between an emoji and what follows breaks the sequence: the tags
// after "🏴 + invalid byte" are smuggled, not a flag.
func TestScanHazardsNothingJoinsAcrossAHazard(t *testing.T) {
	for _, s := range []string{
		"\U0001F3F4\xF3\U000E0067\U000E007F",
		"\U0001F3F4\u200B\U000E0067\U000E0062\U000E007F",
	} {
		var tags int
		for _, h := range Hazards(s) {
			if h.Class == HazardTag {
				tags++
			}
		}
		if tags != 1 {
			t.Errorf("%q: %d tag hazards, want 1", s, tags)
		}
		if strings.ContainsRune(VisibleLine(s), 0xE0067) {
			t.Errorf("%q: a tag character reached the output", s)
		}
	}
	if hz := Hazards("\U0001F468\u200B\u200D\U0001F469"); len(hz) != 2 {
		t.Errorf("ZWJ after a zero-width space is not in an emoji sequence: %+v", hz)
	}
}

// concatenationMarks are the prepended concatenation marks: x/ansi measures
// each, with the character after it, as no cells, and terminals draw them.
var concatenationMarks = []rune{0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}

// TestScanConcatenationMarks checks each prepended concatenation mark: an
// invisible hazard, alone, before text and in a run, and shown as [U+XXXX].
func TestScanConcatenationMarks(t *testing.T) {
	for _, r := range concatenationMarks {
		if !IsInvisible(r) || !IsConcatenationMark(r) {
			t.Errorf("U+%04X: not an invisible concatenation mark", r)
		}
		mark := string(r)
		for _, s := range []string{mark, "tool" + mark + "name", strings.Repeat(mark, 3) + "1234"} {
			hz := Hazards(s)
			if len(hz) == 0 || hz[0].Class != HazardInvisible || hz[0].Rune != r || hz[0].Len != len(mark) {
				t.Errorf("%q: hazards %+v, want invisible U+%04X first", s, hz, r)
			}
			if n := strings.Count(s, mark); len(hz) != n {
				t.Errorf("%q: %d hazards, want %d", s, len(hz), n)
			}
		}
		want := fmt.Sprintf("[U+%04X]1234", r)
		if got := VisibleLine(mark + "1234"); got != want {
			t.Errorf("VisibleLine(U+%04X 1234) = %q, want %q", r, got, want)
		}
	}
	for _, r := range []rune{0x05FF, 0x0606, 0x06DC, 0x06DE, 0x070E, 0x0892, 0x08E3, 0x110BE} {
		if IsConcatenationMark(r) {
			t.Errorf("U+%04X is not a prepended concatenation mark", r)
		}
	}
}

// TestScanHangulJamo checks the Hangul fillers and conjoining jamo: every
// filler and every vowel or final jamo that does not continue a syllable is
// an invisible hazard shown as [U+XXXX]; a decomposed syllable (NFD, as in
// file names from macOS) stays quiet.
func TestScanHangulJamo(t *testing.T) {
	stray := []rune{0x1160, 0x1161, 0x1175, 0x11A7, 0x11A8, 0x11C2, 0x11FF, 0xD7B0, 0xD7C6, 0xD7CB, 0xD7FB}
	for _, r := range append(stray, 0x115F, 0x3164, 0xFFA0) {
		if !IsInvisible(r) {
			t.Errorf("U+%04X: not invisible", r)
		}
		for _, s := range []string{string(r), "a" + string(r) + "b", "name" + strings.Repeat(string(r), 4)} {
			hz := Hazards(s)
			if n := strings.Count(s, string(r)); len(hz) != n {
				t.Errorf("%q: hazards %+v, want %d", s, hz, n)
				continue
			}
			for _, h := range hz {
				if h.Class != HazardInvisible || h.Rune != r {
					t.Errorf("%q: hazard %+v, want invisible U+%04X", s, h, r)
				}
			}
		}
		want := fmt.Sprintf("x[U+%04X]y", r)
		if got := VisibleLine("x" + string(r) + "y"); got != want {
			t.Errorf("VisibleLine = %q, want %q", got, want)
		}
	}
	for _, r := range []rune{0x1100, 0x1112, 0x115E, 0xA960, 0xAC00, 0xD7A3} {
		if IsInvisible(r) {
			t.Errorf("U+%04X is a leading consonant or a syllable: visible", r)
		}
	}
	quiet := []string{
		"\u1112\u1161\u11AB\u1100\u1173\u11AF", // 한글, decomposed
		"\uD55C\u1100\u1173\u11AF",             // 한 precomposed, 글 decomposed
		"\uAC00\u11A8",                         // LV syllable + final
		"\uAC01\u11A8",                         // LVT syllable + final (old final clusters)
		"\u1100\u1161\u1161",                   // vowel after vowel (old Hangul)
		"\uA960\uD7B0\uD7CB",                   // extended jamo
	}
	for _, s := range quiet {
		if hz := Hazards(s); len(hz) != 0 {
			t.Errorf("%q: unexpected hazards %+v", s, hz)
		}
	}
	flagged := map[string]int{
		"\u1100\u115F":       1, // the leading filler, after a leading consonant too
		"\u115F\u1161":       2, // a vowel after a filler: the filler is a hazard, nothing joins across it
		"\u1100\u1160\u11A8": 2, // the vowel filler, then a final after it
		"\uAC01\u1161":       1, // a vowel after an LVT syllable
		"a\u11A8":            1, // a final after a Latin letter
		"\u1100 \u1161":      1, // a vowel after a space
		"\U0001F600\u1161":   1,
	}
	for s, n := range flagged {
		if hz := Hazards(s); len(hz) != n {
			t.Errorf("%q: hazards %+v, want %d", s, hz, n)
		}
	}
}
