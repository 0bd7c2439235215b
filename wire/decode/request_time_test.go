package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRequestTimes: every format that records when a request was sent
// gives it to Request.At: HAR's startedDateTime, claude-trace's request
// timestamp, OTel's span start, and the agents' session files (the entry
// before the response for transcripts, the step's start for kimi-cli, the
// llm.request for kimi-code). A format without times leaves it zero.
func TestRequestTimes(t *testing.T) {
	for _, tc := range []struct {
		path  string
		first string // RFC 3339 of the first request, "" for none
	}{
		{"testdata/har/polly-openai-chat.har", "2025-08-14T14:45:15.355Z"},
		{"testdata/payloads/claude-trace.jsonl", "2025-11-29T07:06:40.1Z"},
		{"testdata/otel/genai-spans.json", "2025-09-16T05:20:01Z"},
		{"testdata/recordings/claude-code/-home-dev-repo/5f0c2a6e-1b7d-4c3e-9f10-2a3b4c5d6e7f.jsonl", "2025-10-20T10:00:00Z"},
		{"testdata/recordings/kimi-cli/3f2a9c/7d1e5b2a-0c4f-4e8e-9a51-6b2d0e4c1f00/context.jsonl", "2025-11-29T07:06:40.2Z"},
		{"testdata/recordings/kimi-code/c2a1f0/0f9e8d7c-aaaa-4bbb-8ccc-123456789abc/agents/main/wire.jsonl", "2026-09-09T06:46:26.008Z"},
		{"testdata/recordings/gemini-cli/8a1f3c/chats/session-2025-09-18T10-02-7b3e1c2a.json", "2025-09-18T10:02:11.418Z"},
		{"testdata/codex-rollouts/2025-09/22/rollout-2025-09-22T14-03-51-0199725c-8e4a-7d30-b1f2-3c4d5e6f7a8b.jsonl", "2025-09-22T14:04:02.735Z"},
		{"testdata/payloads/anthropic-messages.json", ""},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			path := filepath.Join("..", "..", tc.path)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var ats []time.Time
			for r, err := range Decode(f, Options{Source: path}) {
				if err != nil {
					t.Fatal(err)
				}
				ats = append(ats, r.At)
			}
			if len(ats) == 0 {
				t.Fatal("no request")
			}
			if tc.first == "" {
				if tc.path == "testdata/payloads/anthropic-messages.json" && !ats[0].IsZero() {
					t.Errorf("a bare body has no time, got %v", ats[0])
				}
				return
			}
			want, _ := time.Parse(time.RFC3339Nano, tc.first)
			if !ats[0].Equal(want) {
				t.Errorf("first request at %v, want %v", ats[0], want)
			}
			for i := 1; i < len(ats); i++ {
				if ats[i].IsZero() || ats[i].Before(ats[i-1]) {
					t.Errorf("request %d at %v, after %v", i+1, ats[i], ats[i-1])
				}
			}
		})
	}
}

// TestCacheTTL1h: a cache_control breakpoint asking for the 1-hour
// lifetime marks the request; the default one does not.
func TestCacheTTL1h(t *testing.T) {
	for _, tc := range []struct {
		cc   string
		want bool
	}{
		{`{"type":"ephemeral","ttl":"1h"}`, true},
		{`{"type":"ephemeral","ttl":"5m"}`, false},
		{`{"type":"ephemeral"}`, false},
	} {
		body := `{"model":"claude-sonnet-4-5","max_tokens":10,"system":[{"type":"text","text":"rules","cache_control":` + tc.cc +
			`}],"messages":[{"role":"user","content":"hi"}]}`
		for r, err := range Decode(strings.NewReader(body), Options{Source: "req.json"}) {
			if err != nil {
				t.Fatal(err)
			}
			if r.CacheTTL1h != tc.want || len(r.Breakpoints) != 1 {
				t.Errorf("%s: ttl 1h %v, breakpoints %v", tc.cc, r.CacheTTL1h, r.Breakpoints)
			}
		}
	}
}
