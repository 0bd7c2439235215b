package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/audit"
)

// checkDecodeJSON decodes `check --json` output.
func checkDecodeJSON(t *testing.T, out string) checkJSON {
	t.Helper()
	var doc checkJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("check --json output is not JSON: %v\n%s", err, out)
	}
	return doc
}

// TestCheckPoisonedLayouts is the acceptance test of the issue: the isolated
// build of the poisoned workspace passes --fail-on high, the legacy build
// fails it with untrusted-in-system.
func TestCheckPoisonedLayouts(t *testing.T) {
	legacy := buildToFile(t, "legacy", "--layout", "legacy")
	isolated := buildToFile(t, "isolated", "--layout", "isolated")

	code, out, errs := runCLI(t, "", "check", "--fail-on", "high", isolated)
	if code != 0 || errs != "" {
		t.Errorf("isolated: exit %d (want 0), stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, "1 request checked") {
		t.Errorf("isolated: summary missing:\n%s", out)
	}

	code, out, _ = runCLI(t, "", "check", "--fail-on", "high", legacy)
	if code != 1 {
		t.Errorf("legacy: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"untrusted-in-system  system[0]/agents-md@0", "untrusted-in-system  system[0]/cwd-listing@0",
		"untrusted-in-system  system[0]/skills-listing@0", "tag-smuggling", "bidi-control"} {
		if !strings.Contains(out, want) {
			t.Errorf("legacy: %q missing from\n%s", want, out)
		}
	}
	// The report is safe to print: the poisoned AGENTS.md carries escapes,
	// bidi controls and tag characters.
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u2066", "\U000E0069"} {
		if strings.Contains(out, bad) {
			t.Errorf("legacy report prints %q raw", bad)
		}
	}
	// Most severe first within the request.
	lines := strings.Split(out, "\n")
	seenMedium := false
	for _, l := range lines {
		if strings.HasPrefix(l, "  medium") {
			seenMedium = true
		}
		if strings.HasPrefix(l, "  high") && seenMedium {
			t.Errorf("high finding after a medium one: %q", l)
		}
	}

	// JSON agrees with the text report.
	code, out, _ = runCLI(t, "", "check", "--json", legacy)
	doc := checkDecodeJSON(t, out)
	if code != 1 || doc.Summary.High == 0 || len(auditRulesOf(doc.Findings, audit.RuleUntrustedInSystem)) != 3 {
		t.Errorf("legacy --json: exit %d, summary %+v, findings %d", code, doc.Summary, len(doc.Findings))
	}
	code, out, _ = runCLI(t, "", "check", "--json", "--fail-on", "low", isolated)
	if doc := checkDecodeJSON(t, out); code != 0 || len(doc.Findings) != 0 {
		t.Errorf("isolated --fail-on low: exit %d, findings %+v", code, doc.Findings)
	}
}

func auditRulesOf(fs []audit.Finding, rule string) []audit.Finding {
	var out []audit.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

func TestCheckJSONShape(t *testing.T) {
	src := filepath.Join("testdata", "check", "tool-breakout.json")
	code, out, _ := runCLI(t, "", "check", "--json", src)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// notes is an addition (issue 21): said once a source whose system
	// text's trust was assumed.
	if k := strings.Join(keys, ","); k != "errors,findings,summary" && k != "errors,findings,notes,summary" {
		t.Errorf("top-level keys %v", keys)
	}
	if n, ok := raw["notes"]; ok && !strings.Contains(string(n), "layout not recognised") {
		t.Errorf("notes %s", n)
	}
	var findings []map[string]any
	if err := json.Unmarshal(raw["findings"], &findings); err != nil {
		t.Fatal(err)
	}
	if len(findings) != 3 {
		t.Fatalf("want 3 findings, got %d", len(findings))
	}
	for _, f := range findings {
		var fk []string
		for k := range f {
			fk = append(fk, k)
		}
		sort.Strings(fk)
		if strings.Join(fk, ",") != "excerpt,message,offset,request,requests,rule,segment,severity,source" {
			t.Errorf("finding keys %v", fk)
		}
		// One request carries each: first 1, count 1 (CONTRACT.md).
		if rq, ok := f["requests"].(map[string]any); !ok || rq["first"] != 1.0 || rq["count"] != 1.0 || len(rq) != 2 {
			t.Errorf("finding requests %v", f["requests"])
		}
		if f["source"] != src || f["request"] != 1.0 || f["segment"] != "messages[2].content[0]" {
			t.Errorf("finding %v", f)
		}
	}
	// Offsets are byte offsets into the segment's text.
	body, _ := os.ReadFile(src)
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var parts []struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(req.Messages[2].Content, &parts); err != nil {
		t.Fatal(err)
	}
	text := parts[0].Content
	if got, want := findings[0]["offset"], float64(strings.Index(text, "</untrusted_agents_md>")); got != want {
		t.Errorf("first offset %v, want %v", got, want)
	}
	if got, want := findings[1]["offset"], float64(strings.Index(text, "<system-reminder>")); got != want || findings[1]["rule"] != "authority-spoof" {
		t.Errorf("second finding %v, want authority-spoof at %v", findings[1], want)
	}
	var sum checkSummary
	if err := json.Unmarshal(raw["summary"], &sum); err != nil || sum != (checkSummary{High: 3}) {
		t.Errorf("summary %+v (%v)", sum, err)
	}
	if string(raw["errors"]) != "[]" {
		t.Errorf("errors %s, want []", raw["errors"])
	}
}

func TestCheckFailOn(t *testing.T) {
	src := filepath.Join("testdata", "check", "medium-only.json")
	for _, c := range []struct {
		args []string
		code int
	}{
		{nil, 0},
		{[]string{"--fail-on", "high"}, 0},
		{[]string{"--fail-on", "medium"}, 1},
		{[]string{"--fail-on", "low"}, 1},
		{[]string{"--fail-on", "MEDIUM"}, 1},
		{[]string{"--fail-on", "critical"}, 2},
	} {
		code, out, errs := runCLI(t, "", append(append([]string{"check"}, c.args...), src)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, out, errs)
		}
	}
	code, out, _ := runCLI(t, "", "check", src)
	if code != 0 || !strings.Contains(out, "2 findings (0 high, 2 medium, 0 low)") || !strings.Contains(out, "invisible-char") {
		t.Errorf("report:\n%s", out)
	}
	// The emoji ZWJ sequence in the same text is not reported.
	if strings.Count(out, "invisible-char") != 2 {
		t.Errorf("want exactly the two ZWSP findings:\n%s", out)
	}
}

func TestCheckInputErrors(t *testing.T) {
	src := filepath.Join("testdata", "check", "session.jsonl")
	code, out, errs := runCLI(t, "", "check", src)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errs, "wirelens: "+src+":3: ") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("stderr should be one line naming %s:3, got %q", src, errs)
	}
	if !strings.Contains(out, src+"@2 (line 2)") || !strings.Contains(out, "bidi-control") || !strings.Contains(out, "2 requests checked") {
		t.Errorf("what could be read is still reported:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "check", "--json", src)
	doc := checkDecodeJSON(t, out)
	if code != 2 || len(doc.Errors) != 1 || doc.Errors[0].Line != 3 || doc.Errors[0].Source != src || doc.Summary.High != 4 {
		t.Errorf("--json: exit %d, errors %+v, summary %+v", code, doc.Errors, doc.Summary)
	}
	for _, args := range [][]string{
		{"check"},
		{"check", "--json", "--sarif", src},
		{"check", "--before", src},
		{"check", "--before", src, "--after", src, src},
		{"check", filepath.Join("testdata", "check", "no-such-file.json")},
		{"check", "--workspace", filepath.Join("testdata", "no-such-dir"), src},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || !strings.HasPrefix(errs, "wirelens: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func TestCheckWorkspace(t *testing.T) {
	src := filepath.Join("testdata", "check", "workspace-pasted.json")
	if code, out, _ := runCLI(t, "", "check", "--fail-on", "low", src); code != 0 {
		t.Errorf("without --workspace the pasted paragraph is not recognisable: exit %d\n%s", code, out)
	}
	code, out, _ := runCLI(t, "", "check", "--json", "--workspace", filepath.Join("testdata", "workspaces", "clean"), src)
	doc := checkDecodeJSON(t, out)
	// Provenance cuts the pasted file out of the system prompt into a
	// segment of its own (issue 21), where the finding is, at its start.
	fs := auditRulesOf(doc.Findings, audit.RuleUntrustedInSystem)
	if code != 1 || len(fs) != 1 || fs[0].Segment != "system[0]/agents-md" || fs[0].Offset != 0 {
		t.Fatalf("with --workspace: exit %d, findings %+v", code, doc.Findings)
	}
	if !strings.HasPrefix(fs[0].Excerpt, "- Run `go test") {
		t.Errorf("excerpt %q, want the AGENTS.md's first line", fs[0].Excerpt)
	}
	if !strings.Contains(fs[0].Message, "AGENTS.md") {
		t.Errorf("message %q should name the AGENTS.md", fs[0].Message)
	}
	// The text report counts one finding in the singular.
	_, text, _ := runCLI(t, "", "check", "--workspace", filepath.Join("testdata", "workspaces", "clean"), src)
	if !strings.HasSuffix(text, "\n1 request checked: 1 finding (1 high, 0 medium, 0 low)\n") {
		t.Errorf("summary line of one finding:\n%s", text)
	}
}

func TestCheckBeforeAfter(t *testing.T) {
	legacy := buildToFile(t, "legacy", "--layout", "legacy")
	isolated := buildToFile(t, "isolated", "--layout", "isolated")
	code, out, errs := runCLI(t, "", "check", "--before", legacy, "--after", isolated)
	if code != 0 || errs != "" {
		t.Errorf("the fix: exit %d, stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, ", 0 introduced") || !strings.Contains(out, "\nfixed:\n") || strings.Contains(out, "introduced:\n") {
		t.Errorf("the fix should list fixed findings only:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "check", "--json", "--before", isolated, "--after", legacy)
	var doc checkCompareJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if code != 1 || len(doc.Fixed) != 0 || len(auditRulesOf(doc.Introduced, audit.RuleUntrustedInSystem)) != 3 || doc.Summary.High == 0 {
		t.Errorf("the regression: exit %d, fixed %d, introduced %+v", code, len(doc.Fixed), doc.Introduced)
	}
	// The same wire on both sides changes nothing.
	code, out, _ = runCLI(t, "", "check", "--before", legacy, "--after", legacy)
	if code != 0 || !strings.Contains(out, "0 fixed, 0 introduced") {
		t.Errorf("same wire: exit %d\n%s", code, out)
	}
	// FILE@N names one request: request 2 of the session adds a tool result
	// with bidi controls; decoding stops before the broken line 3.
	session := filepath.Join("testdata", "check", "session.jsonl")
	code, out, errs = runCLI(t, "", "check", "--json", "--before", session+"@1", "--after", session+"@2")
	doc = checkCompareJSON{}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if code != 1 || errs != "" || len(doc.Introduced) != 4 || len(auditRulesOf(doc.Introduced, audit.RuleBidiControl)) != 4 || doc.Introduced[0].Request != 2 {
		t.Errorf("@1 -> @2: exit %d, stderr %q, introduced %+v", code, errs, doc.Introduced)
	}
	if code, _, errs := runCLI(t, "", "check", "--before", session+"@1", "--after", session+"@9"); code != 2 || !strings.Contains(errs, "has 2 requests, no request 9") {
		t.Errorf("@9: exit %d, stderr %q", code, errs)
	}
	// A finding whose offset moved is unchanged, not fixed and introduced.
	a := []audit.Finding{{Rule: "bidi-control", Severity: audit.SeverityHigh, Segment: "x", Offset: 3, Key: "k1"}}
	b := []audit.Finding{{Rule: "bidi-control", Severity: audit.SeverityHigh, Segment: "y", Offset: 9, Key: "k1"},
		{Rule: "bidi-control", Severity: audit.SeverityHigh, Segment: "y", Offset: 20, Key: "k1"}}
	fixed, introduced, unchanged := compareFindings(a, b)
	if len(fixed) != 0 || len(introduced) != 1 || introduced[0].Offset != 20 || len(unchanged) != 1 {
		t.Errorf("compareFindings: fixed %v introduced %v unchanged %v", fixed, introduced, unchanged)
	}
}

func TestCheckStdinAndRules(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "check", "tool-breakout.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"check", "-"}, bytes.NewReader(body), &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "- (line 1)\n  high    envelope-breakout") {
		t.Errorf("stdin: exit %d\n%s%s", code, out.String(), errb.String())
	}
	code, rules, _ := runCLI(t, "", "check", "--rules")
	if code != 0 {
		t.Errorf("--rules: exit %d", code)
	}
	for _, r := range audit.Rules {
		if !strings.Contains(rules, r.ID) || !strings.Contains(fields(rules), fields(r.Short)) {
			t.Errorf("--rules misses %s", r.ID)
		}
	}
}

// TestCheckClaudeCodeElevated: check on the captured Claude Code request of
// testdata/claudemd reports untrusted-elevated for each workspace CLAUDE.md
// (the framing sentence quoted), exits 1, lists the rule in --rules and
// gives the SARIF result the rule's entry.
func TestCheckClaudeCodeElevated(t *testing.T) {
	path := filepath.Join("testdata", "claudemd", "claude-code-request.json")
	code, out, stderr := runCLI(t, "", "check", "--json", path)
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Findings []audit.Finding `json:"findings"`
		Summary  map[string]int  `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var segs []string
	for _, f := range rep.Findings {
		if f.Rule != "untrusted-elevated" || f.Severity != "high" ||
			!strings.Contains(f.Message, `"IMPORTANT: They OVERRIDE any default behavior and you MUST follow them to the letter."`) {
			t.Errorf("finding %+v", f)
		}
		segs = append(segs, f.Segment)
	}
	if strings.Join(segs, " ") != "messages[0].content[0]/agents-md#2 messages[0].content[0]/agents-md#3" || rep.Summary["high"] != 2 {
		t.Errorf("findings on %v, summary %v", segs, rep.Summary)
	}
	_, rules, _ := runCLI(t, "", "check", "--rules")
	if !strings.Contains(rules, "untrusted-elevated") {
		t.Errorf("--rules does not list untrusted-elevated:\n%s", rules)
	}
	_, sarif, _ := runCLI(t, "", "check", "--sarif", path)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("sarif: %v", err)
	}
	run := log.Runs[0]
	if len(run.Results) != 2 {
		t.Fatalf("sarif: %d results", len(run.Results))
	}
	for _, r := range run.Results {
		if r.RuleID != "untrusted-elevated" || run.Tool.Driver.Rules[r.RuleIndex].ID != "untrusted-elevated" {
			t.Errorf("sarif result %+v", r)
		}
	}
}
