package diff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// timedSession is an Anthropic session whose system prompt and last
// message carry breakpoints, request k sent at at[k].
func timedSession(at []time.Duration, ttl1h bool) []wire.Request {
	in := wire.NewInterner()
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	sys := cacheSys("You are a coding agent.\n" + strings.Repeat(cacheTestRules, 8))
	sys.CacheBreakpoint, sys.CacheTTL1h = true, ttl1h
	var reqs []wire.Request
	for k, d := range at {
		parts := append([]wire.Part{sys}, cacheConversation(k+1)...)
		parts[len(parts)-1].CacheBreakpoint = true
		parts[len(parts)-1].CacheTTL1h = ttl1h
		r := cacheTestReq(in, k+1, wire.FormatAnthropic, "claude-sonnet-4-5", parts...)
		r.At = t0.Add(d)
		reqs = append(reqs, r)
	}
	return reqs
}

// TestCacheLifetimes: a prefix lives 5 minutes from its last use: read 4
// minutes after it was written, it is refreshed, so the next read 4.5
// minutes later finds it; 6.5 minutes of idling expire it, and the request
// writes it again. With cache_control ttl "1h" it lives on.
func TestCacheLifetimes(t *testing.T) {
	at := []time.Duration{0, 4 * time.Minute, 8*time.Minute + 30*time.Second, 15 * time.Minute}
	steps, sum := Analyze(timedSession(at, false))
	for _, st := range steps[:2] {
		if st.Expired != nil || st.Prediction.Cached == 0 || st.Prediction.FromIndex != st.Index-1 {
			t.Errorf("request %d: expired %+v, cached %d from %d", st.Index, st.Expired, st.Prediction.Cached, st.Prediction.FromIndex)
		}
	}
	last := steps[2]
	e := last.Expired
	if e == nil {
		t.Fatalf("request 4, idle 6m30s: not expired (cached %d)", last.Prediction.Cached)
	}
	if e.Lifetime != Lifetime5m || e.Idle != 6*time.Minute+30*time.Second || e.Tokens <= 0 || e.From != "session.jsonl@3" {
		t.Errorf("request 4: expiry %+v", *e)
	}
	if got := e.Sentence(); got != "idle 6m30s, past the 5-minute lifetime" {
		t.Errorf("sentence %q", got)
	}
	if !last.HasIdle || last.Idle != e.Idle || last.Prediction.CacheWrite < e.Tokens {
		t.Errorf("request 4: idle %v, writes %d of the %d expired", last.Idle, last.Prediction.CacheWrite, e.Tokens)
	}
	if sum.Expiries != 1 || sum.ExpiredTokens != e.Tokens {
		t.Errorf("summary: %d expiries, %d tokens", sum.Expiries, sum.ExpiredTokens)
	}
	steps, sum = Analyze(timedSession(at, true))
	if steps[2].Expired != nil || steps[2].Prediction.Cached == 0 || sum.Expiries != 0 {
		t.Errorf("1-hour lifetime: request 4 expired %+v, cached %d", steps[2].Expired, steps[2].Prediction.Cached)
	}
	// Without times nothing expires.
	plain := timedSession(at, false)
	for i := range plain {
		plain[i].At = time.Time{}
	}
	steps, _ = Analyze(plain)
	if steps[2].Expired != nil || steps[2].HasIdle {
		t.Errorf("no times: request 4 expired %+v, idle %v", steps[2].Expired, steps[2].HasIdle)
	}
	// whatif --ttl: every write lives an hour.
	q := Sequence{TTL: Lifetime1h}
	for _, r := range timedSession(at, false) {
		if st := q.Add(&r); st != nil && st.Expired != nil {
			t.Errorf("TTL 1h: request %d expired", st.Index)
		}
	}
}

// TestCacheLanes: a main agent and a subagent of the same model, with
// other system prompts and tools, take turns. Each of the main agent's
// requests is compared with the main agent's last and reuses it; the
// subagent's first request starts its lane (no break); the lanes' totals
// add up.
func TestCacheLanes(t *testing.T) {
	in := wire.NewInterner()
	mainSys := cacheSys("You are the main agent of a coding tool.\n" + strings.Repeat(cacheTestRules, 6))
	subSys := cacheSys("You extract memories from a conversation. " + strings.Repeat("Keep facts only. ", 300))
	var reqs []wire.Request
	for k := 0; k < 6; k++ {
		var parts []wire.Part
		if k%2 == 0 {
			parts = []wire.Part{cacheTool(0, "read_file"), cacheTool(1, "bash"), mainSys}
		} else {
			parts = []wire.Part{subSys}
		}
		parts = append(parts, cacheConversation(k/2+1)...)
		reqs = append(reqs, cacheTestReq(in, k+1, wire.FormatOpenAIChat, "gpt-5", parts...))
	}
	steps, sum := Analyze(reqs)
	for _, st := range steps {
		switch st.Index {
		case 2:
			if !st.LaneFirst || st.Break != nil || st.Lane.Name == "main" || st.Reprocessed != 0 {
				t.Errorf("request 2: lane %+v first %v, break %+v", st.Lane, st.LaneFirst, st.Break)
			}
		case 3, 5:
			if st.PrevIndex != st.Index-2 || st.Break != nil || st.Lane.Name != "main" || st.Prediction.FromIndex != st.Index-2 {
				t.Errorf("request %d: compared with %d, break %+v, lane %q, reused %d", st.Index, st.PrevIndex, st.Break,
					st.Lane.Name, st.Prediction.FromIndex)
			}
		case 4, 6:
			if st.PrevIndex != st.Index-2 || st.Break != nil || st.LaneFirst || st.Lane != steps[0].Lane {
				t.Errorf("request %d: compared with %d, break %+v, lane %+v", st.Index, st.PrevIndex, st.Break, st.Lane)
			}
		}
	}
	if sum.Breaks != 0 || len(sum.Lanes) != 2 || sum.Lanes[0].Name != "main" || sum.Lanes[0].Requests != 3 ||
		sum.Lanes[1].Requests != 3 || sum.Lanes[1].Compared != 3 {
		t.Errorf("summary: %d breaks, lanes %+v", sum.Breaks, sum.Lanes)
	}
	// --consecutive compares with the request before: a break each time.
	q := Sequence{Consecutive: true}
	breaks := 0
	for i := range reqs {
		if st := q.Add(&reqs[i]); st != nil && st.Break != nil {
			breaks++
		}
	}
	if breaks != 5 {
		t.Errorf("consecutive: %d breaks, want 5", breaks)
	}
}

// TestCacheScale: the estimates are calibrated to the recorded input
// tokens by the median of the per-request ratios, whatever an outlier.
func TestCacheScale(t *testing.T) {
	var s scaler
	for _, r := range []float64{1.3, 1.31, 1.29, 5, 1.3, 0.2, 1.32} {
		s.add(r)
	}
	if m := s.median(); m < 1.29 || m > 1.32 {
		t.Errorf("median %.3f, want about 1.3", m)
	}
	var none scaler
	if none.median() != 1 {
		t.Errorf("no ratio: %.3f, want 1", none.median())
	}
}

// qwenMemory is the qwen-code capture of the clean workspace
// (testdata/agents): the main agent and its memory subagent interleaved,
// over two runs of one session.
func qwenMemory(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join("..", "testdata", "agents", "qwen-code-clean.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// TestCacheQwenMemorySubagent: on a real qwen-code capture, the main
// agent's second request reuses the main agent's first (two requests back),
// not the memory subagent's request sent in between, and the subagent's
// first request starts its lane.
func TestCacheQwenMemorySubagent(t *testing.T) {
	path, b := qwenMemory(t)
	var q Sequence
	var steps []*Step
	for r, err := range decode.Decode(strings.NewReader(string(b)), decode.Options{Source: path}) {
		if err != nil {
			t.Fatal(err)
		}
		if r.At.IsZero() {
			t.Fatalf("request %d: no time", r.Index)
		}
		if st := q.Add(&r); st != nil {
			steps = append(steps, st)
		}
	}
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	sub, main := steps[0], steps[1]
	if !sub.LaneFirst || sub.Break != nil || sub.Lane.Name == "main" {
		t.Errorf("subagent's first request: lane %+v, first %v, break %+v", sub.Lane, sub.LaneFirst, sub.Break)
	}
	if main.Lane.Name != "main" || main.PrevIndex != 1 || main.PrefixTokens*10 < main.TotalTokens*9 || main.Prediction.FromIndex != 1 {
		t.Errorf("main's second request: lane %q, compared with %d, prefix %d of %d, reused %d", main.Lane.Name,
			main.PrevIndex, main.PrefixTokens, main.TotalTokens, main.Prediction.FromIndex)
	}
	if steps[2].PrevIndex != 2 || steps[2].Lane != sub.Lane {
		t.Errorf("subagent's second request: compared with %d, lane %+v", steps[2].PrevIndex, steps[2].Lane)
	}
}

// TestCacheReorderedInstructionFiles: qwen-code's system prompt lists the
// instruction files it found; the same request with two of them in the
// other order breaks at the first moved file, and everything after the
// break is re-processed.
func TestCacheReorderedInstructionFiles(t *testing.T) {
	path, b := qwenMemory(t)
	first := strings.SplitN(string(b), "\n", 2)[0]
	var line map[string]any
	if err := json.Unmarshal([]byte(first), &line); err != nil {
		t.Fatal(err)
	}
	body := line["request"].(map[string]any)["body"].(map[string]any)
	sys := body["messages"].([]any)[0].(map[string]any)
	text := sys["content"].(string)
	cut := func(name string) (int, int) {
		start := strings.Index(text, "--- Context from: "+name+" ---")
		end := strings.Index(text, "--- End of Context from: "+name+" ---")
		if start < 0 || end < start {
			t.Fatalf("no %s section in the capture's system prompt", name)
		}
		return start, end + len("--- End of Context from: "+name+" ---")
	}
	a0, a1 := cut("QWEN.md")
	b0, b1 := cut("AGENTS.md")
	if a1 > b0 {
		t.Fatal("QWEN.md does not come before AGENTS.md")
	}
	reordered := text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
	// The line is edited as text, so that everything else keeps its bytes.
	esc := func(s string) string {
		var w strings.Builder
		enc := json.NewEncoder(&w)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(w.String(), "\n")
	}
	if !strings.Contains(first, esc(text)) {
		t.Fatal("the system prompt is not escaped in the capture as encoding/json escapes it")
	}
	second := strings.Replace(first, esc(text), esc(reordered), 1)
	steps, _ := analyzeLines(t, path, first+"\n"+second+"\n")
	st := steps[0]
	if st.Break == nil || st.Break.Channel != wire.ChannelSystem {
		t.Fatalf("no break in the system prompt: %+v", st.Break)
	}
	// At the name of the first file moved, in the header that introduces it.
	if !strings.Contains(st.Break.Before, "Context from: QWEN.md") || !strings.Contains(st.Break.After, "Context from: AGENTS.md") {
		t.Errorf("break %+v, want at the first instruction file moved", *st.Break)
	}
	if st.Reprocessed != st.TotalTokens-st.PrefixTokens || st.Reprocessed < wire.CountTokens(text[a0:])/2 {
		t.Errorf("re-processed %d, want the %d tokens after the break", st.Reprocessed, st.TotalTokens-st.PrefixTokens)
	}
}

// TestCacheReorderedInstructionFilesCaptured: a real qwen-code session
// (testdata/agents/qwen-code-reorder-clean.jsonl) whose second run was
// given the user's setting that names its instruction files reversed
// (context.fileName ["QWEN.md","AGENTS.md"], then ["AGENTS.md","QWEN.md"]):
// the main agent's second request breaks in the system prompt at the first
// file moved, and the tokens re-processed are the tokens after the break,
// counted here again from the request's own segments.
func TestCacheReorderedInstructionFilesCaptured(t *testing.T) {
	path := filepath.Join("..", "testdata", "agents", "qwen-code-reorder-clean.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []wire.Request
	for r, err := range decode.Decode(strings.NewReader(string(b)), decode.Options{Source: path}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (two runs: main agent, memory subagent)", len(reqs))
	}
	steps, _ := Analyze(reqs)
	st := steps[1] // request 3, the main agent's second
	if st.Index != 3 || st.PrevIndex != 1 || st.Lane.Name != "main" {
		t.Fatalf("request %d compared with %d, lane %q: want 3 with 1, main", st.Index, st.PrevIndex, st.Lane.Name)
	}
	br := st.Break
	if br == nil || br.Channel != wire.ChannelSystem {
		t.Fatalf("no break in the system prompt: %+v", br)
	}
	if !strings.Contains(br.Before, "Context from: ../home-qwen-code-reorder/.qwen/QWEN.md") ||
		!strings.Contains(br.After, "Context from: AGENTS.md") {
		t.Errorf("break before %q after %q, want at the first instruction file moved", br.Before, br.After)
	}
	// The tokens after the break, counted from the request itself: the rest
	// of the segment the break falls in and every segment after it.
	segs := reqs[2].CacheOrder()
	after := 0
	for i := br.Position; i < len(segs); i++ {
		text := segs[i].Text
		if i == br.Position {
			text = text[br.Offset:]
		}
		after += wire.CountTokens(text)
	}
	if st.Reprocessed != st.TotalTokens-st.PrefixTokens {
		t.Errorf("re-processed %d, the request's tokens after its prefix %d", st.Reprocessed, st.TotalTokens-st.PrefixTokens)
	}
	if d := st.Reprocessed - after; d < -after/100 || d > after/100 {
		t.Errorf("re-processed %d, counted after the break %d", st.Reprocessed, after)
	}
	if after < 2000 {
		t.Errorf("only %d tokens after the break: the files moved are not where the test expects", after)
	}
	t.Logf("break at %s byte %d; re-processed %d, counted after the break %d, of %d", br.Segment, br.Offset,
		st.Reprocessed, after, st.TotalTokens)
}

// analyzeLines decodes a JSONL text and analyses its requests.
func analyzeLines(t *testing.T, source, text string) ([]*Step, Summary) {
	t.Helper()
	var reqs []wire.Request
	for r, err := range decode.Decode(strings.NewReader(text), decode.Options{Source: source}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	return Analyze(reqs)
}

// TestCachePromptCacheKey: OpenAI routes its cache by prompt_cache_key:
// two keys are two caches, and a request of a new key breaks at the start,
// saying so, while a later request of the first key still reads its own.
func TestCachePromptCacheKey(t *testing.T) {
	line := func(key, q string) string {
		return `{"model":"gpt-5","prompt_cache_key":"` + key + `","messages":[{"role":"system","content":"` +
			strings.Repeat("Follow the house rules of the repository. ", 200) + `"},{"role":"user","content":"` + q + `"}]}`
	}
	steps, sum := analyzeLines(t, "keys.jsonl", line("a", "one")+"\n"+line("b", "two")+"\n"+line("a", "three")+"\n")
	if b := steps[0].Break; b == nil || b.Cause != CauseCacheKey || steps[0].Prediction.Cached != 0 {
		t.Fatalf("request 2 (key b): break %+v, cached %d", steps[0].Break, steps[0].Prediction.Cached)
	}
	if st := steps[1]; st.PrevIndex != 1 || st.Prediction.FromIndex != 1 || st.Prediction.Cached == 0 {
		t.Errorf("request 3 (key a): compared with %d, cached %d from %d", st.PrevIndex, st.Prediction.Cached, st.Prediction.FromIndex)
	}
	if sum.BreaksByCause["cache-key"] != 1 || sum.BreaksByChannel["system"] != 0 {
		t.Errorf("summary: %v, %v", sum.BreaksByCause, sum.BreaksByChannel)
	}
}

// TestUntimedStoreIsBounded: without recorded times nothing expires, so a
// session of many distinct requests would have the store hold a prefix of
// each for ever; past untimedEntries it starts again from the lanes' last
// requests, and a request after that still reads the prefix its lane's last
// request wrote.
func TestUntimedStoreIsBounded(t *testing.T) {
	in := wire.NewInterner()
	sys := cacheSys("You are a coding agent.\n" + cacheTestRules)
	defer func(n int) { untimedEntries = n }(untimedEntries)
	untimedEntries = 2048
	var q Sequence
	n := untimedEntries + untimedEntries/2
	most := 0
	var last *Step
	for i := 1; i <= n; i++ {
		r := cacheTestReq(in, i, wire.FormatOpenAIChat, "gpt-5", sys, cacheMsg(0, "user", fmt.Sprintf("ping %d", i)))
		last = q.Add(&r)
		for _, m := range q.mems {
			most = max(most, len(m.prefixes)+len(m.entries))
		}
	}
	mem := q.mems[cacheKey(&wire.Request{Format: wire.FormatOpenAIChat, Model: "gpt-5"})]
	if mem == nil {
		t.Fatal("no store for gpt-5")
	}
	if mem.restarts != 1 {
		t.Fatalf("the store restarted %d times over %d requests (%d entries held), want once", mem.restarts, n, len(mem.prefixes)+len(mem.entries))
	}
	if most > untimedEntries+1 {
		t.Errorf("the store held %d entries, more than %d", most, untimedEntries)
	}
	// The shared system prompt is still read: the store kept the last
	// request's prefixes across the restart.
	if last == nil || last.Prediction.Cached == 0 {
		t.Fatalf("the last request reads nothing from the cache after the restart: %+v", last)
	}
}
