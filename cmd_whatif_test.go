package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// whatifDoc is the part of `whatif --json` the tests read.
type whatifDoc struct {
	Encoding  string `json:"encoding"`
	Scenarios []struct {
		Name     string `json:"name"`
		Requests []struct {
			Index            int      `json:"index"`
			CachedAsRecorded int      `json:"cached_tokens_as_recorded"`
			Cached           int      `json:"cached_tokens"`
			BreakAsRecorded  string   `json:"break_as_recorded"`
			Saved            *float64 `json:"saved"`
		} `json:"requests"`
		Totals struct {
			Requests         int      `json:"requests"`
			CachedAsRecorded int      `json:"cached_tokens_as_recorded"`
			Cached           int      `json:"cached_tokens"`
			ReprocessedAsRec int      `json:"reprocessed_tokens_as_recorded"`
			Reprocessed      int      `json:"reprocessed_tokens"`
			BreaksAsRecorded int      `json:"breaks_as_recorded"`
			Breaks           int      `json:"breaks"`
			CostAsRecorded   *float64 `json:"cost_as_recorded"`
			Cost             *float64 `json:"cost"`
			Saved            *float64 `json:"saved"`
		} `json:"totals"`
		Notes []string `json:"notes"`
	} `json:"scenarios"`
	Errors []any `json:"errors"`
}

func whatifJSON(t *testing.T, args ...string) whatifDoc {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"whatif", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc whatifDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return doc
}

// TestWhatifDemoShowsTheLegacySavings: the demo's legacy session breaks at
// the time in the system prompt every request; replayed isolated, tools,
// system and workspace stay cached, and the money saved is positive.
func TestWhatifDemoShowsTheLegacySavings(t *testing.T) {
	code, out, errs := runCLI(t, "", "whatif", "--demo")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"what if: layout isolated (5 requests", "saves $", "system[0]/time changed (timestamp)", "total", "prices of"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	doc := whatifJSON(t, "--demo")
	if len(doc.Scenarios) != 1 || doc.Encoding != "o200k_base" {
		t.Fatalf("scenarios %+v", doc.Scenarios)
	}
	s := doc.Scenarios[0].Totals
	if s.Requests != 5 || s.Cached <= s.CachedAsRecorded || s.Reprocessed >= s.ReprocessedAsRec || s.BreaksAsRecorded != 4 ||
		s.Saved == nil || *s.Saved <= 0 || *s.Cost >= *s.CostAsRecorded {
		t.Errorf("totals %+v", s)
	}
	for _, r := range doc.Scenarios[0].Requests[1:] {
		if r.Cached <= r.CachedAsRecorded || !strings.Contains(r.BreakAsRecorded, "time") {
			t.Errorf("request %d: cached %d, as recorded %d, break %q", r.Index, r.Cached, r.CachedAsRecorded, r.BreakAsRecorded)
		}
	}
}

// TestWhatifSeparateScenarios: each option is its own what-if, and all
// together the last; freezing the time of a legacy session removes every
// break (the time was the only thing that changed).
func TestWhatifSeparateScenarios(t *testing.T) {
	p := buildSession(t, "legacy", "kimi-k2-0905-preview", 4)
	doc := whatifJSON(t, p, "--layout", "isolated", "--sort-tools", "--freeze-time")
	var names []string
	for _, s := range doc.Scenarios {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "layout isolated,sort tools,freeze time,all together" {
		t.Fatalf("scenarios %v", names)
	}
	iso, sorted, frozen, all := doc.Scenarios[0].Totals, doc.Scenarios[1].Totals, doc.Scenarios[2].Totals, doc.Scenarios[3].Totals
	if sorted.Cached != sorted.CachedAsRecorded || sorted.Breaks != sorted.BreaksAsRecorded {
		t.Errorf("sorting tools the build already sorted changed the cache: %+v", sorted)
	}
	if frozen.Breaks != 0 || frozen.Reprocessed != 0 || frozen.Cached <= iso.CachedAsRecorded {
		t.Errorf("freeze time %+v", frozen)
	}
	if iso.Cached <= iso.CachedAsRecorded || all.Breaks != 0 {
		t.Errorf("isolated %+v, all %+v", iso, all)
	}
}

func TestWhatifUsageAndErrors(t *testing.T) {
	for _, args := range [][]string{{"whatif"}, {"whatif", "x.json"}, {"whatif", "--layout", "legacy", "x.json"}, {"whatif", "--demo", "x.json"}} {
		code, _, errs := runCLI(t, "", args...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.HasPrefix(errs, "wirelens: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	good := buildSession(t, "legacy", "kimi-k2-0905-preview", 2)
	bad := writeTemp(t, "bad.jsonl", "{\"model\":\n")
	code, out, errs := runCLI(t, "", "whatif", "--layout", "isolated", good, bad)
	if code != 2 || !strings.Contains(errs, "bad.jsonl") || !strings.Contains(out, "what if: layout isolated (2 requests") {
		t.Errorf("exit %d, stderr %q\n%s", code, errs, out)
	}
	p := writeTemp(t, "req.json", contextBody)
	code, out, _ = runCLI(t, "", "whatif", "--layout", "isolated", p)
	if code != 0 || !strings.Contains(out, "nothing to move") {
		t.Errorf("a request with no legacy sections: exit %d\n%s", code, out)
	}
}
