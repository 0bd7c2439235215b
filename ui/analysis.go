package ui

import (
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// Analysis is how the analyses reach the viewer: each func is called in a
// command (never in Update or View). A nil Cache or Diff is filled from
// DefaultAnalysis; a nil Findings leaves a pane that says the audit is not
// available.
type Analysis struct {
	// Findings audits every request: the findings of reqs[i] at index i.
	Findings func(reqs []wire.Request) [][]audit.Finding
	// Cache compares each request with an earlier one (by default the last
	// earlier request of its model and provider, as `cache` does), in cache
	// order: the step of reqs[i] at index i, nil for a request with no
	// predecessor.
	Cache func(reqs []wire.Request) []*diff.Step
	// Diff aligns two requests by segment.
	Diff func(a, b *wire.Request) *diff.RequestDiff
}

// DefaultAnalysis is the analyses of the build: the audit of `check`, and
// the cache comparison and the segment diff of package diff. The command
// plugs it in; New fills a nil Cache or Diff from it, so the viewer never
// runs an analysis of its own.
func DefaultAnalysis() Analysis {
	return Analysis{Findings: auditRequests, Cache: compareRequests, Diff: diff.Requests}
}

// auditRequests audits every request with one auditor, so a text repeated
// by later requests is scanned once.
func auditRequests(reqs []wire.Request) [][]audit.Finding {
	a := audit.New()
	out := make([][]audit.Finding, len(reqs))
	for i := range reqs {
		out[i] = a.Audit(&reqs[i])
	}
	return out
}

// compareRequests compares each request with the last earlier request of
// its model and provider (the request just before it for the first of its
// model), as `cache` does by default: every request given is one sequence,
// whatever file it came from, as in `cache A B`.
func compareRequests(reqs []wire.Request) []*diff.Step { return diff.Steps(reqs, false) }

// CompareBySource is Analysis.Cache for requests of several sources that
// are apart (`view --separate`, the demo's two layouts): each source is its
// own sequence, compared as compareRequests does, so the first request of a
// source has no predecessor.
func CompareBySource(reqs []wire.Request) []*diff.Step { return diff.Steps(reqs, true) }

// stepAt is steps[i], nil when i is out of range (the analysis ran before
// request i arrived).
func stepAt(steps []*diff.Step, i int) *diff.Step {
	if i < 0 || i >= len(steps) {
		return nil
	}
	return steps[i]
}

// breakCause names what a cache break falls in: the changing value, and the
// cause when it is more than a change of text ("timestamp", "added",
// "model").
func breakCause(b *diff.Break) string {
	cause := string(b.Volatile)
	if b.Cause != "" && b.Cause != diff.CauseChanged {
		cause = strings.TrimPrefix(cause+" "+string(b.Cause), " ")
	}
	return cause
}
