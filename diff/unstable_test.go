package diff

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]Limit{"2048": {Tokens: 2048}, " 0 ": {}, "25%": {Share: 0.25}, "100%": {Share: 1}} {
		got, err := ParseLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseLimit(%q) = %+v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "-1", "x", "120%", "-5%", "1.5"} {
		if _, err := ParseLimit(in); err == nil {
			t.Errorf("ParseLimit(%q) accepted", in)
		}
	}
	if (Limit{Tokens: 100}).Exceeded(100, 1000) || !(Limit{Tokens: 100}).Exceeded(101, 1000) {
		t.Error("token limit")
	}
	if (Limit{Share: 0.5}).Exceeded(500, 1000) || !(Limit{Share: 0.5}).Exceeded(501, 1000) || (Limit{Share: 0.5}).Exceeded(1, 0) {
		t.Error("share limit")
	}
	if (Limit{Share: 0.25}).String() != "25%" || (Limit{Tokens: 7}).String() != "7" {
		t.Error("String")
	}
}

func TestUnstable(t *testing.T) {
	// The legacy session breaks on its timestamp: unchanged in meaning.
	steps, _ := Analyze(legacySession(3, "gpt-4.1"))
	for _, st := range steps {
		if got := Unstable(st); got != "a timestamp changed" {
			t.Errorf("request %d: %q", st.Index, got)
		}
	}
	// Reordered tools.
	in := wire.NewInterner()
	a := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-4.1", cacheTool(0, "alpha"), cacheTool(1, "beta"), cacheSys("rules"))
	b := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-4.1", cacheTool(0, "beta"), cacheTool(1, "alpha"), cacheSys("rules"))
	if got := Unstable(Compare(&a, &b)); !strings.Contains(got, "another order") {
		t.Errorf("reordered: %q", got)
	}
	// A real edit of the text is a change of meaning.
	c := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-4.1", cacheTool(0, "alpha"), cacheTool(1, "beta"), cacheSys("other rules"))
	if got := Unstable(Compare(&a, &c)); got != "" {
		t.Errorf("edited: %q", got)
	}
	if got := Unstable(&Step{}); got != "" {
		t.Errorf("no break: %q", got)
	}
}
