package classify

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// TestSkillLists runs each row's fixture: the workspace skill's entry (the
// line holding WL-SKILL) is one untrusted skills-listing segment labelled
// with its name; every other byte, the host's own skill included, is
// trusted, and the segments join to the text.
func TestSkillLists(t *testing.T) {
	for _, l := range framing.SkillLists {
		t.Run(l.Name, func(t *testing.T) {
			checkSkillList(t, l)
		})
	}
}

func checkSkillList(t *testing.T, l framing.SkillList) {
	t.Helper()
	p := wire.Part{ID: "p", Channel: l.Channel, Role: l.Role, Type: "text", Text: l.Fixture}
	segs := Classify(p)
	checkInvariants(t, p, segs)
	found := 0
	for _, s := range segs {
		if strings.Contains(s.Text, "WL-SKILL") {
			found++
			if s.Trust != wire.Untrusted || s.Kind != wire.KindSkillsListing || !strings.HasPrefix(s.Label, "skill wl-deploy (") {
				t.Errorf("%s: the workspace entry is %s %s %q", s.ID, s.Trust, s.Kind, s.Label)
			}
			if strings.Count(strings.TrimRight(s.Text, "\n"), "\n") != 0 {
				t.Errorf("%s: the entry's segment holds more than its line: %q", s.ID, s.Text)
			}
			continue
		}
		if s.Trust != wire.Trusted {
			t.Errorf("%s: host text %q is %s", s.ID, s.Text, s.Trust)
		}
	}
	if found != 1 {
		t.Errorf("%d segments hold the workspace entry: %+v", found, segs)
	}
}

// TestSkillListEdges: a description's later lines stay with a workspace
// entry; a host skill's stay the host's; a list row that writes locations
// gives an entry without one no trust; a blank line ends a list without
// Until, and the text after it is the host's.
func TestSkillListEdges(t *testing.T) {
	claude := &framing.SkillLists[0]
	text := claude.Intro + "\n\n- evil: one\ntwo\n- dataviz: a\nb\n\nHOST\n"
	pcs := skillListPieces(claude, text, 0, len(text), wire.KindHostRules, "", "")
	if len(pcs) != 3 || text[pcs[1].start:pcs[1].end] != "- evil: one\ntwo\n" || pcs[1].trust != wire.Untrusted ||
		pcs[2].trust != wire.Trusted || !strings.HasPrefix(text[pcs[2].start:], "- dataviz") {
		t.Errorf("pieces %+v", pcs)
	}
	codex := &framing.SkillLists[1]
	text = "### Available skills\n- odd: no location\n- ok: x (file: /home/u/.codex/skills/.system/ok/SKILL.md)\n### How to use skills\n"
	pcs = skillListPieces(codex, text, 0, len(text), wire.KindHostRules, "skills_instructions", "")
	if len(pcs) != 4 || pcs[1].trust != wire.Untrusted || pcs[1].label != "skill odd (unknown)" || pcs[2].trust != wire.Trusted || pcs[2].label != "skill ok (built-in)" {
		t.Errorf("pieces %+v", pcs)
	}
	// No entry after the intro: nothing to cut.
	text = claude.Intro + "\nNot a list.\n- evil: x\n"
	if pcs := skillListPieces(claude, text, 0, len(text), wire.KindHostRules, "", ""); pcs != nil {
		t.Errorf("a list after prose was cut: %+v", pcs)
	}
}

// TestSkillListInSystemText: a list of a row read in host text is cut by
// its row in a system prompt too, beside the framings' blocks: a section
// the legacy scanner found in it (after a skills sentence) gives way, so the
// host's own skill stays trusted.
func TestSkillListInSystemText(t *testing.T) {
	claude := &framing.SkillLists[0]
	text := "Host rules.\nInstructions from: /w/AGENTS.md\nobey\n\n" + claude.Intro + "\n\n- evil: x\n- dataviz: y\n\nHost again.\n"
	p := wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text}
	segs := Classify(p)
	checkInvariants(t, p, segs)
	want := map[string]wire.Trust{"obey\n": wire.Untrusted, "- evil: x\n": wire.Untrusted}
	for _, s := range segs {
		if tr, ok := want[s.Text]; ok {
			if s.Trust != tr {
				t.Errorf("%q is %s", s.Text, s.Trust)
			}
			delete(want, s.Text)
		} else if s.Trust != wire.Trusted {
			t.Errorf("%s: host text %q is %s", s.ID, s.Text, s.Trust)
		}
	}
	if len(want) > 0 {
		t.Errorf("no segment of its own for %v: %+v", want, segs)
	}
}
