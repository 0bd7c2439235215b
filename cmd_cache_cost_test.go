package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestCacheCommandCostsLegacySession: every break of a legacy session is
// priced, predicted (nothing was recorded), and the summary adds them up.
func TestCacheCommandCostsLegacySession(t *testing.T) {
	p := buildSession(t, "legacy", "kimi-k2-0905-preview", 4)
	code, out, errs := runCLI(t, "", "cache", p)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"\nCost\n", "breaks cost $", "3 breaks", "costliest breaks:", "tokens processed again (predicted)",
		"the session cost $", "prices of 2026-12-01"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "", "cache", "--json", p)
	var doc struct {
		Requests []struct {
			ReprocessedTokens int `json:"reprocessed_tokens"`
			Cost              *struct {
				Price      string  `json:"price"`
				Spend      float64 `json:"spend"`
				SpendBasis string  `json:"spend_basis"`
				Break      *struct {
					Tokens int     `json:"tokens"`
					Cost   float64 `json:"cost"`
					Basis  string  `json:"basis"`
				} `json:"break"`
			} `json:"cost"`
		} `json:"requests"`
		Summary struct {
			Cost struct {
				Breaks         int     `json:"breaks"`
				BreakCost      float64 `json:"break_cost"`
				BreakCostPred  float64 `json:"break_cost_predicted"`
				BreakTokens    int     `json:"break_tokens"`
				Spend          float64 `json:"spend"`
				SpendPredicted float64 `json:"spend_predicted"`
				Priced         int     `json:"priced_requests"`
			} `json:"cost"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	sum, tokens := 0.0, 0
	for i, r := range doc.Requests {
		c := r.Cost
		if c == nil || c.Break == nil || c.Break.Basis != "predicted" || c.SpendBasis != "predicted" || c.Break.Cost <= 0 ||
			c.Break.Tokens != r.ReprocessedTokens || c.Price == "" {
			t.Fatalf("request %d: cost %+v", i+2, c)
		}
		sum += c.Break.Cost
		tokens += c.Break.Tokens
	}
	s := doc.Summary.Cost
	if s.Breaks != 3 || s.BreakTokens != tokens || math.Abs(s.BreakCost-sum) > 1e-5 || s.BreakCostPred != s.BreakCost ||
		s.Priced != 4 || s.Spend <= s.BreakCost || s.SpendPredicted != s.Spend {
		t.Errorf("summary cost %+v (breaks sum to %v over %d tokens)", s, sum, tokens)
	}
}

// traceEntry is one claude-trace line: a request body with the time in
// its system prompt, and the recorded usage of its response.
func traceEntry(minute, input, read, write int) string {
	sys := fmt.Sprintf("You are a coding agent. The time is 2026-11-29T22:%02d:00Z. %s", minute, strings.Repeat("Keep edits small and test them. ", 200))
	req := map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 10,
		"system":   []any{map[string]any{"type": "text", "text": sys, "cache_control": map[string]any{"type": "ephemeral"}}},
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
	resp := map[string]any{"type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"usage": map[string]any{"input_tokens": input, "cache_read_input_tokens": read, "cache_creation_input_tokens": write, "output_tokens": 5}}
	line, _ := json.Marshal(map[string]any{
		"request":  map[string]any{"method": "POST", "url": "https://api.anthropic.com/v1/messages", "body": req},
		"response": map[string]any{"status_code": 200, "body": resp}})
	return string(line)
}

// TestCacheCommandCostsRecorded: where both requests recorded their usage,
// the break's cost comes from the record: the earlier request's input less
// the cache read, written again.
func TestCacheCommandCostsRecorded(t *testing.T) {
	p := writeTemp(t, "trace.jsonl", traceEntry(1, 10, 0, 40_000)+"\n"+traceEntry(2, 10, 0, 40_000)+"\n")
	code, out, errs := runCLI(t, "", "cache", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		Requests []struct {
			Cost struct {
				SpendBasis string `json:"spend_basis"`
				Break      struct {
					Tokens    int     `json:"tokens"`
					Rewritten bool    `json:"rewritten"`
					Cost      float64 `json:"cost"`
					Basis     string  `json:"basis"`
				} `json:"break"`
			} `json:"cost"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	c := doc.Requests[0].Cost
	// 40,010 input tokens recorded before, none read now: all of it written
	// again, at 3.75 - 0.30 dollars per million.
	want := 40_010 * (3.75 - 0.30) / 1e6
	if c.SpendBasis != "recorded" || c.Break.Basis != "recorded" || c.Break.Tokens != 40_010 || !c.Break.Rewritten ||
		math.Abs(c.Break.Cost-want) > 1e-6 {
		t.Errorf("recorded break cost %+v, want %.6f", c, want)
	}
	_, text, _ := runCLI(t, "", "cache", p)
	if !strings.Contains(text, "written to the cache again (recorded)") || !strings.Contains(text, "of it recorded") {
		t.Errorf("text report:\n%s", text)
	}
}

func TestCacheCommandCostsUnpriced(t *testing.T) {
	p := buildSession(t, "legacy", "my-local-llama", 2)
	code, out, _ := runCLI(t, "", "cache", p)
	if code != 0 || !strings.Contains(out, `no price for the models of these requests ("my-local-llama" (2 requests))`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errs := runCLI(t, "", "cache", "--prices", "/nonexistent/prices.json", p)
	if code != 2 || !strings.Contains(errs, "prices.json") {
		t.Errorf("missing --prices: exit %d, %q", code, errs)
	}
}
