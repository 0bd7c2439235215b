package classify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
	"github.com/wirelens/wirelens/wire/scan"
)

// madeUpLayout is testdata/layouts/wrenly.json: a made-up agent's rows and
// a request in its layout.
type madeUpLayout struct {
	Framings   []framing.Framing
	SkillLists []framing.SkillList `json:"skill_lists"`
	Envelopes  []framing.Envelope
	Contexts   []framing.ContextBlock `json:"context_blocks"`
	System     string
	User       string
	// Untrusted maps each workspace marker to the label its segment must
	// carry.
	Untrusted map[string]string
}

// withRows adds the layout's rows to the tables for the test's time (and
// the envelope's name to the audit's reserved names, as its row says).
func (l madeUpLayout) withRows(t *testing.T) {
	fr, sl, env, cbs, names := framing.Framings, framing.SkillLists, framing.Envelopes, framing.ContextBlocks, scan.EnvelopeNames
	framing.ContextBlocks = append(slices.Clip(cbs), l.Contexts...)
	framing.Framings = append(slices.Clip(fr), l.Framings...)
	framing.SkillLists = append(slices.Clip(sl), l.SkillLists...)
	framing.Envelopes = append(slices.Clip(env), l.Envelopes...)
	for _, e := range l.Envelopes {
		scan.EnvelopeNames = append(slices.Clip(scan.EnvelopeNames), strings.ToLower(e.Name))
	}
	indexEnvelopes()
	t.Cleanup(func() {
		framing.Framings, framing.SkillLists, framing.Envelopes, framing.ContextBlocks, scan.EnvelopeNames = fr, sl, env, cbs, names
		indexEnvelopes()
	})
}

// TestLayoutAsData: an agent wirelens was not built with is known by
// layout once its rows are given, as data read from a file at run time
// (none of them is compiled into the tables): in its request, the text of
// the workspace (a file under its own opener and closer, in the system
// prompt and in a user message with its lines paired as envelopes, a skill
// in its
// list, a memory file in its own envelope, a file and the branch in its
// context block) is untrusted and labelled, and
// every other byte, its own skill's entry included, is the host's. Without
// the rows the same request is all the host's and the user's: the rows are
// what makes the difference. Each row's own fixture passes the same checks
// as the compiled rows'.
func TestLayoutAsData(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "layouts", "wrenly.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l madeUpLayout
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Framings) == 0 || len(l.SkillLists) == 0 || len(l.Envelopes) == 0 || len(l.Contexts) == 0 || len(l.Untrusted) != 6 {
		t.Fatalf("the layout file lost its rows: %+v", l)
	}
	parts := []wire.Part{
		{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: l.System},
		{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: l.User},
	}
	judge := func() map[string]wire.Segment {
		found := map[string]wire.Segment{}
		for _, p := range parts {
			segs := Classify(p)
			checkInvariants(t, p, segs)
			for _, s := range segs {
				for m := range l.Untrusted {
					if strings.Contains(s.Text, m) {
						found[m] = s
					}
				}
				if s.Trust == wire.Untrusted && !strings.Contains(s.Text, "MARKER") {
					t.Errorf("%s: host text %q is untrusted", s.ID, s.Text)
				}
			}
		}
		return found
	}
	for m, s := range judge() {
		if s.Trust == wire.Untrusted {
			t.Fatalf("without the rows %s is already untrusted (%s): the test shows nothing", m, s.ID)
		}
	}

	l.withRows(t)
	found := judge()
	for m, label := range l.Untrusted {
		s, ok := found[m]
		switch {
		case !ok:
			t.Errorf("%s: in no segment", m)
		case s.Trust != wire.Untrusted || s.Label != label:
			t.Errorf("%s: %s is %s labelled %q, want untrusted labelled %q", m, s.ID, s.Trust, s.Label, label)
		case strings.Contains(s.Text, "==") || strings.Contains(s.Text, "wrenly-init") || strings.Contains(s.Text, "<wrenly_") ||
			strings.Contains(s.Text, "File ") || strings.Contains(s.Text, "Branch:") || strings.Contains(s.Text, ">>>"):
			t.Errorf("%s: %s holds the host's text: %q", m, s.ID, s.Text)
		}
	}
	for _, f := range l.Framings {
		t.Run("framing/"+f.Name, func(t *testing.T) { checkFraming(t, f) })
	}
	for _, sl := range l.SkillLists {
		t.Run("skill-list/"+sl.Name, func(t *testing.T) { checkSkillList(t, sl) })
	}
	for _, e := range l.Envelopes {
		t.Run("envelope/"+e.Name, func(t *testing.T) { checkEnvelope(t, e) })
	}
	for _, cb := range l.Contexts {
		t.Run("context-block/"+cb.Name, func(t *testing.T) { checkContextBlock(t, cb) })
	}
}
