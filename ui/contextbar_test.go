package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
)

func barEntry(segs ...wire.Segment) entry {
	hm := newHazardMemo()
	for i := range segs {
		segs[i].Hash = wire.HashText(segs[i].Text)
	}
	return hm.measure(wire.Request{Model: "claude-sonnet-4-5", Format: wire.FormatAnthropic, Segments: segs})
}

func TestContextBar(t *testing.T) {
	st := themes.New(themes.Mono)
	long := strings.Repeat("Follow the rules of the host and keep edits small. ", 40)
	e := barEntry(
		wire.Segment{ID: "tools[0]", Channel: wire.ChannelTools, Kind: wire.KindToolSchema, Trust: wire.Trusted, Text: long},
		wire.Segment{ID: "system[0]", Channel: wire.ChannelSystem, Kind: wire.KindHostRules, Trust: wire.Trusted, Text: long},
		wire.Segment{ID: "messages[0]", Channel: wire.ChannelMessages, Kind: wire.KindUserInput, Trust: wire.TrustUser, Text: "hi"},
	)
	bar := ansi.Strip(widget.ContextBar(st, groupTokens(&e), e.tokens, 20))
	if ansi.StringWidth(bar) != 20 {
		t.Fatalf("bar %q is %d cells, want 20", bar, ansi.StringWidth(bar))
	}
	// Tools and host rules share the bar about evenly; the user's tiny
	// message still shows.
	if strings.Count(bar, "T") < 8 || strings.Count(bar, "H") < 8 || strings.Count(bar, "U") != 1 || !strings.HasPrefix(bar, "H") {
		t.Errorf("bar %q", bar)
	}
	// Against a session twice as long, the bar is half as long.
	half := ansi.Strip(widget.ContextBar(st, groupTokens(&e), 2*e.tokens, 20))
	if n := len(strings.TrimRight(half, " ")); n < 9 || n > 11 || ansi.StringWidth(half) != 20 {
		t.Errorf("half bar %q", half)
	}
	if got := widget.ContextBar(st, groupTokens(&e), 0, 5); got != "     " {
		t.Errorf("empty session: %q", got)
	}
}

func TestBreakMoney(t *testing.T) {
	e := barEntry(wire.Segment{ID: "system[0]", Channel: wire.ChannelSystem, Kind: wire.KindHostRules, Trust: wire.Trusted, Text: "rules"})
	st := &diff.Step{TotalTokens: 1000, Reprocessed: 500, Break: &diff.Break{Segment: "system[0]"}, Rule: diff.RuleFor(wire.FormatAnthropic, "claude-sonnet-4-5")}
	got := breakMoney(&e.req, st)
	if !strings.HasPrefix(got, "break cost $0.0014 (predicted, 500 tok) · request $") {
		t.Errorf("breakMoney = %q", got)
	}
	e.req.Model = "my-local-llama"
	if got := breakMoney(&e.req, st); got != "no price for this model" {
		t.Errorf("unpriced: %q", got)
	}
	if breakMoney(&e.req, nil) != "" {
		t.Error("no step, no money")
	}
}

func TestSessionBreakMoney(t *testing.T) {
	e := barEntry(wire.Segment{ID: "system[0]", Channel: wire.ChannelSystem, Kind: wire.KindHostRules, Trust: wire.Trusted, Text: "rules"})
	rule := diff.RuleFor(wire.FormatAnthropic, "claude-sonnet-4-5")
	steps := []*diff.Step{nil,
		{TotalTokens: 1000, Reprocessed: 500, Break: &diff.Break{Segment: "system[0]"}, Rule: rule},
		{TotalTokens: 1000, Reprocessed: 500, Break: &diff.Break{Segment: "system[0]"}, Rule: rule}}
	got := sessionBreakMoney([]entry{e, e, e}, steps)
	if got != "breaks cost $0.0027 (predicted)" {
		t.Errorf("sessionBreakMoney = %q", got)
	}
	e.req.Model = "my-local-llama"
	if got := sessionBreakMoney([]entry{e, e, e}, steps); got != "" {
		t.Errorf("unpriced: %q", got)
	}
}
