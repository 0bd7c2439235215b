package framing

import (
	"slices"
	"strings"
	"testing"
)

// TestRowsSayWhoWritesThem: every row names the agents that write it and
// carries its fixture, under a name no other row of its table has (the
// fixtures themselves are run by wire/classify's tests, which read them).
func TestRowsSayWhoWritesThem(t *testing.T) {
	type row struct{ table, name, agents, fixture, marker string }
	var rows []row
	for _, f := range Framings {
		rows = append(rows, row{"Framings", f.Name, f.Agents, f.Fixture, "WL-FRAMED-BODY"})
	}
	for _, l := range SkillLists {
		rows = append(rows, row{"SkillLists", l.Name, l.Agents, l.Fixture, "WL-SKILL"})
		if !strings.Contains(l.Fixture, l.Intro) {
			t.Errorf("SkillLists %s: the fixture lacks the intro %q", l.Name, l.Intro)
		}
	}
	for _, e := range Envelopes {
		rows = append(rows, row{"Envelopes", e.Name, e.Agents, e.Fixture, "WL-ENVELOPE-BODY"})
		if !strings.Contains(e.Fixture, "<"+e.Name) || !strings.Contains(e.Fixture, "</"+e.Name+">") {
			t.Errorf("Envelopes %s: the fixture lacks the tags", e.Name)
		}
	}
	for _, cb := range ContextBlocks {
		rows = append(rows, row{"ContextBlocks", cb.Name, cb.Agents, cb.Fixture, "WL-FRAMED-BODY"})
		if !slices.ContainsFunc(Envelopes, func(e Envelope) bool { return e.Name == cb.Envelope }) {
			t.Errorf("ContextBlocks %s: no envelope %q", cb.Name, cb.Envelope)
		}
	}
	for _, sc := range SessionContexts {
		rows = append(rows, row{"SessionContexts", sc.Name, sc.Agents, sc.Fixture, "WL-TREE"})
		if !strings.Contains(sc.Fixture, sc.Head) {
			t.Errorf("SessionContexts %s: the fixture lacks the heading", sc.Name)
		}
	}
	for _, r := range FencedFilesRows {
		rows = append(rows, row{"FencedFilesRows", r.Name, r.Agents, r.Fixture, "WL-FRAMED-BODY"})
		if r.Fence < 3 || !strings.Contains(r.Fixture, r.FromPrefix) || len(r.Names) == 0 {
			t.Errorf("FencedFilesRows %s: a fence, a provenance line in the fixture and names wanted", r.Name)
		}
	}
	for _, l := range SkillListings {
		rows = append(rows, row{"SkillListings", l.Name, l.Agents, l.Fixture, "WL-SKILL"})
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if r.name == "" || seen[r.table+"/"+r.name] {
			t.Errorf("%s: a row named %q twice or not at all", r.table, r.name)
		}
		seen[r.table+"/"+r.name] = true
		if strings.TrimSpace(r.agents) == "" {
			t.Errorf("%s %s: no agent named", r.table, r.name)
		}
		if !strings.Contains(r.fixture, r.marker) {
			t.Errorf("%s %s: the fixture lacks %s", r.table, r.name, r.marker)
		}
	}
	for _, r := range SkillLocations {
		if r.Agents == "" || r.Origin == "" || r.Prefix == "" && len(r.Contains) == 0 {
			t.Errorf("SkillLocations row %+v: a rule, its origin and agents wanted", r)
		}
	}
	for _, h := range HostHeadings {
		if !strings.HasPrefix(h.Heading, "# ") || h.Agents == "" {
			t.Errorf("HostHeadings row %+v: a heading and its agents wanted", h)
		}
	}
	for _, w := range LocationWords {
		if len(w.Words) == 0 || w.Agents == "" || w.Origin == "" {
			t.Errorf("LocationWords row %+v: words, origin and agents wanted", w)
		}
	}
}

// TestOriginTrust: only the agent's own and the machine's skills are the
// host's; HOME's are the user's; the workspace's and unknown ones untrusted.
func TestOriginTrust(t *testing.T) {
	for o, want := range map[Origin]string{Builtin: "trusted", Admin: "trusted", User: "user", Workspace: "untrusted", Unknown: "untrusted", "": "untrusted"} {
		if got := string(o.Trust()); got != want {
			t.Errorf("%q: %s, want %s", o, got, want)
		}
	}
}
