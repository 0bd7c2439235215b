package body

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
)

// Usage objects shaped as each provider's API reference documents them.
func TestDecodeUsageNormalised(t *testing.T) {
	cases := []struct {
		name   string
		format wire.Format
		in     string
		want   *wire.Usage
	}{
		{"anthropic: input_tokens excludes cache reads and writes", wire.FormatAnthropic,
			`{"input_tokens":50,"cache_creation_input_tokens":1000,"cache_read_input_tokens":2000,"output_tokens":100}`,
			&wire.Usage{InputTokens: 3050, CachedTokens: 2000, CacheWriteTokens: 1000, OutputTokens: 100}},
		{"anthropic without cache members", wire.FormatAnthropic, `{"input_tokens":10,"output_tokens":2}`,
			&wire.Usage{InputTokens: 10, OutputTokens: 2}},
		{"anthropic members decide even for another format", wire.FormatOpenAIResponses,
			`{"input_tokens":4,"cache_read_input_tokens":6,"output_tokens":1}`,
			&wire.Usage{InputTokens: 10, CachedTokens: 6, OutputTokens: 1}},
		{"openai chat: prompt_tokens includes cached_tokens", wire.FormatOpenAIChat,
			`{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,"prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}`,
			&wire.Usage{InputTokens: 2006, CachedTokens: 1920, OutputTokens: 300}},
		{"moonshot: cached_tokens at the top of usage", wire.FormatOpenAIChat,
			`{"prompt_tokens":100,"completion_tokens":5,"total_tokens":105,"cached_tokens":80}`,
			&wire.Usage{InputTokens: 100, CachedTokens: 80, OutputTokens: 5}},
		{"deepseek: prompt_tokens counts cache hits and misses", wire.FormatOpenAIChat,
			`{"prompt_tokens":1000,"completion_tokens":9,"total_tokens":1009,"prompt_cache_hit_tokens":768,"prompt_cache_miss_tokens":232}`,
			&wire.Usage{InputTokens: 1000, CachedTokens: 768, OutputTokens: 9}},
		{"responses: input_tokens includes cached_tokens", wire.FormatOpenAIResponses,
			`{"input_tokens":2200,"input_tokens_details":{"cached_tokens":2048},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":16},"total_tokens":2220}`,
			&wire.Usage{InputTokens: 2200, CachedTokens: 2048, OutputTokens: 20}},
		{"responses without details", wire.FormatOpenAIResponses, `{"input_tokens":5,"output_tokens":1}`,
			&wire.Usage{InputTokens: 5, OutputTokens: 1}},
		{"gemini: promptTokenCount includes cachedContentTokenCount", wire.FormatGemini,
			`{"promptTokenCount":5000,"cachedContentTokenCount":4096,"candidatesTokenCount":20,"totalTokenCount":5020}`,
			&wire.Usage{InputTokens: 5000, CachedTokens: 4096, OutputTokens: 20}},
		{"no input count", wire.FormatAnthropic, `{"output_tokens":3}`, nil},
	}
	for _, c := range cases {
		got, err := ParseUsage(c.format, jsontext.Value(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch {
		case c.want == nil && got != nil:
			t.Errorf("%s: %+v, want none", c.name, *got)
		case c.want != nil && (got == nil || *got != *c.want):
			t.Errorf("%s: %+v, want %+v", c.name, got, *c.want)
		}
	}
	if _, err := ParseUsage(wire.FormatAnthropic, jsontext.Value(`{"input_tokens":"many"}`)); err == nil {
		t.Error("a string count: no error")
	}
}

func TestDecodeResponseUsage(t *testing.T) {
	cases := []struct {
		name   string
		format wire.Format
		body   string
		want   *wire.Usage
	}{
		{"anthropic stream, message_delta with cumulative counts", wire.FormatAnthropic,
			"event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-x\",\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":90,\"output_tokens\":1}}}\r\n\r\n" +
				": keep-alive comment\r\n\r\n" +
				"event: message_delta\r\ndata: {\"type\":\"message_delta\",\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":90,\"output_tokens\":20}}\r\n\r\n",
			&wire.Usage{InputTokens: 100, CachedTokens: 90, OutputTokens: 20}},
		{"data split over two lines", wire.FormatOpenAIChat,
			"data: {\"usage\":\ndata: {\"prompt_tokens\":3,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n",
			&wire.Usage{InputTokens: 3, OutputTokens: 1}},
		{"gemini streamGenerateContent as a JSON array", wire.FormatGemini,
			`[{"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":1}},{"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":4,"cachedContentTokenCount":5}}]`,
			&wire.Usage{InputTokens: 7, CachedTokens: 5, OutputTokens: 4}},
		{"no usage recorded", wire.FormatOpenAIChat, "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n", nil},
		{"not JSON at all", wire.FormatOpenAIChat, "<html>bad gateway</html>", nil},
	}
	for _, c := range cases {
		got := ResponseUsage(c.format, []byte(c.body))
		switch {
		case c.want == nil && got != nil:
			t.Errorf("%s: %+v, want none", c.name, *got)
		case c.want != nil && (got == nil || *got != *c.want):
			t.Errorf("%s: %+v, want %+v", c.name, got, *c.want)
		}
	}
}
