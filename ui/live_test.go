package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// rebuilds are n requests as watch streams them: numbered from 1, each its
// own text, every tenth holding "needle".
func rebuilds(n int) []wire.Request {
	out := make([]wire.Request, n)
	for i := range out {
		text := fmt.Sprintf("rebuild %d of the workspace", i+1)
		if (i+1)%10 == 0 {
			text += " needle"
		}
		out[i] = testReq(fmt.Sprintf("model-%d", i+1), i+1,
			wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "host rules"},
			wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: text})
	}
	return out
}

// feed drives the model with reqs[lo:hi] as one batch of the stream, as
// waitItems reads it when they come at once.
func feed(t *testing.T, m *Model, reqs []wire.Request, lo, hi int) {
	t.Helper()
	msg := itemsMsg{prog: -1}
	for i := lo; i < hi; i++ {
		msg.entries = append(msg.entries, m.hzMemo.measure(reqs[i]))
		msg.notes = append(msg.notes, fmt.Sprintf("#%d rebuilt", i+1))
	}
	drive(t, m, msg)
}

// TestUILiveKeepsTheLastRebuilds streams 280 rebuilds to a live viewer in
// batches: it keeps the last 100, the header counts the older ones dropped,
// and the marks, the selection, the analyses and a search started before a
// drop follow the requests they were about. A stream that is not live keeps
// everything.
func TestUILiveKeepsTheLastRebuilds(t *testing.T) {
	reqs := rebuilds(280)
	// One finding per request, naming its model: the rows must stay on the
	// request they were found in.
	findings := func(rs []wire.Request) [][]audit.Finding {
		out := make([][]audit.Finding, len(rs))
		for i := range rs {
			out[i] = []audit.Finding{{Rule: "T1", Severity: audit.SeverityLow, Segment: rs[i].Segments[0].ID, Message: rs[i].Model}}
		}
		return out
	}
	m := New(Options{Stream: make(chan Item), Live: true, Theme: themes.Mono, Analysis: Analysis{Findings: findings}})
	m.pullStream = true
	drive(t, m, tea.WindowSizeMsg{Width: 180, Height: 30})

	feed(t, m, reqs, 0, 60)
	if len(m.reqs) != 60 || m.dropped != 0 || strings.Contains(plain(m.Render()), "dropped") {
		t.Fatalf("after 60: %d kept, %d dropped", len(m.reqs), m.dropped)
	}
	// Mark #50 and #60 for the diff, and select #60, the newest: the
	// selection follows the newest from there.
	m.marks = []int{49, 59}
	m.list.sel = 59
	drive(t, m, m.selectionCmd())
	search := m.startSearch("needle")

	feed(t, m, reqs, 60, 120)
	if len(m.reqs) != liveHistory || m.dropped != 20 || m.reqs[0].req.Model != "model-21" {
		t.Fatalf("after 120: %d kept, %d dropped, the first %s", len(m.reqs), m.dropped, m.reqs[0].req.Model)
	}
	screen := plain(m.Render())
	if !strings.Contains(screen, "100 requests · watching · 20 older rebuilds dropped") {
		t.Fatalf("the header does not say what was dropped:\n%s", screen)
	}
	if c := m.cur(); c != 99 || !strings.HasPrefix(m.describeSelection(), "#100 session.jsonl@120 ") || m.bodyKey[0] != 99 {
		t.Fatalf("the selection does not follow the newest: %d, %q, body of %d", c, m.describeSelection(), m.bodyKey[0])
	}
	if len(m.marks) != 2 || m.reqs[m.marks[0]].req.Model != "model-50" || m.reqs[m.marks[1]].req.Model != "model-60" {
		t.Fatalf("marks %v", m.marks)
	}
	if len(m.steps) != liveHistory || m.steps[0] != nil || m.steps[1] == nil {
		t.Fatalf("cache steps: %d, the first %v", len(m.steps), m.steps[0])
	}
	for _, f := range m.findings {
		if m.reqs[f.req].req.Model != f.Message {
			t.Fatalf("finding of %s on request %s", f.Message, m.reqs[f.req].req.Model)
		}
	}
	// The search ran over the 60 requests there were when it started.
	drive(t, m, search())
	if len(m.hits) != 4 {
		t.Fatalf("%d hits, want #30, #40, #50, #60", len(m.hits))
	}
	for _, h := range m.hits {
		if s := m.reqs[h.req].req.Segments[h.seg].Text; !strings.Contains(s, "needle") {
			t.Fatalf("a hit on %q", s)
		}
	}

	// Select #110, then 160 more arrive at once: everything shown before
	// is dropped, the first kept is selected.
	m.list.sel = 89
	drive(t, m, m.selectionCmd())
	feed(t, m, reqs, 120, 280)
	if len(m.reqs) != liveHistory || m.dropped != 180 || m.reqs[0].req.Model != "model-181" {
		t.Fatalf("after 280: %d kept, %d dropped, the first %s", len(m.reqs), m.dropped, m.reqs[0].req.Model)
	}
	if m.cur() != 0 || !strings.HasPrefix(m.describeSelection(), "#1 session.jsonl@181 ") || m.bodyKey[0] != 0 || len(m.marks) != 0 || len(m.hits) != 0 {
		t.Fatalf("after 280: selection %d (%q), body of %d, marks %v, %d hits", m.cur(), m.describeSelection(), m.bodyKey[0], m.marks, len(m.hits))
	}
	screen = plain(m.Render())
	if !strings.Contains(screen, "180 older rebuilds dropped") || !strings.Contains(screen, "▸   1 model-181") {
		t.Fatalf("after 280:\n%s", screen)
	}

	// A file's stream is not live: it keeps every request.
	ch := make(chan Item, len(reqs))
	for i := range reqs {
		ch <- Item{Req: &reqs[i], Progress: -1}
	}
	close(ch)
	m = New(Options{Stream: ch, Theme: themes.Mono})
	m.pullStream = true
	drive(t, m, tea.WindowSizeMsg{Width: 180, Height: 30})
	for m.loading {
		drive(t, m, m.waitItems()())
	}
	if len(m.reqs) != 280 || m.dropped != 0 {
		t.Fatalf("a stream that is not live: %d kept, %d dropped", len(m.reqs), m.dropped)
	}
}
