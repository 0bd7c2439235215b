package report

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
)

// TestRedactedDiffMasksAKeySplitAcrossHunks: a private key block whose
// first line did not change lies across an equal hunk and a changed one;
// masked hunk by hunk, the changed hunk would show the key's body. The diff
// of a redacted report masks each side whole first.
func TestRedactedDiffMasksAKeySplitAcrossHunks(t *testing.T) {
	body := func(c string) string { return strings.Repeat(c, 64) }
	key := func(c string) string {
		return "-----BEGIN RSA PRIVATE KEY-----\n" + body(c) + "\n" + body(c) + "\n-----END RSA PRIVATE KEY-----\n"
	}
	a := &wire.Segment{ID: "s", Text: "notes\n" + key("A")}
	b := &wire.Segment{ID: "s", Text: "notes\n" + key("B")}
	sd := &diff.SegmentDiff{A: a, B: b, Status: diff.StatusChanged, Hunks: diff.TextDiff(a.Text, b.Text)}
	shown := func(r *Report) string {
		var out strings.Builder
		for _, l := range r.segmentDiff(sd).lines {
			out.WriteString(l.text + "\n")
		}
		return out.String()
	}
	if plain := shown(&Report{}); !strings.Contains(plain, body("B")) {
		t.Fatalf("without --redact the changed key body is not shown:\n%s", plain)
	}
	masked := shown(&Report{redact: true})
	for _, c := range []string{"A", "B"} {
		if strings.Contains(masked, body(c)) {
			t.Errorf("--redact shows a key body:\n%s", masked)
		}
	}
}
