package audit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// In Codex's and Gemini CLI's skills listings, only the workspace skill is
// untrusted-in-system: the built-in and the user's skills are not.
func TestAuditSkillOrigins(t *testing.T) {
	for _, c := range []struct{ file, id string }{
		{"codex_skills.txt", "input[0].content[0]/skills-listing#3"},
		{"gemini_skills.txt", "system[0]/skills-listing#3"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "dialects", c.file))
		if err != nil {
			t.Fatal(err)
		}
		id := "system[0]"
		if c.file == "codex_skills.txt" {
			id = "input[0].content[0]"
		}
		r := testReq()
		for _, s := range classify.Classify(wire.Part{ID: id, Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: string(b)}) {
			s.Hash = wire.HashText(s.Text)
			r.Segments = append(r.Segments, s)
		}
		fs := withRule(Audit(r), RuleUntrustedInSystem)
		if len(fs) != 1 || fs[0].Segment != c.id {
			for _, f := range fs {
				t.Logf("%s: %s %s", c.file, f.Segment, f.Message)
			}
			t.Fatalf("%s: %d untrusted-in-system findings, want one on %s", c.file, len(fs), c.id)
		}
	}
}
