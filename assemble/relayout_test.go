package assemble

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
)

// legacyAt binds the poisoned workspace in the legacy layout at minute m.
func legacyAt(t *testing.T, m int, history []Turn) wire.Request {
	t.Helper()
	b := collectDir(t, filepath.Join("..", "testdata", "workspaces", "poisoned"), time.Date(2026, 11, 29, 22, m, 0, 0, time.UTC))
	res, err := Bind(b, Config{Layout: LayoutLegacy, API: wire.FormatAnthropic, Model: "claude-sonnet-4-5", History: history})
	if err != nil {
		t.Fatal(err)
	}
	return res.Request
}

func TestRewriteIsolateMovesWorkspaceAndTime(t *testing.T) {
	r := legacyAt(t, 1, nil)
	var w Rewrite
	w.Isolate = true
	got, notes := w.Apply(&r)
	if len(notes) != 0 {
		t.Fatalf("notes %v", notes)
	}
	if len(r.Segments) == 0 || r.Segments[0].Text == "" {
		t.Fatal("the recorded request was changed")
	}
	var sysKinds, untrusted []wire.Kind
	timeAt, workAt, userAt := -1, -1, -1
	for i, s := range got.Segments {
		switch {
		case s.Channel == wire.ChannelSystem:
			sysKinds = append(sysKinds, s.Kind)
		case s.Kind == wire.KindTime && timeAt < 0:
			timeAt = i
		case s.Trust == wire.Untrusted:
			untrusted = append(untrusted, s.Kind)
			if workAt < 0 {
				workAt = i
			}
		case s.Kind == wire.KindUserInput && userAt < 0:
			userAt = i
		}
		if s.Hash != wire.HashText(s.Text) {
			t.Errorf("%s: stale hash", s.ID)
		}
	}
	for _, k := range sysKinds {
		if k.WorkspaceDerived() || k == wire.KindTime {
			t.Errorf("%s still in the system channel: %v", k, sysKinds)
		}
	}
	if !(workAt >= 0 && timeAt > workAt && userAt > timeAt) {
		t.Errorf("order: workspace at %d, time at %d, user at %d; want workspace, time, then the conversation", workAt, timeAt, userAt)
	}
	if !containsKind(untrusted, wire.KindAgentsMD) || !containsKind(untrusted, wire.KindCwdListing) {
		t.Errorf("the workspace fragments are not untrusted envelopes: %v", untrusted)
	}
	bps := 0
	for i, s := range got.Segments {
		if got.Breakpoint(i) && s.Channel == wire.ChannelMessages && s.Trust == wire.Untrusted {
			bps++
		}
		if s.Envelope == "untrusted_agents_md" && strings.Contains(s.Text, "</untrusted_agents_md>") {
			t.Errorf("the envelope body was not escaped: %q", s.Text)
		}
	}
	// Two requests a minute apart now share tools, system and workspace.
	r2 := legacyAt(t, 2, nil)
	got2, _ := w.Apply(&r2)
	shared := 0
	for shared < len(got.Segments) && got.Segments[shared].Hash == got2.Segments[shared].Hash {
		shared++
	}
	if shared <= workAt || got2.Segments[shared].Kind != wire.KindTime {
		t.Errorf("the re-laid out requests share %d segments, breaking at %s; want up to the time", shared, got2.Segments[shared].ID)
	}
}

func containsKind(ks []wire.Kind, k wire.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func TestRewriteFreezeTime(t *testing.T) {
	var w Rewrite
	w.FreezeTime = true
	r1, r2 := legacyAt(t, 1, nil), legacyAt(t, 7, nil)
	a, _ := w.Apply(&r1)
	b, notes := w.Apply(&r2)
	if len(notes) != 0 || len(a.Segments) != len(b.Segments) {
		t.Fatalf("notes %v", notes)
	}
	for i := range a.Segments {
		if a.Segments[i].Text != b.Segments[i].Text {
			t.Errorf("%s differs after freezing the time", a.Segments[i].ID)
		}
	}
	// A change that is not the clock's stays.
	r3 := legacyAt(t, 9, []Turn{{Role: "user", Text: "earlier question"}})
	c, _ := w.Apply(&r3)
	if len(c.Segments) == len(a.Segments) {
		t.Error("the new turn was lost")
	}
	if !sameButClock("at 2026-11-29T22:01:00Z we met", "at 2026-11-30T09:15:00Z we met") ||
		sameButClock("at 2026-11-29T22:01:00Z we met", "at 2026-11-30T09:15:00Z we left") || sameButClock("a", "b") {
		t.Error("sameButClock")
	}
}

func TestRewriteSortToolsAndNothingToMove(t *testing.T) {
	r := wire.Request{Segments: []wire.Segment{
		{ID: "tools[0]", Channel: wire.ChannelTools, Kind: wire.KindToolSchema, Label: "zeta", Text: "z"},
		{ID: "tools[1]", Channel: wire.ChannelTools, Kind: wire.KindToolSchema, Label: "alpha", Text: "a"},
		{ID: "system[0]", Channel: wire.ChannelSystem, Kind: wire.KindHostRules, Text: "rules"},
	}}
	w := Rewrite{SortTools: true, Isolate: true}
	got, notes := w.Apply(&r)
	if got.Segments[0].Label != "alpha" || got.Segments[1].Label != "zeta" || r.Segments[0].Label != "zeta" {
		t.Errorf("sorted %v", got.Segments)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "nothing to move") {
		t.Errorf("notes %v", notes)
	}
}
