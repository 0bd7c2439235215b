package decode

import (
	"path/filepath"
	"strconv"
	"testing"
)

// verdictsOf lists each request's verdict as "by reason missed", "" for none.
func verdictsOf(t *testing.T, path string) []string {
	t.Helper()
	reqs, errs := decodeAll(t, path, Options{})
	if len(errs) > 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	out := make([]string, len(reqs))
	for i, r := range reqs {
		if v := r.Verdict; v != nil {
			out[i] = v.By + " " + v.Reason + " " + itoa(v.MissedTokens)
		}
	}
	return out
}

func itoa(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// TestDecodeProviderVerdicts: the providers' cache verdicts are read from
// recorded responses (claude-trace bodies and streams, HAR Responses bodies
// and streams), from Claude Code transcripts, and from the hashes kimi-code
// records.
func TestDecodeProviderVerdicts(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata")
	for _, c := range []struct {
		path string
		want []string
	}{
		{filepath.Join(dir, "verdicts", "anthropic-diagnostics.claude-trace.jsonl"),
			[]string{"", "", "anthropic system_changed 2690", "anthropic tools_changed 2790",
				"anthropic messages_changed 180", "anthropic pending -"}},
		{filepath.Join(dir, "verdicts", "openai-responses-diagnostics.har"),
			[]string{"", "openai tools_changed 1890", "openai cache_hit -", "openai comparison_response_not_found -"}},
		{filepath.Join(dir, "verdicts", "7d3f0b1e-5c2a-4e8b-9a61-0c2d4e6f8a10.jsonl"),
			[]string{"", "anthropic tools_changed 21020", "anthropic messages_changed 12"}},
		{filepath.Join(dir, "recordings", "kimi-code", "c2a1f0", "0f9e8d7c-aaaa-4bbb-8ccc-123456789abc", "agents", "main", "wire.jsonl"),
			// The tools hash goes f8f2.., f8f2.., dead.., 0123..; the
			// system prompt hash changes with the fourth too (the tools
			// come first in cache order).
			[]string{"", "kimi-code unchanged -", "kimi-code tools_changed -", "kimi-code tools_changed -"}},
	} {
		got := verdictsOf(t, c.path)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d requests, want %d: %q", c.path, len(got), len(c.want), got)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s@%d: verdict %q, want %q", c.path, i+1, got[i], c.want[i])
			}
		}
	}
}
