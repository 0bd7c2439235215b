package diff

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/audit"
)

func TestGateGroupsARecurringBreak(t *testing.T) {
	reqs := legacySession(4, "gpt-4.1")
	g := Gate{Limit: Limit{Tokens: 10}}
	var fs []audit.Finding
	for i := range reqs {
		g.Add(&reqs[i], &fs)
	}
	if len(fs) != 1 {
		t.Fatalf("%d findings, want one for the recurring timestamp break", len(fs))
	}
	f := fs[0]
	if f.Rule != audit.RuleUnstablePrefix || f.Severity != audit.SeverityMedium || f.Request != 2 ||
		!strings.Contains(f.Message, "a timestamp changed") || !strings.Contains(f.Message, "again in 2 later requests") ||
		!strings.Contains(f.Segment, "system[0]") || f.Key == "" {
		t.Errorf("finding %+v", f)
	}
	// Over a limit no break reaches, nothing.
	g = Gate{Limit: Limit{Share: 1}}
	fs = nil
	for i := range reqs {
		g.Add(&reqs[i], &fs)
	}
	if len(fs) != 0 {
		t.Errorf("findings under the limit: %+v", fs)
	}
}
