package whatif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/price"
)

var rules = strings.Repeat("Keep every edit small, explain it and run the tests first. ", 120)

// session is n requests whose system prompt ends with a changing time.
func session(n int) []wire.Request {
	in := wire.NewInterner()
	var out []wire.Request
	for k := 1; k <= n; k++ {
		r := &wire.Request{Format: wire.FormatOpenAIChat, Model: "gpt-4.1", Source: "s.jsonl", Index: k}
		b := classify.Builder{Req: r, In: in}
		b.Add(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text",
			Text: fmt.Sprintf("The time is 2026-11-29T22:%02d:00Z.\n%s", k, rules)})
		for i := 0; i < k; i++ {
			b.Add(wire.Part{ID: fmt.Sprintf("messages[%d]", i), Channel: wire.ChannelMessages, Role: "user", Type: "text",
				Text: fmt.Sprintf("Question %d about file %d.go?", i, i)})
		}
		out = append(out, *r)
	}
	return out
}

// stableTime rewrites every system prompt's time to the first one's.
func stableTime(r *wire.Request) (wire.Request, []string) {
	out := *r
	out.Segments = append([]wire.Segment(nil), r.Segments...)
	for i := range out.Segments {
		s := &out.Segments[i]
		if s.Channel == wire.ChannelSystem {
			s.Text = "The time is 2026-11-29T22:01:00Z.\n" + rules
			s.Hash = wire.HashText(s.Text)
		}
	}
	return out, []string{"rewritten"}
}

func TestReplay(t *testing.T) {
	rp := &Replay{Prices: price.Default(), Scenarios: []Scenario{{Name: "stable", Rewrite: stableTime}}}
	reqs := session(4)
	for i := range reqs {
		row := rp.Add(&reqs[i])
		if len(row.Alt) != 1 {
			t.Fatalf("row %+v", row)
		}
		if i > 0 && (row.As.Break == "" || row.Alt[0].Break != "" || row.Alt[0].Cached <= row.As.Cached) {
			t.Errorf("request %d: as %+v, what-if %+v", i+1, row.As, row.Alt[0])
		}
	}
	as, alts := rp.Totals()
	if as.Requests != 4 || as.Breaks != 3 || alts[0].Breaks != 0 || alts[0].Spend >= as.Spend || alts[0].Priced != 4 {
		t.Errorf("totals %+v %+v", as, alts)
	}
	if n := rp.Notes(0); len(n) != 1 || n[0] != "rewritten" {
		t.Errorf("notes %v", n)
	}
	tab := rp.Table(0)
	if len(tab) != 6 || tab[5][0] != "total" || !strings.HasPrefix(tab[5][8], "$") {
		t.Errorf("table %v", tab)
	}
	j := rp.JSON("o200k_base")
	if len(j.Scenarios) != 1 || j.Scenarios[0].Totals.Saved == nil || *j.Scenarios[0].Totals.Saved <= 0 ||
		j.Scenarios[0].Totals.Reuse <= j.Scenarios[0].Totals.ReuseAsRecorded {
		t.Errorf("json %+v", j.Scenarios)
	}
}

// TestReplayOfNothing: a replay that read no request reports empty totals,
// never an index out of range.
func TestReplayOfNothing(t *testing.T) {
	rp := &Replay{Prices: price.Default(), Scenarios: []Scenario{{Name: "stable", Rewrite: stableTime}}}
	as, alts := rp.Totals()
	if as.Requests != 0 || len(alts) != 1 || alts[0].Requests != 0 {
		t.Errorf("totals %+v %+v", as, alts)
	}
	j := rp.JSON("o200k_base")
	if len(j.Scenarios) != 1 || len(j.Scenarios[0].Requests) != 0 || j.Scenarios[0].Totals.Saved != nil {
		t.Errorf("json %+v", j)
	}
	if tab := rp.Table(0); len(tab) != 2 || tab[1][0] != "total" {
		t.Errorf("table %v", tab)
	}
}
