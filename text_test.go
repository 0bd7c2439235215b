package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

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
