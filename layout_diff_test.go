package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
)

// bindPoisoned binds the poisoned workspace in a layout at a fixed time.
func bindPoisoned(t *testing.T, layout assemble.Layout, now time.Time) wire.Request {
	t.Helper()
	in, closeIn, err := assemble.OpenInput("testdata/workspaces/poisoned", nil, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIn()
	bl, err := assemble.Collect(in)
	if err != nil {
		t.Fatal(err)
	}
	res, err := assemble.Bind(bl, assemble.Config{Layout: layout})
	if err != nil {
		t.Fatal(err)
	}
	return res.Request
}

// TestSegdiffLegacyAgainstIsolated diffs the legacy build of a workspace
// against its isolated build: the system prompts diverge first, every
// workspace section is paired with its isolated fragment (moved from system
// to messages), the legacy host-rule sections around them are removed, and
// the user's message is the same.
func TestSegdiffLegacyAgainstIsolated(t *testing.T) {
	now := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	legacy := bindPoisoned(t, assemble.LayoutLegacy, now)
	isolated := bindPoisoned(t, assemble.LayoutIsolated, now)
	d := diff.Requests(&legacy, &isolated)
	if d.Identical() {
		t.Fatal("legacy and isolated builds are identical")
	}
	if d.First == nil || d.First.Channel != wire.ChannelSystem || d.First.Status != diff.StatusChanged {
		t.Fatalf("first divergence %+v, want a change in system", d.First)
	}
	// The offset is where the two system prompts' texts first differ.
	sysA, sysB := legacy.CacheOrder()[0].Text, isolated.CacheOrder()[0].Text
	want := 0
	for want < len(sysA) && want < len(sysB) && sysA[want] == sysB[want] {
		want++
	}
	if d.First.Offset != want {
		t.Errorf("first divergence at byte %d, want %d", d.First.Offset, want)
	}
	moved := map[wire.Kind]bool{}
	seenRank := 0
	for _, sd := range d.Segments {
		s := sd.Seg()
		if r := s.Channel.CacheRank(); r < seenRank {
			t.Errorf("%s (%s) listed after a later channel", sd.ID, s.Channel)
		} else {
			seenRank = r
		}
		if sd.A != nil && sd.B != nil && sd.A.Channel == wire.ChannelSystem && sd.B.Channel == wire.ChannelMessages {
			if !sd.Moved || sd.Status != diff.StatusChanged || sd.A.Kind != sd.B.Kind {
				t.Errorf("%s from %s: moved %v status %s kinds %s/%s", sd.ID, sd.FromID, sd.Moved, sd.Status, sd.A.Kind, sd.B.Kind)
			}
			moved[sd.A.Kind] = true
			if sd.A.Kind.WorkspaceDerived() && !strings.HasPrefix(sd.B.Envelope, "untrusted_") {
				t.Errorf("%s: isolated %s sits in envelope %q", sd.ID, sd.B.Kind, sd.B.Envelope)
			}
		}
		if sd.A != nil && sd.A.Kind == wire.KindUserInput && sd.Status != diff.StatusSame {
			t.Errorf("the user's message should be the same, got %s", sd.Status)
		}
	}
	for _, k := range []wire.Kind{wire.KindTime, wire.KindAgentsMD, wire.KindCwdListing} {
		if !moved[k] {
			t.Errorf("the legacy %s section was not paired with its isolated fragment (moved: %v)", k, moved)
		}
	}
	if c := d.Counts(); c[diff.StatusRemoved] == 0 || c[diff.StatusAdded] == 0 {
		t.Errorf("counts %v: legacy-only host sections and isolated-only preambles expected", c)
	}
	// The cache view of the same pair: the isolated system prompt shares
	// only its first bytes with the legacy one.
	st := diff.Compare(&legacy, &isolated)
	if st.Break == nil || st.Break.Channel != wire.ChannelSystem || st.PrefixBytes != want {
		t.Errorf("cache break %+v at %d bytes, want system at %d", st.Break, st.PrefixBytes, want)
	}
}
