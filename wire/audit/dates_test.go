package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestAuditVolatileDateShapes: `check` reports the present date in the
// trusted prefix whatever its shape: Claude Code's <env> block with
// "Today's date: 5/22/2025" as the real classifier cuts it (the issue:
// its time segment was quiet while "2025-06-10" was flagged), and each
// date of the Intl fixture in Gemini CLI's sentence.
func TestAuditVolatileDateShapes(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "dates")
	env, err := os.ReadFile(filepath.Join(dir, "claude_code_env_block.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, date := range []string{"5/22/2025", "2025-05-22"} {
		text := strings.Replace(string(env), "5/22/2025", date, 1)
		r := testBuild(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: text})
		fs := withRule(Audit(r), RuleVolatileInPrefix)
		if len(fs) != 1 || !strings.Contains(fs[0].Message, "a date ("+date+")") {
			t.Errorf("<env> with %s: want one date finding, got %+v (segments %v)", date, fs, segIDs(r))
			continue
		}
		for _, s := range r.Segments {
			if s.ID == fs[0].Segment && (s.Kind != wire.KindTime || !strings.HasPrefix(s.Text[fs[0].Offset:], date)) {
				t.Errorf("<env> with %s: finding on %s (%s) at %q", date, s.ID, s.Kind, s.Text[fs[0].Offset:])
			}
		}
	}

	b, err := os.ReadFile(filepath.Join(dir, "intl_dates.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("bad row %q", line)
		}
		rows++
		const lead = "Today's date is "
		seg := testSeg("system[0]/time", wire.ChannelSystem, "system", wire.KindTime, wire.Trusted, "",
			lead+f[2]+" (formatted according to the user's locale).")
		fs := withRule(Audit(testReq(seg)), RuleVolatileInPrefix)
		kind := "date"
		if f[1] == "datetime" {
			kind = "timestamp"
		}
		if len(fs) != 1 || fs[0].Offset != len(lead)+strings.Index(f[2], f[3]) || !strings.Contains(fs[0].Message, "a "+kind+" ("+f[3]+")") {
			t.Errorf("%s %s %q: want one finding on %q, got %+v", f[0], f[1], f[2], f[3], fs)
		}
	}
	if rows < 30 {
		t.Errorf("only %d Intl dates read", rows)
	}
}
