package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
)

// TestLanesLayout: each lane has its column, headed by its name, requests,
// reuse ratio, breaks and cost (priced when the model has a price, "no
// price" otherwise); each request is drawn in its own lane's column with
// its break marked, the first of the session in main's; one lane, or more
// lanes than the width holds, is no layout.
func TestLanesLayout(t *testing.T) {
	st := themes.New(themes.Mono)
	reqs := []wire.Request{
		{Format: wire.FormatAnthropic, Model: "claude-sonnet-4-5", Usage: &wire.Usage{InputTokens: 5000}},
		{Format: wire.FormatAnthropic, Model: "claude-sonnet-4-5", Usage: &wire.Usage{InputTokens: 2000}},
		{Format: wire.FormatAnthropic, Model: "claude-sonnet-4-5", Usage: &wire.Usage{InputTokens: 6000, CachedTokens: 4000}},
	}
	steps := []*diff.Step{nil,
		{Lane: diff.Lane{Name: "subagent:1"}, LaneFirst: true, PrefixTokens: 10, TotalTokens: 2000},
		{Lane: diff.Lane{Name: "main"}, PrefixTokens: 4500, TotalTokens: 6000,
			Break: &diff.Break{Segment: "messages[3]", Kind: wire.KindUserInput}, Reprocessed: 500}}
	l := Lanes{St: st, Count: len(reqs), Step: func(i int) *diff.Step { return steps[i] },
		Req: func(i int) *wire.Request { return &reqs[i] }, Name: func(i int) string { return "#" + string(rune('1'+i)) },
		Prices: price.Default()}
	head, row, ok := l.Layout(116)
	if !ok {
		t.Fatal("two lanes in 116 cells: no layout")
	}
	cols := strings.Split(ansi.Strip(head), laneSep)
	if len(cols) != 2 || !strings.HasPrefix(cols[0], "main") || !strings.HasPrefix(cols[1], "subagent:1") {
		t.Fatalf("heads %q", cols)
	}
	if !strings.Contains(cols[0], "reuse 0.75") || !strings.Contains(cols[0], "1 break") || !strings.Contains(cols[0], "$") {
		t.Errorf("main's head lacks its reuse (4500/6000), break or cost: %q", cols[0])
	}
	if !strings.Contains(cols[1], "reuse 0.01") || strings.Contains(cols[1], "no price") {
		t.Errorf("the subagent's head: %q", cols[1])
	}
	for i, want := range []int{0, 1, 0} {
		cells := strings.Split(ansi.Strip(row(i)), laneSep)
		if len(cells) != 2 || !strings.HasPrefix(cells[want], "#"+string(rune('1'+i))) || strings.TrimSpace(cells[1-want]) != "" {
			t.Errorf("request %d not alone in column %d: %q", i+1, want, cells)
		}
	}
	if c := ansi.Strip(row(2)); !strings.Contains(c, "✂ user-input") || !strings.Contains(c, "75% 4.5k/6.0k") {
		t.Errorf("the break or the share is not in the cell: %q", c)
	}
	if c := ansi.Strip(row(1)); !strings.Contains(c, "new lane") {
		t.Errorf("the subagent's first request does not say it starts its lane: %q", c)
	}
	unpriced := l
	unpriced.Req = func(i int) *wire.Request { r := reqs[i]; r.Model = "no-such-model"; return &r }
	if head, _, _ := unpriced.Layout(116); !strings.Contains(head, "no price") {
		t.Errorf("a model with no price: %q", head)
	}
	if _, _, ok := l.Layout(2*laneMinColumn + 2); ok {
		t.Error("two lanes laid out narrower than two columns")
	}
	one := l
	one.Count = 1
	if _, _, ok := one.Layout(200); ok {
		t.Error("a session of one lane laid out as lanes")
	}
}

// BenchmarkLanesLayout10k draws a frame of 10,000 priced requests in two
// lanes after the first (which adds up every request's lane and cost once:
// about 85 ms here; the frames after reuse the sums).
func BenchmarkLanesLayout10k(b *testing.B) {
	const n = 10000
	reqs := make([]wire.Request, n)
	steps := make([]*diff.Step, n)
	for i := range reqs {
		reqs[i] = wire.Request{Format: wire.FormatAnthropic, Model: "claude-sonnet-4-5", Usage: &wire.Usage{InputTokens: 5000 + i}}
		steps[i] = &diff.Step{Lane: diff.Lane{Name: []string{"main", "subagent:1"}[i%2]}, PrefixTokens: 4000, TotalTokens: 5000 + i}
	}
	l := Lanes{St: themes.New(themes.Mono), Count: n, Step: func(i int) *diff.Step { return steps[i] },
		Req: func(i int) *wire.Request { return &reqs[i] }, Name: func(i int) string { return "#" }, Prices: price.Default()}
	l.Layout(116)
	for b.Loop() {
		if _, row, ok := l.Layout(116); !ok || row(n-1) == "" {
			b.Fatal("no layout")
		}
	}
}
