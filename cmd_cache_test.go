package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"weak"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/diff/cachejson"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// cacheBuildSession builds the poisoned workspace n times at successive
// minutes in a layout and writes the bodies as one JSONL session.
func cacheBuildSession(t *testing.T, layout string, n int) string {
	t.Helper()
	var jsonl bytes.Buffer
	for i := 0; i < n; i++ {
		now := "2026-11-29T22:0" + string(rune('0'+i)) + ":00Z"
		code, out, errs := runCLI(t, "", "build", filepath.Join("testdata", "workspaces", "poisoned"),
			"--layout", layout, "--now", now, "--model", "claude-sonnet-4-5")
		if code != 0 {
			t.Fatalf("build: exit %d: %s", code, errs)
		}
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("build output: %v", err)
		}
		line, _ := json.Marshal(v)
		jsonl.Write(line)
		jsonl.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), layout+".jsonl")
	if err := os.WriteFile(p, jsonl.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// cacheDoc decodes `cache --json` into generic maps, so the test reads the
// keys of CONTRACT.md by name.
func cacheDoc(t *testing.T, out string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("cache --json output is not JSON: %v\n%s", err, out)
	}
	return doc
}

// TestCacheCommandLegacySession: the legacy layout puts the time mid-system,
// so each request breaks in system at the timestamp; the JSON has exactly
// the keys of CONTRACT.md.
func TestCacheCommandLegacySession(t *testing.T) {
	p := cacheBuildSession(t, "legacy", 3)
	code, out, errs := runCLI(t, "", "cache", p, "--json")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	doc := cacheDoc(t, out)
	reqs, _ := doc["requests"].([]any)
	if len(reqs) != 2 {
		t.Fatalf("%d requests listed, want 2 (the first is not listed)", len(reqs))
	}
	for i, r := range reqs {
		m := r.(map[string]any)
		for _, k := range []string{"source", "index", "total_tokens", "prefix_tokens", "prefix_bytes", "break",
			"predicted_cached_tokens", "recorded_cached_tokens"} {
			if _, ok := m[k]; !ok {
				t.Errorf("request %d: no %q", i, k)
			}
		}
		if m["index"].(float64) != float64(i+2) || m["source"] != p {
			t.Errorf("request %d: source %v index %v", i, m["source"], m["index"])
		}
		if m["recorded_cached_tokens"] != nil {
			t.Errorf("request %d: recorded %v where nothing was recorded", i, m["recorded_cached_tokens"])
		}
		b, ok := m["break"].(map[string]any)
		if !ok {
			t.Fatalf("request %d: break %v", i, m["break"])
		}
		for _, k := range []string{"segment", "channel", "kind", "offset", "before", "after", "volatile"} {
			if _, ok := b[k]; !ok {
				t.Errorf("request %d: break has no %q", i, k)
			}
		}
		if b["channel"] != "system" || b["volatile"] != "timestamp" || b["kind"] != "time" {
			t.Errorf("request %d: break %v", i, b)
		}
		if !strings.Contains(b["before"].(string), "22:0"+string(rune('0'+i))) ||
			!strings.Contains(b["after"].(string), "22:0"+string(rune('1'+i))) {
			t.Errorf("request %d: excerpts %q / %q", i, b["before"], b["after"])
		}
	}
	sum := doc["summary"].(map[string]any)
	if sum["requests"].(float64) != 3 {
		t.Errorf("summary requests %v, want 3", sum["requests"])
	}
	if br := sum["breaks"].(map[string]any); br["system"].(float64) != 2 || len(br) != 1 {
		t.Errorf("summary breaks %v, want system: 2", br)
	}
	ratio := sum["reuse_ratio"].(float64)
	var pre, tot float64
	for _, r := range reqs {
		m := r.(map[string]any)
		pre += m["prefix_tokens"].(float64)
		tot += m["total_tokens"].(float64)
	}
	if d := ratio - pre/tot; d > 0.0001 || d < -0.0001 {
		t.Errorf("reuse_ratio %v, want %v (sum of prefix over sum of total)", ratio, pre/tot)
	}
	if _, ok := doc["errors"].([]any); !ok {
		t.Errorf("errors is not an array: %v", doc["errors"])
	}

	// The text report says it in words.
	code, out, _ = runCLI(t, "", "cache", p)
	if code != 0 {
		t.Fatalf("text: exit %d", code)
	}
	for _, want := range []string{"a timestamp in system[0]/time (system, time) changed", "2 times",
		"by changing value: timestamp 2", "by channel: system 2", "worst requests"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestCacheCommandIsolatedSession: the isolated layout keeps the system
// prefix stable; the time sits in a user fragment, so only the fringe
// changes: the break moves out of system.
func TestCacheCommandIsolatedSession(t *testing.T) {
	p := cacheBuildSession(t, "isolated", 3)
	code, out, _ := runCLI(t, "", "cache", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	doc := cacheDoc(t, out)
	for _, r := range doc["requests"].([]any) {
		m := r.(map[string]any)
		if b, ok := m["break"].(map[string]any); ok && b["channel"] == "system" {
			t.Errorf("isolated build breaks in system: %v", b)
		}
	}
	if br := doc["summary"].(map[string]any)["breaks"].(map[string]any); br["system"] != nil {
		t.Errorf("isolated: breaks %v", br)
	}
}

func TestCacheCommandSingleRequestAndErrors(t *testing.T) {
	one := filepath.Join("testdata", "payloads", "openai-chat.json")
	code, out, errs := runCLI(t, "", "cache", one)
	if code != 0 || errs != "" || !strings.Contains(out, "nothing to compare") {
		t.Errorf("single request: exit %d, stderr %q, out %q", code, errs, out)
	}
	code, out, _ = runCLI(t, "", "cache", one, "--json")
	doc := cacheDoc(t, out)
	if code != 0 || len(doc["requests"].([]any)) != 0 || doc["summary"].(map[string]any)["requests"].(float64) != 1 {
		t.Errorf("single request JSON: exit %d\n%s", code, out)
	}
	// A broken line: reported with file and line, the rest still compared,
	// exit 2.
	dir := t.TempDir()
	good := filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(lines[0]+lines[1]+"{\"request\": \n"+lines[2]), 0o644)
	code, out, errs = runCLI(t, "", "cache", bad, "--json")
	if code != 2 || !strings.Contains(errs, "bad.jsonl:3:") {
		t.Errorf("broken line: exit %d, stderr %q", code, errs)
	}
	if n := len(cacheDoc(t, out)["requests"].([]any)); n != 2 {
		t.Errorf("broken line: %d requests compared, want 2", n)
	}
	code, _, errs = runCLI(t, "", "cache", filepath.Join(dir, "missing.jsonl"))
	if code != 2 || !strings.Contains(errs, "missing.jsonl") || strings.Count(errs, "\n") != 1 {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}

// TestCacheCommandRecorded: recorded cache reads sit beside the prediction,
// and the text says where they disagree.
func TestCacheCommandRecorded(t *testing.T) {
	p := filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl")
	code, out, _ := runCLI(t, "", "cache", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	reqs := cacheDoc(t, out)["requests"].([]any)
	r2, r3 := reqs[0].(map[string]any), reqs[1].(map[string]any)
	if r2["recorded_cached_tokens"].(float64) != 2080 || r3["recorded_cached_tokens"].(float64) != 0 {
		t.Errorf("recorded: %v, %v", r2["recorded_cached_tokens"], r3["recorded_cached_tokens"])
	}
	if r2["disagreement"] != nil || !strings.Contains(r3["disagreement"].(string), "no cached tokens recorded") {
		t.Errorf("disagreements: %v / %v", r2["disagreement"], r3["disagreement"])
	}
	_, out, _ = runCLI(t, "", "cache", p)
	if !strings.Contains(out, "Predicted against recorded") || !strings.Contains(out, "0!") {
		t.Errorf("text report does not show the disagreement:\n%s", out)
	}
}

// TestCacheCommandCachedUnknown: usage read from kimi-cli's _usage lines
// holds no cached tokens, so cache compares nothing recorded, and inspect
// says so.
func TestCacheCommandCachedUnknown(t *testing.T) {
	p := filepath.Join("testdata", "recordings", "kimi-cli", "3f2a9c", "9b4e2c71-5d3a-4f6e-8c20-1a7b3d9e5f42", "context.jsonl")
	code, out, _ := runCLI(t, "", "cache", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	reqs := cacheDoc(t, out)["requests"].([]any)
	if len(reqs) != 2 {
		t.Fatalf("%d requests listed, want 2", len(reqs))
	}
	for i, r := range reqs {
		if rec, ok := r.(map[string]any)["recorded_cached_tokens"]; !ok || rec != nil {
			t.Errorf("request %d: recorded_cached_tokens %v, want null", i+2, rec)
		}
	}
	_, out, _ = runCLI(t, "", "inspect", p)
	if !strings.Contains(out, "recorded usage: input 2,345 (cached not recorded)") {
		t.Errorf("inspect does not say the cached tokens are not recorded:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "inspect", p, "--json")
	if !strings.Contains(out, `"cached_unknown": true`) {
		t.Errorf("inspect --json has no cached_unknown:\n%s", out)
	}
}

// TestCacheCommandHostileText: payload text reaches the report only through
// the sanitiser.
func TestCacheCommandHostileText(t *testing.T) {
	body := func(sys string) string {
		b, _ := json.Marshal(map[string]any{"model": "gpt-5\x1b[31m", "messages": []any{
			map[string]any{"role": "system", "content": sys},
			map[string]any{"role": "user", "content": "hi"}}})
		return string(b)
	}
	in := body("rules \x1b]0;pwned\x07 \u202e at 2026-11-29T22:00:00Z") + "\n" +
		body("rules \x1b]0;pwned\x07 \u202e at 2026-11-29T22:01:00Z") + "\n"
	for _, args := range [][]string{{"cache", "-"}, {"cache", "-", "--json"}} {
		code, out, _ := runCLI(t, in, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("%v: raw control or bidi character in the output:\n%q", args, out)
		}
	}
}

func TestCacheCommandByModel(t *testing.T) {
	body := func(model string, turns int) string {
		msgs := []any{map[string]any{"role": "system", "content": "You are a coding agent. Keep edits small."}}
		for i := 0; i < turns; i++ {
			msgs = append(msgs, map[string]any{"role": "user", "content": "question " + string(rune('a'+i))})
		}
		b, _ := json.Marshal(map[string]any{"model": model, "messages": msgs})
		return string(b) + "\n"
	}
	in := body("gpt-5", 1) + body("gpt-5-mini", 1) + body("gpt-5", 2) + body("gpt-5-mini", 1) + body("gpt-5", 3)
	causes := func(out string) []string {
		var cs []string
		for _, r := range cacheDoc(t, out)["requests"].([]any) {
			if b, ok := r.(map[string]any)["break"].(map[string]any); ok {
				cs = append(cs, b["cause"].(string))
			} else {
				cs = append(cs, "none")
			}
		}
		return cs
	}
	// --consecutive is the earlier view: a break at every switch.
	_, out, _ := runCLI(t, in, "cache", "-", "--json", "--consecutive")
	if got := strings.Join(causes(out), ","); got != "model,model,model,model" {
		t.Errorf("--consecutive: causes %s", got)
	}
	// By default (and with --by-model, now a no-op) each request is compared
	// with the last earlier one of its model; the first gpt-5-mini request
	// has none and names the change of model.
	for _, args := range [][]string{{"cache", "-", "--json"}, {"cache", "-", "--json", "--by-model"}} {
		_, out, _ = runCLI(t, in, args...)
		if got := strings.Join(causes(out), ","); got != "model,none,none,none" {
			t.Errorf("%v: causes %s", args, got)
		}
		var with []string
		for _, r := range cacheDoc(t, out)["requests"].([]any) {
			cw := r.(map[string]any)["compared_with"].(map[string]any)
			with = append(with, fmt.Sprintf("%s@%v", cw["source"], cw["index"]))
		}
		if got := strings.Join(with, ","); got != "-@1,-@1,-@2,-@3" {
			t.Errorf("%v: compared with %s", args, got)
		}
	}
}

// TestCacheAlternatingModels: a claude-trace session where a small model's
// title requests come between the main conversation's (as Claude Code
// sends them). By default the main conversation reads its own cache: the
// only break is the first title request's change of model, and the reuse
// ratio agrees with the recorded cache reads. --consecutive shows a "model
// changed" break at every switch and a reuse ratio near nothing.
func TestCacheAlternatingModels(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var mains []string
	for _, l := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		mains = append(mains, l)
	}
	title := func(n int) string {
		b, _ := json.Marshal(map[string]any{
			"request": map[string]any{"timestamp": 1764400000.5 + float64(n), "method": "POST",
				"url":     "https://api.anthropic.com/v1/messages",
				"headers": map[string]any{"content-type": "application/json"},
				"body": map[string]any{"model": "claude-haiku-4-5", "max_tokens": 64,
					"system":   []any{map[string]any{"type": "text", "text": "Write a five-word title for the conversation."}},
					"messages": []any{map[string]any{"role": "user", "content": fmt.Sprintf("Conversation so far, turn %d", n)}}}},
			"response": map[string]any{"timestamp": 1764400001.0 + float64(n), "status_code": 200,
				"headers": map[string]any{"content-type": "application/json"},
				"body": map[string]any{"id": "msg_t", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
					"content": []any{map[string]any{"type": "text", "text": "A title"}},
					"usage":   map[string]any{"input_tokens": 30, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 4}}},
			"logged_at": "2025-11-29T07:06:41Z"})
		return string(b)
	}
	var lines []string
	for i, m := range mains {
		lines = append(lines, m)
		if i < len(mains)-1 {
			lines = append(lines, title(i+1))
		}
	}
	path := filepath.Join(t.TempDir(), "alternating.claude-trace.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	switches := len(lines) - 1 // every request changes model

	summary := func(args ...string) (map[string]any, []any) {
		t.Helper()
		code, out, errs := runCLI(t, "", append([]string{"cache", path, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		doc := cacheDoc(t, out)
		return doc["summary"].(map[string]any), doc["requests"].([]any)
	}
	sum, reqs := summary()
	if n := len(reqs); n != len(lines)-1 {
		t.Fatalf("default: %d requests listed, want %d", n, len(lines)-1)
	}
	// The first title request starts its own lane on haiku (no break);
	// the second title request differs from the first in its message.
	if c := sum["breaks_by_cause"].(map[string]any); c["changed"] != 1.0 || len(c) != 1 {
		t.Errorf("default: breaks by cause %v, want the title's changed: 1 alone", c)
	}
	for _, r := range reqs {
		r := r.(map[string]any)
		if r["model"] == "claude-sonnet-4-5" && r["break"] != nil {
			t.Errorf("default: main request %v breaks: %v", r["index"], r["break"])
		}
	}
	if r := sum["reuse_ratio"].(float64); r < 0.9 {
		t.Errorf("default: reuse ratio %.2f, want the main conversation's prefix reused", r)
	}
	// The main conversation's third request is compared with its second
	// (request 3 of the file), not the title request before it, and its
	// recorded cache read is set beside a reused prefix.
	last := reqs[len(reqs)-1].(map[string]any)
	if cw := last["compared_with"].(map[string]any); cw["index"] != 3.0 || last["break"] != nil {
		t.Errorf("default: the last request compared with %v, break %v", cw, last["break"])
	}
	if main2 := reqs[1].(map[string]any); main2["recorded_cached_tokens"] == nil || main2["recorded_cached_tokens"].(float64) == 0 ||
		main2["prefix_tokens"].(float64) < 0.9*main2["total_tokens"].(float64) {
		t.Errorf("default: the second main request: prefix %v of %v, recorded %v", main2["prefix_tokens"], main2["total_tokens"], main2["recorded_cached_tokens"])
	}

	sum, _ = summary("--consecutive")
	if c := sum["breaks_by_cause"].(map[string]any); c["model"] != float64(switches) {
		t.Errorf("--consecutive: breaks by cause %v, want model: %d", c, switches)
	}
	if r := sum["reuse_ratio"].(float64); r > 0.1 {
		t.Errorf("--consecutive: reuse ratio %.2f, want near nothing", r)
	}
}

// TestCacheTextFitsWidth: at a terminal's width every line of the report
// fits; without one, nothing is cut.
func TestCacheTextFitsWidth(t *testing.T) {
	p := cacheBuildSession(t, "legacy", 3)
	var steps []*diff.Step
	var q diff.Sequence
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for r, err := range decode.Decode(f, decode.Options{Source: p}) {
		if err != nil {
			t.Fatal(err)
		}
		if st := q.Add(&r); st != nil {
			steps = append(steps, st)
		}
	}
	for _, width := range []int{72, 100} {
		var b strings.Builder
		if err := writeCacheText(&b, steps, q.Summary(), width, true); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if ansi.StringWidth(l) > width {
				t.Errorf("width %d: line of %d columns: %q", width, ansi.StringWidth(l), l)
			}
		}
		if !strings.Contains(b.String(), "@3") {
			t.Errorf("width %d: rows not numbered:\n%s", width, b.String())
		}
	}
	var b strings.Builder
	writeCacheText(&b, steps, q.Summary(), 0, false)
	if !strings.Contains(b.String(), "#") || strings.Contains(b.String(), "█") || !strings.Contains(b.String(), "changed (timestamp)") {
		t.Errorf("ASCII report without a width:\n%s", b.String())
	}
}

// TestCacheCommandCleanGrowth: a session where each request starts with the
// whole previous one lists "break": null (present, not left out), the
// summary's breaks as an empty object, and the reuse ratio of the listed
// requests only.
func TestCacheCommandCleanGrowth(t *testing.T) {
	code, session, errs := runCLI(t, "", "gen-session", "--requests", "5")
	if code != 0 {
		t.Fatalf("gen-session: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, session, "cache", "-", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var raw struct {
		Requests []map[string]json.RawMessage `json:"requests"`
		Summary  map[string]json.RawMessage   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Requests) != 4 {
		t.Fatalf("%d requests listed, want 4 (the first has no predecessor)", len(raw.Requests))
	}
	var pre, tot float64
	for i, r := range raw.Requests {
		b, ok := r["break"]
		if !ok || string(b) != "null" {
			t.Errorf("request %d: break %s (present %v), want null", i+2, b, ok)
		}
		if rec, ok := r["recorded_cached_tokens"]; !ok || string(rec) != "null" {
			t.Errorf("request %d: recorded_cached_tokens %s (present %v), want null", i+2, rec, ok)
		}
		var idx, p, tt float64
		json.Unmarshal(r["index"], &idx)
		json.Unmarshal(r["prefix_tokens"], &p)
		json.Unmarshal(r["total_tokens"], &tt)
		if idx != float64(i+2) || p <= 0 || p >= tt {
			t.Errorf("request %d: index %v, prefix %v of %v", i+2, idx, p, tt)
		}
		pre += p
		tot += tt
	}
	if string(raw.Summary["breaks"]) != "{}" {
		t.Errorf("summary breaks %s, want {}", raw.Summary["breaks"])
	}
	var ratio float64
	json.Unmarshal(raw.Summary["reuse_ratio"], &ratio)
	if d := ratio - pre/tot; d > 0.0001 || d < -0.0001 {
		t.Errorf("reuse_ratio %v, want %v", ratio, pre/tot)
	}
	if string(raw.Summary["recorded_cached_tokens"]) != "null" {
		t.Errorf("summary recorded_cached_tokens %s, want null", raw.Summary["recorded_cached_tokens"])
	}
}

// cacheTinySession is n tiny Anthropic requests, one per line, each asking
// something else: every request breaks the cache at its question.
func cacheTinySession(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"model":"claude-sonnet-4-6","max_tokens":16,"system":"You are terse.","messages":[{"role":"user","content":"ping %d"}]}`+"\n", i)
	}
	return b.Bytes()
}

// TestCacheReportsHoldNoStep: the text and JSON reports of cache take each
// step as it is computed and keep neither it nor its request; with the
// sequence, what stays alive is the previous request and the summary's
// worst steps. Checked with weak pointers after a collection, on a session
// streamed from the decoder as the command streams it.
func TestCacheReportsHoldNoStep(t *testing.T) {
	const n = 200
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		bw := bufio.NewWriter(&out)
		var rep cacheOutput = newCacheText(bw, 0, true)
		if asJSON {
			rep = newCacheJSON(bw)
		}
		var (
			q     diff.Sequence
			steps []weak.Pointer[diff.Step]
			segs  []weak.Pointer[wire.Segment]
		)
		for r, err := range decode.Decode(bytes.NewReader(cacheTinySession(n)), decode.Options{Source: "tiny.jsonl"}) {
			if err != nil {
				t.Fatal(err)
			}
			segs = append(segs, weak.Make(&r.Segments[0]))
			if st := q.Add(&r); st != nil {
				steps = append(steps, weak.Make(st))
				if err := rep.add(st); err != nil {
					t.Fatal(err)
				}
			}
		}
		runtime.GC()
		live := 0
		for _, w := range steps {
			if w.Value() != nil {
				live++
			}
		}
		if len(steps) != n-1 || live > diff.WorstCount {
			t.Errorf("json=%v: %d of %d steps alive, want at most the %d worst", asJSON, live, len(steps), diff.WorstCount)
		}
		for i, w := range segs[:n-1] {
			if w.Value() != nil {
				t.Errorf("json=%v: request %d of %d still held", asJSON, i+1, n)
				break
			}
		}
		if err := rep.finish(q.Summary(), nil); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if want := fmt.Sprintf("%d requests, %d compared", n, n-1); !asJSON && !strings.Contains(out.String(), want) {
			t.Errorf("text report without %q:\n%s", want, out.String())
		}
		if asJSON && len(cacheDoc(t, out.String())["requests"].([]any)) != n-1 {
			t.Errorf("JSON report without its %d requests", n-1)
		}
	}
}

// TestCacheJSONStreamsTheWholeDocument: `cache --json` written step by step
// is byte for byte the document written at once, with and without requests
// and errors.
func TestCacheJSONStreamsTheWholeDocument(t *testing.T) {
	type doc struct {
		Requests []cachejson.Request `json:"requests"`
		Summary  cachejson.Summary   `json:"summary"`
		Errors   []errorJSON         `json:"errors"`
	}
	broken := append(cacheTinySession(3), "{\"model\": \n"...)
	for name, data := range map[string][]byte{
		"recorded": mustRead(t, filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl")),
		"one":      mustRead(t, filepath.Join("testdata", "payloads", "openai-chat.json")),
		"none":     nil,
		"broken":   broken,
		"tiny":     cacheTinySession(30),
	} {
		var (
			q    diff.Sequence
			errs []error
			buf  bytes.Buffer
			all  = doc{Requests: []cachejson.Request{}}
		)
		bw := bufio.NewWriter(&buf)
		rep := newCacheJSON(bw)
		for r, err := range decode.Decode(bytes.NewReader(data), decode.Options{Source: name}) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if st := q.Add(&r); st != nil {
				all.Requests = append(all.Requests, cachejson.RequestOf(st))
				if err := rep.add(st); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := rep.finish(q.Summary(), errs); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		all.Summary, all.Errors = cachejson.SummaryOf(q.Summary()), errorsJSON(errs)
		var whole bytes.Buffer
		if err := writeJSON(&whole, all); err != nil {
			t.Fatal(err)
		}
		if buf.String() != whole.String() {
			t.Errorf("%s: streamed\n%s\nwant\n%s", name, buf.String(), whole.String())
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCacheNamesEachRequestByItsFile: "cache A B" with one request a file
// names the compared request by its own file (B@1), not "@1" under A's or
// B's name alone, and the heading names both files.
func TestCacheNamesEachRequestByItsFile(t *testing.T) {
	a := buildToFile(t, "first", "--layout", "legacy")
	code, out, errs := runCLI(t, "", "build", buildPoisoned, "--layout", "legacy", "--now", "2026-11-29T22:09:44Z")
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	b := filepath.Join(t.TempDir(), "second.json")
	if err := os.WriteFile(b, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "cache", a, b)
	if code != 0 {
		t.Fatalf("cache: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, a+", "+b+": 2 requests") {
		t.Errorf("heading does not name both files:\n%s", out)
	}
	if !strings.Contains(out, "\n  "+b+"@1 ") || strings.Contains(out, "\n  @1 ") {
		t.Errorf("the compared request is not named by its own file:\n%s", out)
	}
	if !strings.Contains(out, "first at "+b+"@1)") {
		t.Errorf("the break is not named by its file:\n%s", out)
	}
}

// TestCacheJSONPolicyAndUnavailable: cache --json names the breakpoint
// policy applied to a Claude Code transcript and predicts from it; the
// prediction is null, with the reason, where none can be made.
func TestCacheJSONPolicyAndUnavailable(t *testing.T) {
	path := filepath.Join("testdata", "claude-code-transcripts", "258c7280-ae70-4798-800f-63464d01a85d.jsonl")
	_, out, _ := runCLI(t, "", "cache", "--json", path)
	var doc struct {
		Requests []map[string]any `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("cache --json: %v\n%s", err, out)
	}
	for _, r := range doc.Requests {
		if p, ok := r["predicted_cached_tokens"].(float64); !ok || p <= 0 || r["breakpoint_policy"] != "Claude Code 2.1" {
			t.Errorf("@%v: predicted %v, policy %v", r["index"], r["predicted_cached_tokens"], r["breakpoint_policy"])
		}
		if _, ok := r["prediction_unavailable"]; ok {
			t.Errorf("@%v: prediction_unavailable %v", r["index"], r["prediction_unavailable"])
		}
	}

	// An OpenTelemetry export of Claude requests keeps no breakpoints.
	dir := t.TempDir()
	span := func(id string, msgs string, cached int) string {
		return `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"` + id + `","name":"chat claude-sonnet-4-5",` +
			`"attributes":[{"key":"gen_ai.request.model","value":{"stringValue":"claude-sonnet-4-5"}},` +
			`{"key":"gen_ai.provider.name","value":{"stringValue":"anthropic"}},` +
			`{"key":"gen_ai.input.messages","value":{"stringValue":` + strconv.Quote(msgs) + `}},` +
			`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"3000"}},` +
			`{"key":"gen_ai.usage.cache_read.input_tokens","value":{"intValue":"` + strconv.Itoa(cached) + `"}}]}`
	}
	m1 := `[{"role":"user","parts":[{"type":"text","content":"What does main.go do?"}]}]`
	m2 := `[{"role":"user","parts":[{"type":"text","content":"What does main.go do?"}]},` +
		`{"role":"assistant","parts":[{"type":"text","content":"Nothing yet."}]},` +
		`{"role":"user","parts":[{"type":"text","content":"And util.go?"}]}]`
	doc2 := `{"resourceSpans":[{"scopeSpans":[{"spans":[` + span("b7ad6b7169203331", m1, 0) + `,` +
		span("b7ad6b7169203332", m2, 2500) + `]}]}]}`
	otel := filepath.Join(dir, "spans.json")
	if err := os.WriteFile(otel, []byte(doc2), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "cache", "--json", otel)
	var d2 struct {
		Requests []map[string]any `json:"requests"`
		Summary  map[string]any   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &d2); err != nil || code != 0 || len(d2.Requests) != 1 {
		t.Fatalf("otel: exit %d, %v, stderr %q\n%s", code, err, errs, out)
	}
	r := d2.Requests[0]
	if p, ok := r["predicted_cached_tokens"]; !ok || p != nil || r["prediction_unavailable"] == nil || r["disagreement"] != nil {
		t.Errorf("otel: predicted %v, unavailable %v, disagreement %v", r["predicted_cached_tokens"],
			r["prediction_unavailable"], r["disagreement"])
	}
	if d2.Summary["predictions_unavailable"] != 1.0 {
		t.Errorf("otel summary: %v", d2.Summary)
	}
	_, text, _ := runCLI(t, "", "cache", otel)
	if !strings.Contains(text, "n/a") || !strings.Contains(text, "no prediction for 1 request") {
		t.Errorf("otel text:\n%s", text)
	}
}

// TestCacheProviderVerdicts: cache sets each provider verdict beside
// wirelens's attribution, in JSON and text, and counts agreements.
func TestCacheProviderVerdicts(t *testing.T) {
	path := filepath.Join("testdata", "verdicts", "anthropic-diagnostics.claude-trace.jsonl")
	_, out, _ := runCLI(t, "", "cache", "--json", path)
	var doc struct {
		Requests []struct {
			Index   int `json:"index"`
			Verdict *struct {
				By           string `json:"by"`
				Reason       string `json:"reason"`
				MissedTokens *int   `json:"missed_tokens"`
				Wirelens     string `json:"wirelens"`
				Outcome      string `json:"outcome"`
			} `json:"provider_verdict"`
			Break *struct {
				Channel string `json:"channel"`
			} `json:"break"`
		} `json:"requests"`
		Summary struct {
			Verdicts *struct {
				Read, Agree, Disagree, Inconclusive int
			} `json:"provider_verdicts"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	agree, read := 0, 0
	for _, r := range doc.Requests {
		v := r.Verdict
		if v == nil {
			continue
		}
		read++
		// wirelens's side is its own break, in the verdict's terms.
		want := "no_break"
		if r.Break != nil {
			want = r.Break.Channel + "_changed"
		}
		if v.By != "anthropic" || v.Wirelens != want {
			t.Errorf("@%d: verdict %+v, break %+v", r.Index, v, r.Break)
		}
		if v.Outcome == "agrees" {
			agree++
			if v.Reason != v.Wirelens || v.MissedTokens == nil {
				t.Errorf("@%d: agrees: %+v", r.Index, v)
			}
		}
	}
	s := doc.Summary.Verdicts
	if read != 4 || agree != 3 || s == nil || s.Read != read || s.Agree != agree || s.Inconclusive != 1 || s.Disagree != 0 {
		t.Errorf("%d verdicts read, %d agree; summary %+v", read, agree, s)
	}
	_, text, _ := runCLI(t, "", "cache", path)
	for _, want := range []string{"Provider verdicts", "@3: anthropic says system_changed (2,690 tokens after the divergence); wirelens: system_changed — agrees",
		"provider verdicts: 4 read, 3 agree with wirelens, 0 disagree, 1 inconclusive"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	// With no verdict recorded, no verdict field and no count.
	_, out, _ = runCLI(t, "", "cache", "--json", filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl"))
	if strings.Contains(out, "provider_verdict") {
		t.Errorf("verdicts where none was recorded:\n%s", out)
	}
}
