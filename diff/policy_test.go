package diff

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// decodeFile decodes every request of a fixture.
func decodeFile(t *testing.T, path string) []wire.Request {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wire.Request
	for r, err := range decode.Decode(f, decode.Options{Source: path}) {
		if err != nil {
			t.Fatalf("decode %s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

// bpsByChannel lists the indices (in cache order) of a view's breakpoints
// in one channel.
func bpsByChannel(v *seqView, ch wire.Channel) []int {
	var out []int
	for _, i := range v.bps {
		if v.segs[i].Channel == ch {
			out = append(out, i)
		}
	}
	return out
}

// TestPolicyMatchesClaudeCodeRequest: Claude Code's policy, applied to a
// request laid out as Claude Code sends it with its markers taken away,
// puts them back where Claude Code put them: none on the tools, the end of
// the system prompt among the marked system blocks, and the last block of
// each of the last two messages exactly.
func TestPolicyMatchesClaudeCodeRequest(t *testing.T) {
	reqs := decodeFile(t, filepath.Join("..", "testdata", "cache", "claude-code-2.1.39-request.json"))
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	sent := newSeqView(&reqs[0], nil)
	if len(sent.bps) != 4 || sent.policy != nil {
		t.Fatalf("the fixture marks %d blocks (want 4), policy %v", len(sent.bps), sent.policy)
	}

	stripped := reqs[0]
	stripped.Format = wire.FormatClaudeCode
	stripped.Breakpoints = nil
	got := newSeqView(&stripped, nil)
	if got.policy == nil || got.policy.Name != "Claude Code" {
		t.Fatalf("no policy applied to a claude-code request: %+v", got.policy)
	}
	if g, w := bpsByChannel(got, wire.ChannelMessages), bpsByChannel(sent, wire.ChannelMessages); !slices.Equal(g, w) || len(w) != 2 {
		t.Errorf("message breakpoints %v, Claude Code's %v", g, w)
	}
	if g := bpsByChannel(got, wire.ChannelTools); len(g) != 0 || len(bpsByChannel(sent, wire.ChannelTools)) != 0 {
		t.Errorf("tool breakpoints %v", g)
	}
	sys, sentSys := bpsByChannel(got, wire.ChannelSystem), bpsByChannel(sent, wire.ChannelSystem)
	if len(sys) != 1 || !slices.Contains(sentSys, sys[0]) || sys[0] != sentSys[len(sentSys)-1] {
		t.Errorf("system breakpoint %v, Claude Code's %v", sys, sentSys)
	}
}

// TestPolicyOnClaudeCodeTranscript: on a real Claude Code transcript (no
// breakpoints recorded, nor the system prompt and tools) every request gets
// a prediction from the policy, sized by the recorded input, never the
// "no cache_control breakpoint" nothing.
func TestPolicyOnClaudeCodeTranscript(t *testing.T) {
	path := filepath.Join("..", "testdata", "claude-code-transcripts", "258c7280-ae70-4798-800f-63464d01a85d.jsonl")
	steps, sum := Analyze(decodeFile(t, path))
	if len(steps) == 0 {
		t.Fatal("no steps")
	}
	for _, st := range steps {
		notes := strings.Join(st.Notes, "\n")
		if st.Prediction.Unavailable != "" || st.Prediction.Policy != "Claude Code 2.1" || st.Prediction.Cached == 0 ||
			strings.Contains(notes, "no cache_control breakpoint") || !strings.Contains(notes, "not recorded") {
			t.Errorf("@%d: predicted %d, policy %q, unavailable %q, notes %q", st.Index, st.Prediction.Cached,
				st.Prediction.Policy, st.Prediction.Unavailable, notes)
		}
		if st.Recorded == nil {
			t.Errorf("@%d: no recorded cache read", st.Index)
		}
	}
	// The first compared request reads what the one before wrote: the
	// unrecorded prefix and the conversation up to its breakpoint, within
	// the estimate of the record.
	if st := steps[0]; st.Disagreement != "" {
		t.Errorf("@%d: %s", st.Index, st.Disagreement)
	}
	if sum.Unpredicted != 0 || sum.Predicted == 0 {
		t.Errorf("summary: predicted %d, %d unpredicted", sum.Predicted, sum.Unpredicted)
	}
}

// TestPredictionUnavailable: a request of an explicit-caching provider read
// from a format that keeps no breakpoints, and no policy known for it (an
// OpenTelemetry span), or a Claude Code request with no usage to size the
// unrecorded system prompt, gets no prediction rather than 0, is not
// compared with its record, and is counted apart in the summary.
func TestPredictionUnavailable(t *testing.T) {
	in := wire.NewInterner()
	for _, format := range []wire.Format{wire.FormatOTel, wire.FormatClaudeCode} {
		a := cacheTestReq(in, 1, format, "claude-sonnet-4-5", cacheConversation(1)...)
		b := cacheTestReq(in, 2, format, "claude-sonnet-4-5", cacheConversation(2)...)
		if format == wire.FormatOTel {
			b.Usage = &wire.Usage{InputTokens: 3000, CachedTokens: 2500}
		}
		steps, sum := Analyze([]wire.Request{a, b})
		if len(steps) != 1 {
			t.Fatalf("%s: %d steps", format, len(steps))
		}
		st := steps[0]
		if st.Prediction.Unavailable == "" || st.Prediction.Cached != 0 || st.Disagreement != "" ||
			!slices.Contains(st.Notes, st.Prediction.Unavailable) {
			t.Errorf("%s: unavailable %q, predicted %d, disagreement %q, notes %v", format, st.Prediction.Unavailable,
				st.Prediction.Cached, st.Disagreement, st.Notes)
		}
		if sum.Unpredicted != 1 || sum.Disagreements != 0 {
			t.Errorf("%s: summary %d unpredicted, %d disagreements", format, sum.Unpredicted, sum.Disagreements)
		}
	}
	// A request body keeps its markers: one with none caches nothing, and
	// that is a prediction (of 0), not a want of data.
	a := cacheTestReq(in, 1, wire.FormatAnthropic, "claude-sonnet-4-5", cacheConversation(1)...)
	b := cacheTestReq(in, 2, wire.FormatAnthropic, "claude-sonnet-4-5", cacheConversation(2)...)
	if st := Compare(&a, &b); st.Prediction.Unavailable != "" {
		t.Errorf("anthropic body: unavailable %q", st.Prediction.Unavailable)
	}
}

func TestMessageOf(t *testing.T) {
	for id, want := range map[string]string{
		"messages[3].content[1]/untrusted_agents_md": "messages[3]", "messages[12]": "messages[12]",
		"system[0]": "", "messages[x]": "", "messages[]": "", "messages[4": "",
	} {
		if got := messageOf(id); got != want {
			t.Errorf("messageOf(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestPolicyAgainstClaudeCodeCapture: the policy set against what Claude
// Code 2.1.328 really sent (testdata/agents, captured offline through
// record --mock): its system breakpoint is the capture's last marked system
// block, no tool is marked on either side, and every message the capture
// marks the policy marks too. The capture's one-turn request leaves its
// first message unmarked where the 2.1.39 policy marks the last two, so the
// policy may mark more, never less.
func TestPolicyAgainstClaudeCodeCapture(t *testing.T) {
	reqs := decodeFile(t, filepath.Join("..", "testdata", "agents", "claude-code.jsonl"))
	if len(reqs) == 0 {
		t.Fatal("no request in the capture")
	}
	sent := newSeqView(&reqs[0], nil)
	if sent.policy != nil || len(sent.bps) == 0 {
		t.Fatalf("the capture keeps %d markers, policy %v", len(sent.bps), sent.policy)
	}
	stripped := reqs[0]
	stripped.Format = wire.FormatClaudeCode
	stripped.Breakpoints = nil
	got := newSeqView(&stripped, nil)
	if got.policy == nil {
		t.Fatal("no policy applied")
	}
	sys, sentSys := bpsByChannel(got, wire.ChannelSystem), bpsByChannel(sent, wire.ChannelSystem)
	if len(sys) != 1 || len(sentSys) == 0 || sys[0] != sentSys[len(sentSys)-1] {
		t.Errorf("system breakpoint %v, Claude Code's %v", sys, sentSys)
	}
	if g, w := bpsByChannel(got, wire.ChannelTools), bpsByChannel(sent, wire.ChannelTools); len(g) != 0 || len(w) != 0 {
		t.Errorf("tool breakpoints: policy %v, Claude Code %v", g, w)
	}
	msgs := bpsByChannel(got, wire.ChannelMessages)
	sentMsgs := bpsByChannel(sent, wire.ChannelMessages)
	if len(sentMsgs) == 0 {
		t.Fatal("the capture marks no message")
	}
	for _, b := range sentMsgs {
		if !slices.Contains(msgs, b) {
			t.Errorf("Claude Code marks segment %d, the policy does not (policy %v, sent %v)", b, msgs, sentMsgs)
		}
	}
}

// walkedBreakpoints is policyBreakpoints as it was before it stopped at
// the last message it needs: every segment walked from the end.
func walkedBreakpoints(v *seqView, p BreakpointPolicy) []int {
	var bps, msgEnds []int
	lastSys, lastTool, lastMsg := -1, -1, ""
	for i := len(v.segs) - 1; i >= 0; i-- {
		s := &v.segs[i]
		switch s.Channel {
		case wire.ChannelSystem:
			if lastSys < 0 {
				lastSys = i
			}
		case wire.ChannelTools:
			if lastTool < 0 {
				lastTool = i
			}
		default:
			m := messageOf(s.ID)
			if m != "" && m != lastMsg && len(msgEnds) < p.LastMessages {
				msgEnds = append(msgEnds, i)
			}
			if m != "" {
				lastMsg = m
			}
		}
	}
	if p.LastTool && lastTool >= 0 {
		bps = append(bps, lastTool)
	}
	if p.System && lastSys >= 0 {
		bps = append(bps, lastSys)
	}
	for k := len(msgEnds) - 1; k >= 0; k-- {
		bps = append(bps, msgEnds[k])
	}
	return bps
}

// TestPolicyBreakpointsStopEarly: the breakpoints of every policy shape on
// requests of every mix of tools, system and messages (several blocks to a
// message, ids without a message, a channel of no rank of its own) are
// those of the walk through every segment.
func TestPolicyBreakpointsStopEarly(t *testing.T) {
	chans := []wire.Channel{wire.ChannelTools, wire.ChannelSystem, wire.ChannelMessages, "other"}
	ids := []string{"messages[0].content[0]", "messages[0].content[1]", "messages[1].content[0]", "messages[2]",
		"messages[3].content[0]", "messages[x", "tool_result", "messages[4].content[2]"}
	for seed := range 3000 {
		x := uint64(seed)*0x9e3779b97f4a7c15 + 1
		next := func(n int) int {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			return int(x % uint64(n))
		}
		var r wire.Request
		for range next(14) {
			ch := chans[next(len(chans))]
			id := string(ch) + "[0]"
			if ch.CacheRank() == 2 {
				id = ids[next(len(ids))]
			}
			r.Segments = append(r.Segments, wire.Segment{ID: id, Channel: ch, Text: "t"})
		}
		v := newSeqView(&r, nil)
		for _, p := range []BreakpointPolicy{{System: true, LastMessages: 2}, {LastTool: true, LastMessages: 1},
			{System: true, LastTool: true}, {LastMessages: 5}, {LastMessages: -1, System: true}} {
			if got, want := policyBreakpoints(v, p), walkedBreakpoints(v, p); !slices.Equal(got, want) {
				t.Fatalf("seed %d, policy %+v: %v, want %v (segments %+v)", seed, p, got, want, v.segs)
			}
		}
	}
}
