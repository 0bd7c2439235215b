package diff

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// laneNamesOf decodes a file of testdata and names each request's lane as
// cache does once the sequence has settled.
func laneNamesOf(t *testing.T, rel string) []string {
	t.Helper()
	path := filepath.Join("..", "testdata", filepath.FromSlash(rel))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rd io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		rd = zr
	}
	var q Sequence
	var lanes []Lane
	for r, err := range decode.Decode(rd, decode.Options{Source: rel}) {
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		q.Add(&r)
		lanes = append(lanes, q.LastLane())
	}
	q.Settle()
	names := make([]string, len(lanes))
	for i, l := range lanes {
		names[i] = q.Named(l).Name
	}
	return names
}

// TestLaneNamesOnCaptures: the lanes of every capture of testdata that has
// more than one, named by what they are, each checked by reading its
// requests: main is the lane that carries the conversation (the agent with
// its tools), whichever request came first; a request outside it without
// tools is named for what its system prompt says it does, or oneshot:N; a
// lane with tools besides main is subagent:N; the same agent on another
// model is main@MODEL.
func TestLaneNamesOnCaptures(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string // each request's lane, in order
		why  string
	}{
		// opencode sends its title request (no tools, "You are a title
		// generator") before the agent's (12 tools).
		{"agents/opencode.jsonl", "title main", "title generator first"},
		{"agents/opencode-clean.jsonl", "title main", "title generator first"},
		// Gemini CLI asks its routing classifier (no tools, "You are a
		// specialized Task Routing AI") which model to use, then the agent
		// (10 function declarations).
		{"agents/gemini-cli.jsonl", "classifier main", "routing classifier first"},
		{"agents/gemini-cli-notags.jsonl", "classifier main", "routing classifier first"},
		// Two turns of one Gemini CLI session (--resume latest), captured
		// after the naming was written: the classifier before each turn.
		{"agents/gemini-cli-resume-clean.jsonl", "classifier main classifier main", "classifier before each turn"},
		// qwen-code: the agent (10 tools), its memory extraction subagent (6
		// tools, another system prompt), twice.
		{"agents/qwen-code.jsonl", "main subagent:1 main subagent:1", "main agent first"},
		{"agents/qwen-code-clean.jsonl", "main subagent:1 main subagent:1", "main agent first"},
		{"agents/qwen-code-reorder-clean.jsonl", "main subagent:1 main subagent:1", "main agent first"},
		// Without tools in the recording: the conversation that goes on is
		// main, the same conversation sent to another model main@MODEL.
		{"codex-rollouts/2025-09/22/rollout-2025-09-22T14-03-51-0199725c-8e4a-7d30-b1f2-3c4d5e6f7a8b.jsonl",
			"main main main@gpt-5-codex", "no tools recorded"},
		{"recordings/gemini-cli/8a1f3c/chats/session-2025-09-18T10-02-7b3e1c2a.json",
			"main main main@gemini-2.5-flash", "no tools recorded"},
		// A request on haiku without tools after the agent's: a one-shot.
		{"payloads/claude-trace.jsonl", "main oneshot:1", "agent first"},
		// Written fixtures (not one agent's session), named by the same rules:
		// an OTel span with a tool, then one on another provider without.
		{"otel/genai-spans.json", "main oneshot:1", "agent first"},
		// kimi-code: three loop requests (tools), then its compaction request
		// without tools (the recording's kind, compaction, is not read).
		{"recordings/kimi-code/c2a1f0/0f9e8d7c-aaaa-4bbb-8ccc-123456789abc/agents/main/wire.jsonl",
			"main main main oneshot:1", "agent first"},
		// A HAR of five unrelated requests: the one with a tool is main,
		// whichever comes first.
		{"payloads/capture.har", "oneshot:1 main oneshot:2 oneshot:3 oneshot:4", "the request with tools second"},
		// Two requests without tools, of one lane each: the first is main at
		// the end of the input.
		{"payloads/array.json", "main oneshot:1", "no lane shows it is main"},
		{"batch/chat-input.jsonl", "main oneshot:1", "no lane shows it is main"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			got := strings.Join(laneNamesOf(t, tc.file), " ")
			t.Logf("%s: %s", tc.file, got)
			if got != tc.want {
				t.Errorf("lanes %q, want %q (%s)", got, tc.want, tc.why)
			}
		})
	}
}

// TestLaneNamesEveryCapture: on every file of testdata/agents and the
// Claude Code transcripts, a sequence has exactly one main lane and no two
// lanes of one name.
func TestLaneNamesEveryCapture(t *testing.T) {
	var files []string
	for _, pat := range []string{"agents/*.jsonl", "claude-code-transcripts/*.jsonl*"} {
		m, _ := filepath.Glob(filepath.Join("..", "testdata", filepath.FromSlash(pat)))
		for _, p := range m {
			rel, _ := filepath.Rel(filepath.Join("..", "testdata"), p)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d captures", len(files))
	}
	for _, f := range files {
		names := laneNamesOf(t, f)
		mains, byName := 0, map[string]bool{}
		for _, n := range names {
			if !byName[n] && n == "main" {
				mains++
			}
			byName[n] = true
		}
		if len(names) > 0 && mains != 1 {
			t.Errorf("%s: lanes %v, want one main", f, names)
		}
	}
}

// laneReq is a request of a tool-less chat session: system prompt sys,
// the conversation's first n turns, and tools when given.
func laneReq(in *wire.Interner, index int, sys string, n int, tools ...string) wire.Request {
	var parts []wire.Part
	for i, name := range tools {
		parts = append(parts, cacheTool(i, name))
	}
	parts = append(parts, cacheSys(sys))
	parts = append(parts, cacheConversation(n)...)
	return cacheTestReq(in, index, wire.FormatOpenAIChat, "gpt-5", parts...)
}

// TestLaneNamesSettle: which lane is main is known once it shows: a lane
// with tools at once; in a session without tools, the first lane to send a
// second request that does not say it is a title, summary or classifier
// request. Until then Settled is false and the names are provisional;
// Named gives the settled name of a lane taken earlier.
func TestLaneNamesSettle(t *testing.T) {
	in := wire.NewInterner()
	chat := "You are a helpful assistant for a team of engineers. " + strings.Repeat("Answer with care. ", 40)
	check := "Decide whether the question needs a large model. " + strings.Repeat("Answer yes or no. ", 40)
	title := "Write a short title for this conversation. " + strings.Repeat("Five words at most. ", 40)

	// A one-shot check, then the chat, its second turn, a title request.
	var q Sequence
	reqs := []wire.Request{laneReq(in, 1, check, 1), laneReq(in, 2, chat, 1), laneReq(in, 3, chat, 2),
		laneReq(in, 4, title, 2), laneReq(in, 5, check, 1)}
	var taken []Lane
	settled := []bool{}
	for i := range reqs {
		q.Add(&reqs[i])
		taken = append(taken, q.LastLane())
		settled = append(settled, q.Settled())
	}
	if settled[0] || settled[1] || !settled[2] {
		t.Errorf("settled after each request %v, want at the chat's second request (3)", settled)
	}
	if taken[1].Name == "main" {
		t.Error("request 2 named main before anything showed it (the test shows nothing)")
	}
	var got []string
	for _, l := range taken {
		got = append(got, q.Named(l).Name)
	}
	if want := "oneshot:1 main main title oneshot:1"; strings.Join(got, " ") != want {
		t.Errorf("lanes %q, want %q", strings.Join(got, " "), want)
	}

	// A title request and the agent with tools: main at the agent's first.
	q = Sequence{}
	a, b := laneReq(in, 1, title, 1), laneReq(in, 2, chat, 1, "read_file", "bash")
	q.Add(&a)
	if q.Settled() {
		t.Error("settled at a title request")
	}
	q.Add(&b)
	if !q.Settled() || q.LastLane().Name != "main" || q.Lanes()[0].Name != "title" {
		t.Errorf("settled %v, lanes %+v", q.Settled(), q.Lanes())
	}

	// Only requests that say they are titles: settled at the end (Settle),
	// main the one with the most requests.
	q = Sequence{}
	t1, t2, t3 := laneReq(in, 1, title, 1), laneReq(in, 2, "Summarize the thread. "+chat, 1), laneReq(in, 3, "Summarize the thread. "+chat, 2)
	for _, r := range []*wire.Request{&t1, &t2, &t3} {
		q.Add(r)
	}
	if q.Settled() {
		t.Error("settled without a lane that shows it is the conversation")
	}
	q.Settle()
	if l := q.Lanes(); len(l) != 2 || l[0].Name != "title" || l[1].Name != "main" {
		t.Errorf("lanes %+v, want title and main", l)
	}

	// A long session without tools or a second request of one lane
	// settles after settleAfter requests at the latest.
	q = Sequence{}
	for i := 0; i < settleAfter; i++ {
		// System prompts that share no start (hex of a hash).
		r := laneReq(in, i+1, strings.Repeat(strconv.FormatUint(wire.HashText(strconv.Itoa(i)), 16)+" ", 8), 1)
		q.Add(&r)
		if q.Settled() != (i == settleAfter-1) {
			t.Fatalf("request %d: settled %v", i+1, q.Settled())
		}
	}
}

// TestLanePurpose: the words of a system prompt's start name a request
// outside the conversation; text past the start does not.
func TestLanePurpose(t *testing.T) {
	in := wire.NewInterner()
	for sys, want := range map[string]string{
		"You are a title generator. You output ONLY a thread title.":                     "title",
		"\nYou are a specialized Task Routing AI. Your sole function is to analyze":      "classifier",
		"Classify the user's request into one of three kinds.":                           "classifier",
		"Summarize the conversation so far for a new session.":                           "summary",
		"You are a coding agent." + strings.Repeat(" Be exact.", 30) + " Write a title.": "",
	} {
		r := laneReq(in, 1, sys, 1)
		if got := lanePurpose(&r); got != want {
			t.Errorf("%.40q: %q, want %q", sys, got, want)
		}
	}
}

// TestLaneIDSameInEveryRun: a lane's id (cache --json's lane.id, the key
// of its costs) is the same in every run of the program, not only within
// one: two processes (this test binary run again) give the same ids for
// the same requests. wire.HashText is seeded per process, so ids drawn
// from it differed each run.
func TestLaneIDSameInEveryRun(t *testing.T) {
	in := wire.NewInterner()
	ids := func() string {
		var q Sequence
		for i, key := range []string{"a", "b"} {
			r := laneReq(in, i+1, "You are a coding agent. "+strings.Repeat("Be exact. ", 20), 1, "read_file")
			r.CacheKey = key
			q.Add(&r)
		}
		var out []string
		for _, l := range q.Lanes() {
			out = append(out, l.Name+"="+l.ID)
		}
		return strings.Join(out, " ")
	}
	if os.Getenv("WIRELENS_LANE_IDS") != "" {
		fmt.Println("ids:", ids())
		return
	}
	run := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLaneIDSameInEveryRun$")
		cmd.Env = append(os.Environ(), "WIRELENS_LANE_IDS=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "ids: ") {
				return strings.TrimPrefix(l, "ids: ")
			}
		}
		t.Fatalf("no ids in %q", out)
		return ""
	}
	a, b, here := run(), run(), ids()
	if a != b || a != here || strings.Count(a, "=") != 2 {
		t.Errorf("lane ids differ between runs: %q, %q, %q", a, b, here)
	}
}
