package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapIndented: no line wider than the width, the line's indent kept
// on every continuation line, no "[U+XXXX]" token split, no word lost.
func TestWrapIndented(t *testing.T) {
	tags := strings.Repeat("[U+E0074][U+E0068]", 12)
	for _, c := range []struct {
		line        string
		width, hang int
	}{
		{"    skills/ deploy/ a rather long listing line that has to wrap somewhere soon", 30, 0},
		{"  short." + tags + " then words after it", 40, 2},
		{"      " + tags, 27, 0},
		{"no indent at all but many words to wrap over several lines of text", 20, 4},
	} {
		lines := wrapIndented(c.line, c.width, c.hang)
		indent := c.line[:len(c.line)-len(strings.TrimLeft(c.line, " "))]
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > c.width {
				t.Errorf("%q: line %d is %d wide, over %d", c.line, i+1, w, c.width)
			}
			if i > 0 && !strings.HasPrefix(l, indent+strings.Repeat(" ", c.hang)) {
				t.Errorf("%q: continuation %q lost the indent %q", c.line, l, indent)
			}
			if strings.Count(l, "[") != strings.Count(l, "]") {
				t.Errorf("%q: line %q splits a [U+XXXX] token", c.line, l)
			}
		}
		// Hard breaks join back without a space, word breaks with one.
		joined := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
		if strings.ReplaceAll(joined, " ", "") != strings.ReplaceAll(c.line, " ", "") {
			t.Errorf("%q: text changed by the wrap:\n%q", c.line, joined)
		}
		if len(lines) < 2 {
			t.Errorf("%q: not wrapped at %d", c.line, c.width)
		}
	}
	if got := wrapIndented("  fits  ", 10, 2); len(got) != 1 || got[0] != "  fits" {
		t.Errorf("a line that fits: %q", got)
	}
}

// TestClipAtoms: an excerpt is cut before a token, never inside it.
func TestClipAtoms(t *testing.T) {
	got := clipAtoms("[U+E0069][U+E0067][U+E006E]", 20)
	if got != "[U+E0069][U+E0067]…" {
		t.Errorf("clipAtoms = %q", got)
	}
}

var tokenRe = regexp.MustCompile(`\[U\+[0-9A-F]{0,5}$|^[0-9A-F]{0,5}\]`)

// TestPlainReportsHonourColumns: "demo | less" and "view" without a
// terminal are 80 columns wide when $COLUMNS is not set, $COLUMNS wide when
// it is; no line splits a [U+XXXX] token; the demo's findings come most
// severe first.
func TestPlainReportsHonourColumns(t *testing.T) {
	payload := buildToFile(t, "legacy", "--layout", "legacy")
	for _, cols := range []string{"", "120", "64"} {
		t.Setenv("COLUMNS", cols)
		want := map[string]int{"": 80, "120": 120, "64": 64}[cols]
		for _, args := range [][]string{{"demo"}, {"view", payload}} {
			code, out, errs := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d, %s", args, code, errs)
			}
			widest := 0
			for i, l := range strings.Split(out, "\n") {
				w := ansi.StringWidth(l)
				widest = max(widest, w)
				if w > want {
					t.Errorf("COLUMNS=%q %v: line %d is %d wide: %q", cols, args, i+1, w, l)
				}
				if tokenRe.MatchString(strings.TrimSpace(l)) {
					t.Errorf("COLUMNS=%q %v: line %d splits a token: %q", cols, args, i+1, l)
				}
				if strings.TrimRight(l, " ") != l {
					t.Errorf("COLUMNS=%q %v: line %d ends in spaces", cols, args, i+1)
				}
			}
			if widest < want-12 {
				t.Errorf("COLUMNS=%q %v: widest line %d, the width %d is not used", cols, args, widest, want)
			}
		}
	}
	t.Setenv("COLUMNS", "")
	_, out, _ := runCLI(t, "", "demo")
	_, findings, _ := strings.Cut(out, "CHECK FINDINGS")
	findings, _, _ = strings.Cut(findings, "ISOLATED (the fix)") // the legacy column's
	lastHigh := strings.LastIndex(findings, "\nhigh ")
	firstMedium := strings.Index(findings, "\nmedium ")
	if lastHigh < 0 || firstMedium < 0 || firstMedium < lastHigh {
		t.Errorf("the demo's findings are not most severe first:\n%s", findings)
	}
	// A listing line that wraps keeps its own indent.
	t.Setenv("COLUMNS", "40")
	_, out, _ = runCLI(t, "", "demo")
	if !strings.Contains(out, "\n  [wirelens: directories deeper than 3\n  levels not listed]") {
		t.Errorf("a wrapped line lost its indent at 40 columns:\n%s", out)
	}
}
