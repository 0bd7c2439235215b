package ui

import (
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// Finding is one trust-boundary finding as the Findings view shows it. The
// command fills it from the audit (the findings of `check`).
type Finding struct {
	Rule     string
	Severity string // high, medium, low
	Request  int    // 0-based index into the viewer's requests
	Segment  string // segment ID
	Offset   int    // byte offset in the segment's text
	Excerpt  string // hostile text
	Message  string // may quote hostile text
}

// CacheBreak is where a request stopped starting with its predecessor.
type CacheBreak struct {
	Segment  string
	Channel  wire.Channel
	Kind     wire.Kind
	Offset   int
	Before   string // hostile text around the break in the previous request
	After    string // and in this one
	Volatile string // timestamp, uuid, counter, ... or ""
}

// CacheRow is the prompt-cache stability of one request against the one
// before it.
type CacheRow struct {
	Request      int // 0-based index into the viewer's requests (never the first)
	TotalTokens  int
	PrefixTokens int
	PrefixBytes  int
	Break        *CacheBreak // nil when the whole previous request is a prefix
	Predicted    int         // predicted cached tokens
	Recorded     int         // recorded cached tokens, -1 when none
}

// Hunk is one piece of a segment diff.
type Hunk struct {
	Op   string // equal, insert, delete
	Text string // hostile text
	// Words, for a deleted or inserted run that replaces another, is its
	// word diff: equal and changed words whose texts join to Text.
	Words []Hunk
}

// DiffSegment is one aligned segment of a request diff.
type DiffSegment struct {
	ID     string
	Status string // same, changed, added, removed
	Hunks  []Hunk
}

// Diff is a segment-aligned diff of two requests.
type Diff struct {
	FirstSegment string // "" when identical
	FirstOffset  int
	Segments     []DiffSegment
}

// Analysis is how the analyses reach the viewer: each func is called in a
// command (never in Update or View). A nil Cache or Diff is filled from
// DefaultAnalysis; a nil Findings leaves a pane that says the audit is not
// available.
type Analysis struct {
	// Findings audits every request.
	Findings func(reqs []wire.Request) []Finding
	// Cache compares each request with the one before it, in cache order.
	Cache func(reqs []wire.Request) []CacheRow
	// Diff aligns two requests by segment.
	Diff func(a, b *wire.Request) Diff
}

// DefaultAnalysis is the analyses of the build: the audit of `check`, and
// the cache comparison and the segment diff of package diff. The command
// plugs it in; New fills a nil Cache or Diff from it, so the viewer never
// runs an analysis of its own.
func DefaultAnalysis() Analysis {
	return Analysis{Findings: uiAuditFindings, Cache: uiDiffCache, Diff: uiDiffRequests}
}

// uiAuditFindings audits every request.
func uiAuditFindings(reqs []wire.Request) []Finding {
	a := audit.New()
	var out []Finding
	for i := range reqs {
		for _, f := range a.Audit(&reqs[i]) {
			out = append(out, Finding{Rule: f.Rule, Severity: string(f.Severity), Request: i,
				Segment: f.Segment, Offset: f.Offset, Excerpt: f.Excerpt, Message: f.Message})
		}
	}
	return out
}

// uiDiffCache compares each request with the one before it. Each source is
// its own sequence: the first request of a file has no predecessor.
func uiDiffCache(reqs []wire.Request) []CacheRow {
	var out []CacheRow
	for lo := 0; lo < len(reqs); {
		hi := lo + 1
		for hi < len(reqs) && reqs[hi].Source == reqs[lo].Source {
			hi++
		}
		out = append(out, uiCacheRows(reqs[lo:hi], lo)...)
		lo = hi
	}
	return out
}

// uiCacheRows compares each request of one source with the one before it;
// base is the index of the first in the viewer's list.
func uiCacheRows(reqs []wire.Request, base int) []CacheRow {
	steps, _ := diff.Analyze(reqs)
	out := make([]CacheRow, 0, len(steps))
	for k, st := range steps {
		row := CacheRow{Request: base + k + 1, TotalTokens: st.TotalTokens, PrefixTokens: st.PrefixTokens,
			PrefixBytes: st.PrefixBytes, Predicted: st.Prediction.Cached, Recorded: -1}
		if st.Recorded != nil {
			row.Recorded = *st.Recorded
		}
		if b := st.Break; b != nil {
			cause := string(b.Volatile)
			if b.Cause != "" && b.Cause != diff.CauseChanged {
				cause = strings.TrimPrefix(cause+" "+string(b.Cause), " ")
			}
			row.Break = &CacheBreak{Segment: b.Segment, Channel: b.Channel, Kind: b.Kind, Offset: b.Offset,
				Before: b.Before, After: b.After, Volatile: cause}
		}
		out = append(out, row)
	}
	return out
}

// uiDiffRequests aligns two requests by segment with package diff.
func uiDiffRequests(a, b *wire.Request) Diff {
	d := diff.Requests(a, b)
	var out Diff
	if d.First != nil {
		out.FirstSegment, out.FirstOffset = d.First.Segment, d.First.Offset
	}
	for _, s := range d.Segments {
		ds := DiffSegment{ID: s.ID, Status: string(s.Status)}
		for _, h := range s.Hunks {
			uh := Hunk{Op: string(h.Op), Text: h.Text}
			for _, w := range h.Words {
				uh.Words = append(uh.Words, Hunk{Op: string(w.Op), Text: w.Text})
			}
			ds.Hunks = append(ds.Hunks, uh)
		}
		if len(ds.Hunks) == 0 {
			if seg := s.Seg(); seg != nil {
				op := "equal"
				switch s.Status {
				case diff.StatusAdded:
					op = "insert"
				case diff.StatusRemoved:
					op = "delete"
				}
				ds.Hunks = []Hunk{{Op: op, Text: seg.Text}}
			}
		}
		out.Segments = append(out.Segments, ds)
	}
	return out
}
