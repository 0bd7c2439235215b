package report

import (
	"strings"
	"testing"
)

// TestMarkdownCode: payload text becomes a code span whose backtick run is
// longer than any inside it; a pipe is escaped in a table; hazards show.
func TestMarkdownCode(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "`plain`"},
		{"a `b` c", "``a `b` c``"},
		{"``x", "``` ``x ```"},
		{"a|b", "`a\\|b`"},
		{"\x1b[2J\u202E", "`␛[2J[U+202E]`"},
		{"", ""},
	}
	for _, c := range cases {
		if got := mdCode(c.in, true); got != c.want {
			t.Errorf("mdCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMarkdownPlain: wirelens' own words that quote payload values form no
// HTML, link, emphasis or mention.
func TestMarkdownPlain(t *testing.T) {
	got := mdPlain("<script> [x](http://e) *b* @octocat a|b", true)
	for _, bad := range []string{"<script>", "](", "*b*", "@octocat", "a|b"} {
		if strings.Contains(got, bad) {
			t.Errorf("mdPlain left %q in %q", bad, got)
		}
	}
	if !strings.Contains(got, "&lt;script&gt;") {
		t.Errorf("mdPlain = %q", got)
	}
}

// TestDiffFence: a diff block's fence is longer than any backtick run in
// the payload, so the payload cannot close it.
func TestDiffFence(t *testing.T) {
	b := block{kind: blockDiff, lines: []diffLine{{'+', "````` not a fence"}}}
	out := mdBlock(b)
	if !strings.HasPrefix(out, "``````diff\n") || !strings.Contains(out, "\n``````\n") {
		t.Errorf("fence:\n%s", out)
	}
}
