package wire

import (
	"strings"
	"testing"
)

func TestClassifyScanEscapes(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []Escape
	}{
		{"none", "plain text with a [link] & an ampersand; [U+12] [0x] &unknown; &#; &#x;", nil},
		{"named", "a &lt;b&gt; &amp; &quot;c&quot; &apos;", []Escape{
			{EscapeEntity, 2, "&lt;", "<"}, {EscapeEntity, 7, "&gt;", ">"}, {EscapeEntity, 12, "&amp;", "&"},
			{EscapeEntity, 18, "&quot;", `"`}, {EscapeEntity, 25, "&quot;", `"`}, {EscapeEntity, 32, "&apos;", "'"},
		}},
		{"upper-named", "&LT;", []Escape{{EscapeEntity, 0, "&LT;", "<"}}},
		{"numeric", "&#60;/x&#x3E;&#X3c;&#8238;", []Escape{
			{EscapeEntity, 0, "&#60;", "<"}, {EscapeEntity, 7, "&#x3E;", ">"}, {EscapeEntity, 13, "&#X3c;", "<"}, {EscapeEntity, 19, "&#8238;", "\u202e"},
		}},
		{"numeric-out-of-range", "&#x110000;", []Escape{{EscapeEntity, 0, "&#x110000;", ""}}},
		{"markers", "x[U+202E]y[U+E0041][U+1F600][0x9B]", []Escape{
			{EscapeMarker, 1, "[U+202E]", "\u202e"}, {EscapeMarker, 10, "[U+E0041]", "\U000E0041"},
			{EscapeMarker, 19, "[U+1F600]", "\U0001F600"}, {EscapeMarker, 28, "[0x9B]", "\x9b"},
		}},
		{"control-pictures", "a␛[31mb␇␤␍␡", []Escape{
			{EscapeMarker, 1, "␛", "\x1b"}, {EscapeMarker, 9, "␇", "\a"}, {EscapeMarker, 12, "␤", "\n"},
			{EscapeMarker, 15, "␍", "\r"}, {EscapeMarker, 18, "␡", "\x7f"},
		}},
		{"replacement-char", "ok\uFFFDok", []Escape{{EscapeMarker, 2, "\uFFFD", ""}}},
		{"truncated", "head\n[wirelens: truncated, 4096 bytes not shown]\n", []Escape{
			{EscapeTruncated, 5, "[wirelens: truncated, 4096 bytes not shown]", ""},
		}},
		{"truncated-malformed", "[wirelens: truncated, many bytes not shown]", nil},
		{"not-a-picture", "→ ← ✓", nil}, // other E2 sequences
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ScanEscapes(c.text)
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
	p := clsUserPart("m[0]", text)
	segs := Classify(p)
	clsCheckInvariants(t, p, segs)
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
	for _, s := range clsLoadCorpusStrings(t) {
		for _, e := range ScanEscapes(s) {
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
		if got := clsHasYear(s); got != want {
			t.Errorf("clsHasYear(%q) = %v, want %v", s, got, want)
		}
	}
}
