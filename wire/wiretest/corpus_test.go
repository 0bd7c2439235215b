package wiretest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCorporaComplete: the corpora in testdata are whole, as their README
// describes them, so a test fed from them tests what it claims to.
func TestCorporaComplete(t *testing.T) {
	seeds := Seeds(t)
	n := 0
	for _, group := range []string{"envelope_breakout", "unicode_smuggling", "terminal_escapes"} {
		if len(seeds[group]) == 0 {
			t.Errorf("hostile seeds: group %s is empty", group)
		}
		n += len(seeds[group])
	}
	if n != 104 {
		t.Errorf("hostile seeds: %d, the README says 104", n)
	}
	if got := len(BLNS(t)); got != 515 {
		t.Errorf("BLNS: %d strings, want 515", got)
	}
	invalid := 0
	for _, b := range RawBytes(t) {
		if !utf8.Valid(b) {
			invalid++
		}
	}
	if invalid == 0 {
		t.Error("raw byte seeds hold no invalid UTF-8")
	}
	files := TrojanSource(t)
	for _, f := range files {
		if !strings.ContainsFunc(f.Text, func(r rune) bool { return r > 0x7f }) {
			t.Errorf("%s: a Trojan Source sample with only ASCII text", f.Path)
		}
	}
	if all := Strings(t); len(all) != n+515+len(RawBytes(t))+len(files) {
		t.Errorf("Strings: %d strings, not the sum of the corpora", len(all))
	}
}
