package diff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/scan"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// cacheTestRules is a long block of host rules (well over 1024 tokens).
var cacheTestRules = func() string {
	var b strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&b, "Rule %d: keep every edit small, explain it, and run the tests of package p%d first.\n", i, i)
	}
	return b.String()
}()

// cacheTestReq builds a request from parts through the wire Builder, so
// segments are classified and hashed as decoded ones are.
func cacheTestReq(in *wire.Interner, index int, format wire.Format, model string, parts ...wire.Part) wire.Request {
	r := &wire.Request{Format: format, Model: model, Source: "session.jsonl", Index: index, Line: index}
	b := classify.Builder{Req: r, In: in}
	for _, p := range parts {
		b.Add(p)
	}
	return *r
}

func cacheSys(text string) wire.Part {
	return wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text}
}

func cacheMsg(i int, role, text string) wire.Part {
	return wire.Part{ID: fmt.Sprintf("messages[%d]", i), Channel: wire.ChannelMessages, Role: role, Type: "text", Text: text}
}

func cacheTool(i int, name string) wire.Part {
	return wire.Part{ID: fmt.Sprintf("tools[%d]", i), Channel: wire.ChannelTools, Type: "tool", Name: name,
		Text: fmt.Sprintf(`{"name":%q,"description":"Tool %s reads and writes files in the workspace.","input_schema":{"type":"object"}}`, name, name)}
}

// cacheConversation is the user/assistant history of request n (n >= 1):
// n user turns and n-1 answers.
func cacheConversation(n int) []wire.Part {
	var ps []wire.Part
	for k := 0; k < n; k++ {
		ps = append(ps, cacheMsg(2*k, "user", fmt.Sprintf("Question %s: what does file %c.go do?", strings.Repeat("x", k+1), 'a'+k)))
		if k < n-1 {
			ps = append(ps, cacheMsg(2*k+1, "assistant", fmt.Sprintf("It sets up part %c of the program.", 'a'+k)))
		}
	}
	return ps
}

// TestCacheLegacyTimestamp: a legacy session puts the time in the middle
// of the system prompt; it changes every request, so every request breaks
// in system, inside the timestamp.
func TestCacheLegacyTimestamp(t *testing.T) {
	in := wire.NewInterner()
	head := "You are a coding agent.\n" + cacheTestRules[:len(cacheTestRules)/2]
	tail := cacheTestRules[len(cacheTestRules)/2:]
	var reqs []wire.Request
	for n := 1; n <= 5; n++ {
		sys := fmt.Sprintf("%sThe current time is 2026-11-29T22:15:%02dZ.\n%s", head, 10+n, tail)
		parts := append([]wire.Part{cacheSys(sys)}, cacheConversation(n)...)
		reqs = append(reqs, cacheTestReq(in, n, wire.FormatAnthropic, "claude-sonnet-4-5", parts...))
	}
	// The first byte that differs is the tens... no: the units digit of the
	// seconds (11, 12, 13, ...), right after "22:15:1".
	wantOff := len(head) + len("The current time is 2026-11-29T22:15:1")
	steps, sum := Analyze(reqs)
	if len(steps) != 4 {
		t.Fatalf("got %d steps, want 4 (the first request is not listed)", len(steps))
	}
	for _, st := range steps {
		b := st.Break
		if b == nil {
			t.Fatalf("request %d: no break", st.Index)
		}
		if b.Channel != wire.ChannelSystem || !strings.HasPrefix(b.Segment, "system[0]") {
			t.Errorf("request %d: break in %s %s, want system", st.Index, b.Channel, b.Segment)
		}
		if b.Volatile != scan.VolatileTimestamp {
			t.Errorf("request %d: volatile %q, want timestamp", st.Index, b.Volatile)
		}
		if b.Cause != CauseChanged {
			t.Errorf("request %d: cause %q, want changed", st.Index, b.Cause)
		}
		if st.PrefixBytes != wantOff {
			t.Errorf("request %d: prefix %d bytes, want %d", st.Index, st.PrefixBytes, wantOff)
		}
		if want := wire.CountTokens(reqs[0].Segments[0].Text[:0] + head); st.PrefixTokens < want {
			t.Errorf("request %d: prefix %d tokens, fewer than the %d of the text before the time", st.Index, st.PrefixTokens, want)
		}
		if !strings.Contains(b.Before, "22:15:") || !strings.Contains(b.After, "22:15:") || b.Before == b.After {
			t.Errorf("request %d: excerpts %q / %q should show both times", st.Index, b.Before, b.After)
		}
		// Everything after the break is processed again.
		if st.Reprocessed <= 0 || st.Reprocessed != st.TotalTokens-st.PrefixTokens {
			t.Errorf("request %d: reprocessed %d, want %d", st.Index, st.Reprocessed, st.TotalTokens-st.PrefixTokens)
		}
	}
	if sum.Requests != 5 || sum.Compared != 4 || sum.Breaks != 4 {
		t.Errorf("summary counts: %+v", sum)
	}
	if sum.BreaksByChannel["system"] != 4 || len(sum.BreaksByChannel) != 1 {
		t.Errorf("breaks by channel %v, want system: 4", sum.BreaksByChannel)
	}
	if sum.BreaksByVolatile["timestamp"] != 4 {
		t.Errorf("breaks by volatile %v, want timestamp: 4", sum.BreaksByVolatile)
	}
	if sum.ReuseRatio <= 0 || sum.ReuseRatio >= 0.6 {
		t.Errorf("reuse ratio %.3f: the time sits mid-system, so well under 0.6 is reused", sum.ReuseRatio)
	}
	if len(sum.Worst) == 0 || sum.Worst[0].Reprocessed < sum.Worst[len(sum.Worst)-1].Reprocessed {
		t.Errorf("worst requests not ordered: %+v", sum.Worst)
	}
}

// TestCacheIsolatedGrowsCleanly: an isolated session keeps the system
// prefix byte-stable and only appends; no request breaks.
func TestCacheIsolatedGrowsCleanly(t *testing.T) {
	in := wire.NewInterner()
	sys := "You are a coding agent.\n" + cacheTestRules
	if wire.CountTokens(sys) < 1024 {
		t.Fatal("the test's system prompt must reach OpenAI's 1024-token minimum")
	}
	var reqs []wire.Request
	for n := 1; n <= 6; n++ {
		parts := []wire.Part{cacheTool(0, "read_file"), cacheTool(1, "bash"), cacheSys(sys)}
		parts = append(parts, cacheConversation(n)...)
		reqs = append(reqs, cacheTestReq(in, n, wire.FormatOpenAIChat, "gpt-5", parts...))
	}
	steps, sum := Analyze(reqs)
	wantPrefix, wantTotal := 0, 0
	for i, st := range steps {
		if st.Break != nil {
			t.Errorf("request %d: unexpected break %+v", st.Index, *st.Break)
		}
		prevTok, curTok := reqs[i].Tokens(), reqs[i+1].Tokens()
		if st.PrefixTokens != prevTok || st.TotalTokens != curTok {
			t.Errorf("request %d: prefix %d of %d, want %d of %d", st.Index, st.PrefixTokens, st.TotalTokens, prevTok, curTok)
		}
		if st.PrefixBytes != reqs[i].Bytes() {
			t.Errorf("request %d: prefix %d bytes, want %d", st.Index, st.PrefixBytes, reqs[i].Bytes())
		}
		// OpenAI: whole 128-token steps of a shared prefix of 1024 or more.
		want := 0
		if prevTok >= 1024 {
			want = prevTok / 128 * 128
		}
		if st.Prediction.Cached != want {
			t.Errorf("request %d: predicted %d cached, want %d", st.Index, st.Prediction.Cached, want)
		}
		if from := fmt.Sprintf("session.jsonl@%d", st.Index-1); want > 0 && st.Prediction.From != from {
			t.Errorf("request %d: read from %q, want %q", st.Index, st.Prediction.From, from)
		}
		wantPrefix += prevTok
		wantTotal += curTok
	}
	if sum.Breaks != 0 || sum.ReprocessedTokens != 0 {
		t.Errorf("summary: %d breaks, %d reprocessed; want none", sum.Breaks, sum.ReprocessedTokens)
	}
	if want := float64(wantPrefix) / float64(wantTotal); fmt.Sprintf("%.6f", sum.ReuseRatio) != fmt.Sprintf("%.6f", want) {
		t.Errorf("reuse ratio %.6f, want %.6f", sum.ReuseRatio, want)
	}
}

// TestCacheToolsReordered: the tools list is reordered mid-session, so the
// cache breaks at the very start, in tools.
func TestCacheToolsReordered(t *testing.T) {
	in := wire.NewInterner()
	sys := "You are a coding agent.\n" + cacheTestRules
	order := [][]string{{"read_file", "bash", "grep"}, {"read_file", "bash", "grep"}, {"bash", "read_file", "grep"}, {"bash", "read_file", "grep"}}
	var reqs []wire.Request
	for n, names := range order {
		var parts []wire.Part
		for i, name := range names {
			parts = append(parts, cacheTool(i, name))
		}
		parts = append(parts, cacheSys(sys))
		parts = append(parts, cacheConversation(n+1)...)
		reqs = append(reqs, cacheTestReq(in, n+1, wire.FormatAnthropic, "claude-sonnet-4-5", parts...))
	}
	steps, sum := Analyze(reqs)
	if steps[0].Break != nil || steps[2].Break != nil {
		t.Errorf("requests 2 and 4 keep the order of the one before them: breaks %+v, %+v", steps[0].Break, steps[2].Break)
	}
	b := steps[1].Break
	if b == nil {
		t.Fatal("request 3: no break")
	}
	if b.Channel != wire.ChannelTools || b.Segment != "tools[0]" || b.Cause != CauseReordered || b.Offset != len(`{"name":"`) {
		t.Errorf("request 3: break %+v, want tools[0] reordered at the name", *b)
	}
	if steps[1].PrefixBytes != len(`{"name":"`) || sum.BreaksByChannel["tools"] != 1 {
		t.Errorf("request 3: prefix %d bytes, breaks %v", steps[1].PrefixBytes, sum.BreaksByChannel)
	}
}

// TestCacheRecordedMatched decodes a claude-trace recording whose responses
// carry usage: each recorded cache read lands on its own request, agrees
// with the prediction where the cache was read, and a read of nothing where
// a read was predicted is said in words.
func TestCacheRecordedMatched(t *testing.T) {
	path := filepath.Join("..", "testdata", "cache", "recorded.claude-trace.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var q Sequence
	var steps []*Step
	for r, err := range decode.Decode(f, decode.Options{Source: path}) {
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if st := q.Add(&r); st != nil {
			steps = append(steps, st)
		}
	}
	if len(steps) != 2 {
		t.Fatalf("got %d steps, want 2", len(steps))
	}
	// The fixture records cache_read_input_tokens 2080 for request 2 and 0
	// for request 3.
	if steps[0].Index != 2 || steps[0].Recorded == nil || *steps[0].Recorded != 2080 {
		t.Fatalf("request 2: recorded %v", steps[0].Recorded)
	}
	if steps[1].Index != 3 || steps[1].Recorded == nil || *steps[1].Recorded != 0 {
		t.Fatalf("request 3: recorded %v", steps[1].Recorded)
	}
	if steps[0].Rule.Provider != "anthropic" || steps[0].Rule.MinTokens != 1024 {
		t.Errorf("rule for claude-sonnet-4-5: %+v", steps[0].Rule)
	}
	// Request 1 wrote an entry at its last breakpoint (tools, system and the
	// first question); request 2 shares all of it and its own breakpoint is
	// two blocks later: the read is the tokens up to that entry.
	r1 := steps[0]
	// The prediction is in the provider's tokens: the estimate scaled to
	// the recorded usage.
	if r1.Scale <= 0 || r1.Prediction.Cached <= 1024 || float64(r1.Prediction.Cached) > r1.Scale*float64(r1.PrefixTokens)+1 {
		t.Errorf("request 2: predicted %d cached of a %d-token shared prefix (scale %.3f)", r1.Prediction.Cached, r1.PrefixTokens, r1.Scale)
	}
	if r1.Disagreement != "" {
		t.Errorf("request 2: prediction %d and record 2080 should agree within the estimate: %s", r1.Prediction.Cached, r1.Disagreement)
	}
	r2 := steps[1]
	if r2.Prediction.Cached == 0 || !strings.Contains(r2.Disagreement, "no cached tokens recorded") {
		t.Errorf("request 3: predicted %d, disagreement %q", r2.Prediction.Cached, r2.Disagreement)
	}
	sum := q.Summary()
	if sum.RecordedRequests != 2 || sum.Recorded != 2080 || sum.Disagreements != 1 {
		t.Errorf("summary: recorded %d over %d requests, %d disagreements", sum.Recorded, sum.RecordedRequests, sum.Disagreements)
	}
}

// TestCacheModelChange: another model shares no cache, whatever the text.
func TestCacheModelChange(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	a := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(1)...)...)
	b := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5-mini", append([]wire.Part{sys}, cacheConversation(2)...)...)
	c := cacheTestReq(in, 3, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sys}, cacheConversation(3)...)...)
	steps, sum := Analyze([]wire.Request{a, b, c})
	if b := steps[0].Break; b == nil || b.Cause != CauseModel || b.Before != "gpt-5" || b.After != "gpt-5-mini" {
		t.Fatalf("model change: break %+v", steps[0].Break)
	}
	if steps[0].Reprocessed != a.Tokens() {
		t.Errorf("model change: reprocessed %d, want the %d tokens shared by text", steps[0].Reprocessed, a.Tokens())
	}
	if steps[0].PrefixTokens != 0 || steps[0].TextPrefixTokens != a.Tokens() || steps[0].Prediction.Cached != 0 {
		t.Errorf("model change: prefix %d, text prefix %d (want %d), predicted %d",
			steps[0].PrefixTokens, steps[0].TextPrefixTokens, a.Tokens(), steps[0].Prediction.Cached)
	}
	if b := steps[1].Break; b == nil || b.Cause != CauseProvider {
		t.Errorf("provider change: break %+v", steps[1].Break)
	}
	if len(steps[1].Notes) == 0 || !strings.Contains(strings.Join(steps[1].Notes, "\n"), "format changed") {
		t.Errorf("format change not noted: %v", steps[1].Notes)
	}
	if sum.BreaksByCause["model"] != 1 || sum.BreaksByCause["provider"] != 1 {
		t.Errorf("breaks by cause %v", sum.BreaksByCause)
	}
	if len(sum.BreaksByChannel) != 0 || len(sum.BreaksByKind) != 0 {
		t.Errorf("model and provider changes counted against channels %v or kinds %v", sum.BreaksByChannel, sum.BreaksByKind)
	}
}

// TestCacheSingleRequest: one request has nothing to compare.
func TestCacheSingleRequest(t *testing.T) {
	in := wire.NewInterner()
	r := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", cacheSys("rules"), cacheMsg(0, "user", "hi"))
	steps, sum := Analyze([]wire.Request{r})
	if len(steps) != 0 || sum.Requests != 1 || sum.Compared != 0 || sum.ReuseRatio != 0 {
		t.Errorf("single request: %d steps, summary %+v", len(steps), sum)
	}
}

// TestCacheTruncatedAndInserted covers a request that drops the end of the
// previous one (compaction) and one that inserts a message mid-history.
func TestCacheTruncatedAndInserted(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	full := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(3)...)...)
	short := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(2)...)...)
	st := Compare(&full, &short)
	if st.Break == nil || st.Break.Cause != CauseRemoved || st.Break.Channel != wire.ChannelMessages {
		t.Fatalf("truncated: break %+v", st.Break)
	}
	conv := cacheConversation(2)
	ins := append([]wire.Part{sys, conv[0], cacheMsg(1, "user", "An inserted reminder.")}, conv[1:]...)
	inserted := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5", ins...)
	st = Compare(&short, &inserted)
	if st.Break == nil || st.Break.Cause != CauseAdded || st.Break.Segment != "messages[1]" {
		t.Fatalf("inserted: break %+v", st.Break)
	}
}

// TestCacheExplicitBreakpoints checks the Anthropic rules on hand-built
// requests: no breakpoint caches nothing, more than four is refused, and
// an entry more than 20 blocks before every breakpoint is not found.
func TestCacheExplicitBreakpoints(t *testing.T) {
	in := wire.NewInterner()
	sysBP := cacheSys("You are a coding agent.\n" + cacheTestRules)
	sysBP.CacheBreakpoint = true
	sysPlain := cacheSys(sysBP.Text)
	conv := func(n int, bpLast bool) []wire.Part {
		ps := cacheConversation(n)
		ps[len(ps)-1].CacheBreakpoint = bpLast
		return ps
	}
	a := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysBP}, conv(1, false)...)...)
	// No breakpoint at all: nothing cached.
	b := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysPlain}, conv(2, false)...)...)
	if st := Compare(&a, &b); st.Prediction.Cached != 0 || !strings.Contains(strings.Join(st.Notes, " "), "no cache_control") {
		t.Errorf("no breakpoint: predicted %d, notes %v", st.Prediction.Cached, st.Notes)
	}
	// The breakpoint on the system prompt is found again: the read is the
	// tokens up to the end of the system prompt.
	c := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysBP}, conv(2, true)...)...)
	if st := Compare(&a, &c); st.Prediction.Cached != c.Segments[0].Tokens() {
		t.Errorf("system breakpoint: predicted %d, want %d", st.Prediction.Cached, c.Segments[0].Tokens())
	}
	// 30 more blocks after the system prompt and the only later breakpoint
	// at the end: the system entry is more than 20 blocks back.
	far := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysPlain}, conv(16, true)...)...)
	if st := Compare(&a, &far); st.Prediction.Cached != 0 {
		t.Errorf("entry beyond the 20-block look-back: predicted %d, want 0", st.Prediction.Cached)
	}
	// Five breakpoints: the API refuses.
	five := []wire.Part{sysBP}
	for i, p := range conv(3, true) {
		p.CacheBreakpoint = true
		five = append(five, p)
		_ = i
	}
	d := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", five...)
	if st := Compare(&a, &d); !strings.Contains(strings.Join(st.Notes, " "), "at most 4") {
		t.Errorf("five breakpoints: notes %v", st.Notes)
	}
}

func TestCacheRuleTable(t *testing.T) {
	cases := []struct {
		format wire.Format
		model  string
		prov   string
		min    int
		step   int
	}{
		{wire.FormatAnthropic, "claude-sonnet-4-5-20250929", "anthropic", 1024, 1},
		{wire.FormatAnthropic, "claude-haiku-4-5", "anthropic", 4096, 1},
		{wire.FormatAnthropic, "claude-3-5-haiku-latest", "anthropic", 2048, 1},
		{wire.FormatOpenAIResponses, "gpt-5-codex", "openai", 1024, 128},
		{wire.FormatOpenAIChat, "", "openai", 1024, 128},
		{wire.FormatGemini, "gemini-2.5-pro", "gemini", 2048, 1},
		{wire.FormatGemini, "gemini-3-pro-preview", "gemini", 4096, 1},
		{wire.FormatGemini, "gemini-2.0-flash", "gemini", 0, 0},
		{wire.FormatOpenAIChat, "kimi-k2.6", "moonshot", 256, 256},
		{wire.FormatAnthropic, "kimi-for-coding", "moonshot", 256, 256},
	}
	for _, c := range cases {
		r := RuleFor(c.format, c.model)
		if r.Provider != c.prov || r.MinTokens != c.min || r.Step != c.step {
			t.Errorf("%s %q: got %s min %d step %d, want %s min %d step %d", c.format, c.model, r.Provider, r.MinTokens, r.Step, c.prov, c.min, c.step)
		}
	}
	for _, r := range CacheRules {
		if r.Note == "" || r.Provider == "" {
			t.Errorf("rule without provider or note: %+v", r)
		}
		if r.Mode == CacheExplicit && (r.MaxBreakpoints != 4 || r.LookbackBlocks != 20) {
			t.Errorf("explicit rule %q: %d breakpoints, %d blocks look-back", r.Note, r.MaxBreakpoints, r.LookbackBlocks)
		}
	}
}

// TestCacheVolatileKinds: a break inside a counter, a UUID, or a bare
// number is named by the value it falls in.
func TestCacheVolatileKinds(t *testing.T) {
	in := wire.NewInterner()
	cases := []struct {
		a, b string
		want scan.VolatileKind
	}{
		{"This is turn 9 of the session.", "This is turn 10 of the session.", scan.VolatileCounter},
		{"Session 123e4567-e89b-12d3-a456-426614174000 open.", "Session 9b2f4567-e89b-12d3-a456-426614174000 open.", scan.VolatileUUID},
		{"Files changed so far: 41.", "Files changed so far: 42.", scan.VolatileCounter},
		{"Request id: req_01HXYZ7ABC is live.", "Request id: req_01HXYZ9QRS is live.", scan.VolatileRequestID},
		{"Today is 2026-11-29.", "Today is 2026-11-30.", scan.VolatileDate},
		{"Mode: fast.", "Mode: slow.", ""},
	}
	for _, c := range cases {
		ra := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", cacheSys(cacheTestRules+c.a), cacheMsg(0, "user", "hi"))
		rb := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5", cacheSys(cacheTestRules+c.b), cacheMsg(0, "user", "hi"))
		st := Compare(&ra, &rb)
		if st.Break == nil {
			t.Errorf("%q → %q: no break", c.a, c.b)
			continue
		}
		if st.Break.Volatile != c.want {
			t.Errorf("%q → %q: volatile %q, want %q", c.a, c.b, st.Break.Volatile, c.want)
		}
	}
}

// TestCacheHostileCorpora compares requests built from the hostile corpora:
// no panic, the break's offset lies inside both texts' shared part, and the
// shared prefix never exceeds either request.
func TestCacheHostileCorpora(t *testing.T) {
	blns := wiretest.BLNS(t)
	in := wire.NewInterner()
	for i := 0; i+1 < len(blns); i++ {
		a := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", cacheSys("Rules.\n"+blns[i]), cacheMsg(0, "user", blns[i+1]))
		b := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", cacheSys("Rules.\n"+blns[i+1]), cacheMsg(0, "user", blns[i]))
		st := Compare(&a, &b)
		if st.PrefixBytes > a.Bytes() || st.PrefixBytes > b.Bytes() || st.PrefixTokens > st.TotalTokens+st.PrevTokens {
			t.Fatalf("%q / %q: prefix %d bytes of %d and %d", blns[i], blns[i+1], st.PrefixBytes, a.Bytes(), b.Bytes())
		}
		if br := st.Break; br != nil {
			if br.Offset < 0 || len(br.Before) > 2*excerptLen+8 || len(br.After) > 2*excerptLen+8 {
				t.Fatalf("%q / %q: break %+v", blns[i], blns[i+1], *br)
			}
		} else if a.Bytes() > b.Bytes() {
			t.Fatalf("%q / %q: no break though the request shrank", blns[i], blns[i+1])
		}
	}
}

// TestCacheByModel: interleaved requests of two models break at every
// switch when compared in order (Consecutive), and grow cleanly per model by
// default; the first request of the second model names the change.
func TestCacheByModel(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	var reqs []wire.Request
	for n := 1; n <= 3; n++ {
		reqs = append(reqs, cacheTestReq(in, len(reqs)+1, wire.FormatAnthropic, "claude-sonnet-4-5",
			append([]wire.Part{sys}, cacheConversation(n)...)...))
		if n < 3 {
			reqs = append(reqs, cacheTestReq(in, len(reqs)+1, wire.FormatAnthropic, "claude-haiku-4-5",
				cacheSys("Write a title."), cacheMsg(0, "user", fmt.Sprintf("Conversation %d", n))))
		}
	}
	_, plain := analyzeConsecutive(reqs)
	if plain.BreaksByCause["model"] != 4 {
		t.Errorf("in order: breaks by cause %v, want model: 4", plain.BreaksByCause)
	}
	var q Sequence
	var steps []*Step
	for i := range reqs {
		if st := q.Add(&reqs[i]); st != nil {
			steps = append(steps, st)
		}
	}
	if len(steps) != 4 {
		t.Fatalf("by model: %d steps, want 4 (all but the first)", len(steps))
	}
	// Request 2 (the first haiku) against 1, then 3 (sonnet) against 1,
	// 4 (haiku) against 2, 5 against 3.
	wantIdx, wantPrev := []int{2, 3, 4, 5}, []int{1, 1, 2, 3}
	for i, st := range steps {
		if st.Index != wantIdx[i] || st.PrevIndex != wantPrev[i] || (i > 0 && st.PrevModel != st.Model) {
			t.Errorf("step %d: request %d against %d (%s after %s)", i, st.Index, st.PrevIndex, st.Model, st.PrevModel)
		}
	}
	// The first title request starts its own lane on haiku: it breaks
	// nothing (a lane's first request writes that lane's cache).
	if st := steps[0]; st.Break != nil || !st.LaneFirst {
		t.Errorf("the first haiku request should start its lane, not break: %+v (lane first %v)", st.Break, st.LaneFirst)
	}
	if steps[1].Break != nil || steps[3].Break != nil {
		t.Errorf("sonnet requests should grow cleanly: %+v %+v", steps[1].Break, steps[3].Break)
	}
	if b := steps[2].Break; b == nil || b.Channel != wire.ChannelMessages {
		t.Errorf("haiku's second title request differs in its message: %+v", b)
	}
	if s := q.Summary(); s.Requests != 5 || s.Compared != 4 || s.BreaksByCause["model"] != 0 || s.BreaksByCause["changed"] != 1 {
		t.Errorf("summary: %d requests, %d compared, breaks %v", s.Requests, s.Compared, s.BreaksByCause)
	}
}

// TestCacheByEndpoint: the same model behind two endpoint hosts has two
// caches: each request is compared with the last one sent to its host, and
// the first request to the second host names the change of provider.
func TestCacheByEndpoint(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	hosts := []string{"https://api.anthropic.com/v1/messages", "https://gateway.example.com/v1/messages"}
	var reqs []wire.Request
	for n := 1; n <= 4; n++ {
		r := cacheTestReq(in, n, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sys}, cacheConversation(n)...)...)
		r.Endpoint = hosts[(n-1)%2]
		reqs = append(reqs, r)
	}
	steps, sum := Analyze(reqs)
	if b := steps[0].Break; b == nil || b.Cause != CauseProvider || !strings.Contains(b.After, "gateway.example.com") {
		t.Errorf("request 2: break %+v, want the change of endpoint", b)
	}
	for _, st := range steps[1:] {
		if st.PrevIndex != st.Index-2 || st.Break != nil {
			t.Errorf("request %d: against %d, break %+v, want the last request to its host, growing cleanly", st.Index, st.PrevIndex, st.Break)
		}
	}
	if sum.BreaksByCause["provider"] != 1 {
		t.Errorf("breaks by cause %v", sum.BreaksByCause)
	}
}

// analyzeConsecutive is Analyze with each request compared with the one
// just before it.
func analyzeConsecutive(reqs []wire.Request) ([]*Step, Summary) {
	q := Sequence{Consecutive: true}
	var steps []*Step
	for i := range reqs {
		if st := q.Add(&reqs[i]); st != nil {
			steps = append(steps, st)
		}
	}
	return steps, q.Summary()
}

// TestCacheMemoryOfEarlierRequests: the provider's cache holds what every
// earlier request of the same model left in it, not only the previous one.
func TestCacheMemoryOfEarlierRequests(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)

	// Automatic caching: a side request in between shares only the system
	// prompt; the next request still reads the main conversation's prefix.
	main1 := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(3)...)...)
	side := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5", sys, cacheMsg(0, "user", "Summarise the session in five words."))
	main2 := cacheTestReq(in, 3, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(4)...)...)
	steps, _ := Analyze([]wire.Request{main1, side, main2})
	st := steps[1]
	sysTok := 0
	for _, s := range side.Segments {
		if s.Channel == wire.ChannelSystem {
			sysTok += s.Tokens()
		}
	}
	if st.Break == nil || st.Break.Channel != wire.ChannelMessages || st.PrefixTokens != sysTok {
		t.Fatalf("main2 against the side request: break %+v, prefix %d, want the system prompt's %d", st.Break, st.PrefixTokens, sysTok)
	}
	if want := main1.Tokens() / 128 * 128; st.Prediction.Cached != want || st.Prediction.From != "session.jsonl@1" {
		t.Errorf("main2: predicted %d from %q, want %d from session.jsonl@1", st.Prediction.Cached, st.Prediction.From, want)
	}

	// Explicit caching: request 2 marks only the system prompt; request 3
	// reads the entry request 1 wrote at its last message.
	sysBP := sys
	sysBP.CacheBreakpoint = true
	conv := func(n int, bp bool) []wire.Part {
		ps := cacheConversation(n)
		ps[len(ps)-1].CacheBreakpoint = bp
		return ps
	}
	r1 := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysBP}, conv(2, true)...)...)
	r2 := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysBP}, conv(3, false)...)...)
	r3 := cacheTestReq(in, 3, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{sysBP}, conv(4, true)...)...)
	steps, _ = Analyze([]wire.Request{r1, r2, r3})
	if got, want := steps[0].Prediction.Cached, r2.Segments[0].Tokens(); got < want {
		t.Errorf("r2 reads at least the system entry: %d < %d", got, want)
	}
	if got, want := steps[1].Prediction.Cached, r1.Tokens(); got != want || steps[1].Prediction.From != "session.jsonl@1" {
		t.Errorf("r3: predicted %d from %q, want request 1's entry of %d", got, steps[1].Prediction.From, want)
	}

	// Another model in between: compared with it (Consecutive), the break
	// names the model, nothing is shared with it, but the first model's
	// cache is still there; by default r3 is compared with r1.
	haiku := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-haiku-4-5", cacheSys("Write a title."), cacheMsg(0, "user", "A title"))
	steps, _ = Analyze([]wire.Request{r1, haiku, r3})
	if st := steps[1]; st.PrevIndex != 1 || st.Break != nil || st.Prediction.Cached != r1.Tokens() {
		t.Errorf("r3 by model: against %d, break %+v, predicted %d", st.PrevIndex, st.Break, st.Prediction.Cached)
	}
	steps, _ = analyzeConsecutive([]wire.Request{r1, haiku, r3})
	st = steps[1]
	if st.Break == nil || st.Break.Cause != CauseModel || st.PrefixTokens != 0 {
		t.Fatalf("r3 after haiku: break %+v prefix %d", st.Break, st.PrefixTokens)
	}
	if st.Prediction.Cached != r1.Tokens() {
		t.Errorf("r3 after haiku: predicted %d, want request 1's entry of %d", st.Prediction.Cached, r1.Tokens())
	}
}

// TestCacheFormatChangeSameModel: the same model through another API shape
// is still compared by text; the format change is noted.
func TestCacheFormatChangeSameModel(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	a := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", append([]wire.Part{sys}, cacheConversation(1)...)...)
	b := cacheTestReq(in, 2, wire.FormatOpenAIResponses, "gpt-5", append([]wire.Part{sys}, cacheConversation(2)...)...)
	st := Compare(&a, &b)
	if st.Break != nil || st.PrefixTokens != a.Tokens() {
		t.Errorf("break %+v, prefix %d of %d", st.Break, st.PrefixTokens, a.Tokens())
	}
	if !strings.Contains(strings.Join(st.Notes, "\n"), "format changed from openai-chat to openai-responses") {
		t.Errorf("notes %v", st.Notes)
	}
}

// TestCacheExplicitInvalidationOrder: Anthropic's cache invalidates in the
// order tools, system, messages: a changed tool definition loses the entry
// written at the system prompt's breakpoint, a changed system prompt keeps
// nothing of it either, and a changed message leaves it to be read.
func TestCacheExplicitInvalidationOrder(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	sys.CacheBreakpoint = true
	req := func(index int, tool, system, question string) wire.Request {
		s := sys
		s.Text = system
		last := cacheMsg(0, "user", question)
		last.CacheBreakpoint = true
		return cacheTestReq(in, index, wire.FormatAnthropic, "claude-sonnet-4-5", cacheTool(0, tool), s, last)
	}
	first := req(1, "read_file", sys.Text, "What does a.go do?")
	upToSystem := first.Segments[0].Tokens() + first.Segments[1].Tokens()
	if upToSystem < 1024 {
		t.Fatalf("the test's prefix (%d tokens) must reach the 1024-token minimum", upToSystem)
	}
	cases := []struct {
		name string
		next wire.Request
		want int
		ch   wire.Channel
	}{
		{"message changed", req(2, "read_file", sys.Text, "What does b.go do?"), upToSystem, wire.ChannelMessages},
		{"system changed", req(2, "read_file", sys.Text+"Be brief.\n", "What does a.go do?"), 0, wire.ChannelSystem},
		{"tool changed", req(2, "write_file", sys.Text, "What does a.go do?"), 0, wire.ChannelTools},
	}
	for _, c := range cases {
		st := Compare(&first, &c.next)
		if st.Break == nil || st.Break.Channel != c.ch {
			t.Errorf("%s: break %+v, want one in %s", c.name, st.Break, c.ch)
		}
		if st.Prediction.Cached != c.want {
			t.Errorf("%s: predicted %d cached, want %d", c.name, st.Prediction.Cached, c.want)
		}
	}
}

// TestCacheRecordedBeyondRequest: a recording that leaves out the host's
// system prompt and tools records cache reads larger than the whole request
// it holds; the statement says so instead of blaming an earlier request.
func TestCacheRecordedBeyondRequest(t *testing.T) {
	in := wire.NewInterner()
	a := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", cacheMsg(0, "user", "list the files"))
	b := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", cacheMsg(0, "user", "list the files"),
		cacheMsg(1, "assistant", "a.go b.go"), cacheMsg(2, "user", "open a.go"))
	b.Usage = &wire.Usage{InputTokens: 14000, CachedTokens: 13500}
	st := Compare(&a, &b)
	if st.Recorded == nil || *st.Recorded != 13500 {
		t.Fatalf("recorded %v", st.Recorded)
	}
	for _, want := range []string{"13500 cached tokens recorded", "more than the whole request", fmt.Sprintf("about %d tokens", b.Tokens()), "cannot be checked"} {
		if !strings.Contains(st.Disagreement, want) {
			t.Errorf("statement lacks %q: %s", want, st.Disagreement)
		}
	}
	// A full request whose read is within tokenizer error of its size, but
	// not predicted: the earlier-request explanation stands.
	big := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", cacheSys(cacheTestRules), cacheMsg(0, "user", "hi"))
	big.Usage = &wire.Usage{InputTokens: big.Tokens(), CachedTokens: big.Tokens() * 11 / 10}
	st = Compare(&a, &big)
	if strings.Contains(st.Disagreement, "whole request") || !strings.Contains(st.Disagreement, "none were predicted") {
		t.Errorf("read about the request's size: %q", st.Disagreement)
	}
}

// TestCacheBreakInLongSegment: a break far into a segment longer than what
// is counted exactly is estimated in proportion to the segment's own count.
func TestCacheBreakInLongSegment(t *testing.T) {
	in := wire.NewInterner()
	head := strings.Repeat(cacheTestRules, 300<<10/len(cacheTestRules)+1)
	a := cacheTestReq(in, 1, wire.FormatOpenAIChat, "gpt-5", cacheSys(head+"Mode: fast.\n"))
	b := cacheTestReq(in, 2, wire.FormatOpenAIChat, "gpt-5", cacheSys(head+"Mode: slow.\n"))
	if len(b.Segments) != 1 {
		t.Fatalf("%d segments, want the system prompt as one", len(b.Segments))
	}
	st := Compare(&a, &b)
	off := len(head) + len("Mode: ")
	if st.Break == nil || st.PrefixBytes != off {
		t.Fatalf("break %+v at %d bytes, want %d", st.Break, st.PrefixBytes, off)
	}
	text := b.Segments[0].Text
	if want := int(int64(wire.CountTokens(text)) * int64(off) / int64(len(text))); st.PrefixTokens != want {
		t.Errorf("prefix %d tokens, want %d (the segment's count in proportion)", st.PrefixTokens, want)
	}
}

// TestCacheSummaryIsASnapshot: a summary taken mid-sequence does not change
// when more requests are added.
func TestCacheSummaryIsASnapshot(t *testing.T) {
	in := wire.NewInterner()
	var q Sequence
	for n := 1; n <= 4; n++ {
		sys := fmt.Sprintf("%sThe current time is 2026-11-29T22:15:%02dZ.\n", cacheTestRules, 10+n)
		r := cacheTestReq(in, n, wire.FormatAnthropic, "claude-sonnet-4-5", append([]wire.Part{cacheSys(sys)}, cacheConversation(n)...)...)
		q.Add(&r)
		if n == 2 {
			mid := q.Summary()
			defer func() {
				if mid.Breaks != 1 || mid.BreaksByChannel["system"] != 1 || mid.BreaksByCause["changed"] != 1 || len(mid.Worst) != 1 {
					t.Errorf("summary taken after 2 requests changed: %+v", mid)
				}
			}()
		}
	}
	if s := q.Summary(); s.Breaks != 3 || s.BreaksByChannel["system"] != 3 {
		t.Errorf("summary after 4 requests: %+v", s)
	}
}
