package body

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// TestAnthropicVerdict reads the shapes of Anthropic's diagnostics object
// (the cache diagnostics documentation and its SDKs' types).
func TestAnthropicVerdict(t *testing.T) {
	for _, c := range []struct {
		in     string
		reason string // "" for no verdict
		missed int
	}{
		{`{"cache_miss_reason":{"type":"system_changed","cache_missed_input_tokens":24791}}`, "system_changed", 24791},
		{`{"cache_miss_reason":{"type":"previous_message_not_found"}}`, "previous_message_not_found", -1},
		{`{"cache_miss_reason":null}`, "pending", -1},
		{`{"cache_miss_reason":{"type":"a_new_reason","cache_missed_input_tokens":3}}`, "a_new_reason", 3},
		{`{}`, "", 0},
		{`null`, "", 0},
		{`"system_changed"`, "", 0},
		{`{"cache_miss_reason":"system_changed"}`, "", 0},
		{`{"cache_miss_reason":{"cache_missed_input_tokens":3}}`, "", 0},
		{``, "", 0},
	} {
		v := AnthropicVerdict(jsontext.Value(c.in))
		switch {
		case c.reason == "" && v != nil:
			t.Errorf("%s: verdict %+v, want none", c.in, v)
		case c.reason != "" && (v == nil || v.By != "anthropic" || v.Reason != c.reason || v.MissedTokens != c.missed):
			t.Errorf("%s: verdict %+v, want %s %d", c.in, v, c.reason, c.missed)
		}
	}
}

// TestResponseVerdict reads verdicts where responses carry them: an
// Anthropic body and stream (message_start), an OpenAI Responses body and
// stream (response.completed); a pending one does not replace a finished
// one.
func TestResponseVerdict(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       *wire.CacheVerdict
	}{
		{"anthropic body", `{"id":"msg_1","type":"message","usage":{"input_tokens":2,"cache_read_input_tokens":10},` +
			`"diagnostics":{"cache_miss_reason":{"type":"tools_changed","cache_missed_input_tokens":89018}}}`,
			&wire.CacheVerdict{By: "anthropic", Reason: "tools_changed", MissedTokens: 89018}},
		{"anthropic stream", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":2}," +
			"\"diagnostics\":{\"cache_miss_reason\":{\"type\":\"model_changed\",\"cache_missed_input_tokens\":5}}}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":3}}\n\n",
			&wire.CacheVerdict{By: "anthropic", Reason: "model_changed", MissedTokens: 5}},
		{"pending after finished", "data: {\"type\":\"message_start\",\"message\":{\"diagnostics\":{\"cache_miss_reason\":{\"type\":\"system_changed\"}}}}\n\n" +
			"data: {\"type\":\"message_delta\",\"diagnostics\":{\"cache_miss_reason\":null}}\n\n",
			&wire.CacheVerdict{By: "anthropic", Reason: "system_changed", MissedTokens: -1}},
		{"responses body", `{"id":"resp_2","object":"response","usage":{"input_tokens":1900,"input_tokens_details":{"cached_tokens":0}},` +
			`"prompt_cache_diagnostics":{"type":"cache_miss","reason":"tools_changed","cache_missed_tokens":5629,"comparison_reusable_tokens":5629}}`,
			&wire.CacheVerdict{By: "openai", Reason: "tools_changed", MissedTokens: 5629}},
		{"responses stream", "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\"," +
			"\"prompt_cache_diagnostics\":{\"type\":\"cache_hit\"}}}\n\n",
			&wire.CacheVerdict{By: "openai", Reason: "cache_hit", MissedTokens: -1}},
		{"none", `{"id":"msg_1","usage":{"input_tokens":2}}`, nil},
	} {
		var a UsageAcc
		a.Read([]byte(c.body))
		got := a.Verdict()
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: verdict %+v, want %+v", c.name, got, c.want)
		}
	}
}
