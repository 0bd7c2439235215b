package classify

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestClassifyScanEscapes(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []wire.Escape
	}{
		{"none", "plain text with a [link] & an ampersand; [U+12] [0x] &unknown; &#; &#x;", nil},
		{"named", "a &lt;b&gt; &amp; &quot;c&quot; &apos;", []wire.Escape{
			{Rule: EscapeEntity, Offset: 2, Text: "&lt;", Original: "<"}, {Rule: EscapeEntity, Offset: 7, Text: "&gt;", Original: ">"}, {Rule: EscapeEntity, Offset: 12, Text: "&amp;", Original: "&"},
			{Rule: EscapeEntity, Offset: 18, Text: "&quot;", Original: `"`}, {Rule: EscapeEntity, Offset: 25, Text: "&quot;", Original: `"`}, {Rule: EscapeEntity, Offset: 32, Text: "&apos;", Original: "'"},
		}},
		{"upper-named", "&LT;", []wire.Escape{{Rule: EscapeEntity, Offset: 0, Text: "&LT;", Original: "<"}}},
		{"numeric", "&#60;/x&#x3E;&#X3c;&#8238;", []wire.Escape{
			{Rule: EscapeEntity, Offset: 0, Text: "&#60;", Original: "<"}, {Rule: EscapeEntity, Offset: 7, Text: "&#x3E;", Original: ">"}, {Rule: EscapeEntity, Offset: 13, Text: "&#X3c;", Original: "<"}, {Rule: EscapeEntity, Offset: 19, Text: "&#8238;", Original: "\u202e"},
		}},
		{"numeric-out-of-range", "&#x110000;", []wire.Escape{{Rule: EscapeEntity, Offset: 0, Text: "&#x110000;", Original: ""}}},
		{"markers", "x[U+202E]y[U+E0041][U+1F600][0x9B]", []wire.Escape{
			{Rule: EscapeMarker, Offset: 1, Text: "[U+202E]", Original: "\u202e"}, {Rule: EscapeMarker, Offset: 10, Text: "[U+E0041]", Original: "\U000E0041"},
			{Rule: EscapeMarker, Offset: 19, Text: "[U+1F600]", Original: "\U0001F600"}, {Rule: EscapeMarker, Offset: 28, Text: "[0x9B]", Original: "\x9b"},
		}},
		{"control-pictures", "a␛[31mb␇␤␍␡", []wire.Escape{
			{Rule: EscapeMarker, Offset: 1, Text: "␛", Original: "\x1b"}, {Rule: EscapeMarker, Offset: 9, Text: "␇", Original: "\a"}, {Rule: EscapeMarker, Offset: 12, Text: "␤", Original: "\n"},
			{Rule: EscapeMarker, Offset: 15, Text: "␍", Original: "\r"}, {Rule: EscapeMarker, Offset: 18, Text: "␡", Original: "\x7f"},
		}},
		{"replacement-char", "ok\uFFFDok", []wire.Escape{{Rule: EscapeMarker, Offset: 2, Text: "\uFFFD", Original: ""}}},
		{"truncated", "head\n[wirelens: truncated, 4096 bytes not shown]\n", []wire.Escape{
			{Rule: EscapeTruncated, Offset: 5, Text: "[wirelens: truncated, 4096 bytes not shown]", Original: ""},
		}},
		{"truncated-malformed", "[wirelens: truncated, many bytes not shown]", nil},
		{"not-a-picture", "→ ← ✓", nil}, // other E2 sequences
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Escapes(c.text)
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("escape %d: %+v, want %+v", i, got[i], c.want[i])
				}
				if c.text[got[i].Offset:got[i].Offset+len(got[i].Text)] != got[i].Text {
					t.Errorf("escape %d: offset does not point at its text", i)
				}
			}
		})
	}
}

// TestClassifyEscapesOnlyUntrusted: escapes are listed on untrusted segments
// only, with offsets into the segment (not the part).
func TestClassifyEscapesOnlyUntrusted(t *testing.T) {
	text := "# External Workspace Context\n\nData &amp; more.\n\n<untrusted_agents_md>\nx &lt;y\n</untrusted_agents_md>\nuser &gt; text"
	p := userPart("m[0]", text)
	segs := Classify(p)
	checkInvariants(t, p, segs)
	if len(segs) != 3 {
		t.Fatalf("%d segments", len(segs))
	}
	if len(segs[0].Escapes) != 0 || len(segs[2].Escapes) != 0 {
		t.Errorf("escapes on trusted framing: %+v %+v", segs[0].Escapes, segs[2].Escapes)
	}
	if len(segs[1].Escapes) != 1 || segs[1].Escapes[0].Offset != 2 || segs[1].Escapes[0].Text != "&lt;" {
		t.Errorf("body escapes %+v", segs[1].Escapes)
	}
	// Corpus strings never give an escape that does not sit where it says.
	for _, s := range loadCorpusStrings(t) {
		for _, e := range Escapes(s) {
			if e.Offset < 0 || !strings.HasPrefix(s[e.Offset:], e.Text) || e.Rule == "" {
				t.Fatalf("%q: bad escape %+v", s, e)
			}
		}
	}
}

func TestClassifyHasYear(t *testing.T) {
	for s, want := range map[string]bool{
		"2026": true, "in 1999.": true, "x2025-01-01": true, "`2026-11-29T22:08:44Z`": true, "ab 2000": true,
		"12026": false, "20261": false, "2126": false, "1899": false, "20 26": false, "": false, "202": false, "a1b2c3d4": false,
		"v1.2019": true, "13019": false,
	} {
		if got := hasYear(s); got != want {
			t.Errorf("hasYear(%q) = %v, want %v", s, got, want)
		}
	}
}
