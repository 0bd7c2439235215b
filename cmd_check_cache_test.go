package main

import (
	"encoding/json"
	"strings"
	"testing"
)

type checkCacheDoc struct {
	Findings []struct {
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Request  int    `json:"request"`
		Segment  string `json:"segment"`
		Message  string `json:"message"`
		Excerpt  string `json:"excerpt"`
	} `json:"findings"`
}

func unstable(t *testing.T, args ...string) (int, []string, []int) {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"check", "--json"}, args...)...)
	var doc checkCacheDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d, stderr %q: %v", code, errs, err)
	}
	var msgs []string
	var reqs []int
	for _, f := range doc.Findings {
		if f.Rule == "unstable-prefix" {
			if f.Severity != "medium" || !strings.Contains(f.Segment, "time") || !strings.Contains(f.Excerpt, "→") {
				t.Errorf("finding %+v", f)
			}
			msgs = append(msgs, f.Message)
			reqs = append(reqs, f.Request)
		}
	}
	return code, msgs, reqs
}

// TestCheckCacheUnstablePrefix: the legacy session breaks on its
// timestamp every request; over the limit that is one unstable-prefix
// finding at the first break, counting the later ones.
func TestCheckCacheUnstablePrefix(t *testing.T) {
	legacy := buildSession(t, "legacy", "kimi-k2-0905-preview", 4)
	code, msgs, reqs := unstable(t, "--cache", "--max-reprocessed", "100", legacy)
	if len(msgs) != 1 || reqs[0] != 2 || !strings.Contains(msgs[0], "because a timestamp changed") ||
		!strings.Contains(msgs[0], "again in 2 later requests") || !strings.Contains(msgs[0], "--max-reprocessed 100") {
		t.Fatalf("findings %v at %v", msgs, reqs)
	}
	if code != 1 { // the poisoned workspace's own high findings
		t.Errorf("exit %d", code)
	}
	if _, msgs, _ = unstable(t, "--cache", "--max-reprocessed", "90%", legacy); len(msgs) != 0 {
		t.Errorf("under a 90%% share: %v", msgs)
	}
	if _, msgs, _ = unstable(t, "--cache", "--max-reprocessed", "20%", legacy); len(msgs) != 1 {
		t.Errorf("over a 20%% share: %v", msgs)
	}
	if _, msgs, _ = unstable(t, legacy); len(msgs) != 0 {
		t.Errorf("without --cache: %v", msgs)
	}
	// The isolated layout breaks only on the time fringe, after the cached
	// prefix: what it re-processes stays under the limit.
	isolated := buildSession(t, "isolated", "kimi-k2-0905-preview", 4)
	if _, msgs, _ = unstable(t, "--cache", "--max-reprocessed", "100", isolated); len(msgs) != 0 {
		t.Errorf("isolated: %v", msgs)
	}
	// SARIF carries the rule and the result like the others.
	_, out, _ := runCLI(t, "", "check", "--cache", "--max-reprocessed", "100", "--sarif", legacy)
	if !strings.Contains(out, `"id": "unstable-prefix"`) || !strings.Contains(out, `"ruleId": "unstable-prefix"`) {
		t.Error("SARIF lacks the rule or its result")
	}
	_, out, _ = runCLI(t, "", "check", "--rules")
	if !strings.Contains(out, "unstable-prefix") {
		t.Error("check --rules does not list unstable-prefix")
	}
}

// TestCheckCacheBeforeAfter: a change that moves the time out of the
// system prompt fixes the unstable prefix.
func TestCheckCacheBeforeAfter(t *testing.T) {
	legacy := buildSession(t, "legacy", "kimi-k2-0905-preview", 3)
	isolated := buildSession(t, "isolated", "kimi-k2-0905-preview", 3)
	code, out, _ := runCLI(t, "", "check", "--cache", "--max-reprocessed", "100", "--before", legacy, "--after", isolated, "--json")
	var doc struct {
		Fixed []struct {
			Rule string `json:"rule"`
		} `json:"fixed"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	fixed := false
	for _, f := range doc.Fixed {
		fixed = fixed || f.Rule == "unstable-prefix"
	}
	if !fixed || code != 0 {
		t.Errorf("exit %d, fixed %+v", code, doc.Fixed)
	}
	code, _, errs := runCLI(t, "", "check", "--cache", "--max-reprocessed", "lots", legacy)
	if code != 2 || !strings.Contains(errs, "--max-reprocessed") {
		t.Errorf("bad limit: exit %d, %q", code, errs)
	}
}
