package capture

import (
	"slices"
	"strings"
	"testing"
)

// TestEnv: every base-URL variable points at the proxy (with /v1 where the
// SDKs expect it), earlier values replaced; with mock, a placeholder key is
// set only where none is, and Gemini CLI is put on API-key auth.
func TestEnv(t *testing.T) {
	in := []string{"PATH=/bin", "ANTHROPIC_BASE_URL=https://api.anthropic.com", "OPENAI_API_KEY=sk-mine", "GEMINI_API_KEY="}
	env := Env(in, "http://127.0.0.1:9", true)
	get := func(k string) (string, int) {
		v, n := "", 0
		for _, kv := range env {
			if name, val, _ := strings.Cut(kv, "="); name == k {
				v, n = val, n+1
			}
		}
		return v, n
	}
	for k, want := range map[string]string{
		"PATH": "/bin", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
		"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9", "KIMI_BASE_URL": "http://127.0.0.1:9/v1", "WIRELENS_PROXY": "http://127.0.0.1:9",
		"OPENAI_API_KEY": "sk-mine", "ANTHROPIC_API_KEY": MockKey, "GEMINI_API_KEY": MockKey,
		"GEMINI_DEFAULT_AUTH_TYPE": "gemini-api-key",
	} {
		if v, n := get(k); v != want || n != 1 {
			t.Errorf("%s=%q (%d times), want %q once", k, v, n, want)
		}
	}
	if slices.Contains(Env(in, "http://x", false), "ANTHROPIC_API_KEY="+MockKey) {
		t.Error("a placeholder key without --mock")
	}
}
