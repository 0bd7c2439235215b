// Package report writes the before/after report of two recordings for a pull
// request, as GitHub-flavoured Markdown within a comment's size limit or as
// one self-contained HTML file: the trust map of the first request (which
// workspace bytes left the system channel), the findings introduced and
// fixed, prompt-cache stability and money per session, the token breakdown
// by category, and a segment-aligned diff of the first request.
//
// Every byte of payload text is shown through scan.Visible (hazards as
// [U+202E], ␛ and the like) and then escaped for the format; with Redact set,
// every secret that secret-in-context finds is masked first.
package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/breakdown"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/redact"
)

// Side is one of the two recordings: its name and its requests in order.
type Side struct {
	Name     string
	Requests []wire.Request
}

// Options set what the report shows.
type Options struct {
	// Prices prices the sessions (nil: price.Default()).
	Prices *price.Table
	// Redact masks every secret in the payload text the report shows.
	Redact bool
}

// Report is what the two recordings come to.
type Report struct {
	Before, After string
	Sides         [2]SideFacts
	// Trust is the first requests' bytes and tokens by channel and trust.
	Trust []TrustRow
	// SystemWorkspace lists the workspace-derived segments in the system
	// channel of each side's first request.
	SystemWorkspace [2][]SegmentFact
	// Introduced are the findings of After that Before does not have;
	// Fixed those of Before that After does not have; Unchanged counts the
	// rest.
	Introduced, Fixed []audit.Finding
	Unchanged         int
	// Breakdown is the first requests' tokens by group.
	Breakdown []GroupRow
	// Diff is the segment-aligned diff of the first requests (nil when a
	// side has none).
	Diff     *diff.RequestDiff
	Currency string
	redact   bool
}

// SideFacts are one recording's totals.
type SideFacts struct {
	Requests int
	Models   []string
	Cache    diff.Summary
	Money    diff.LedgerTotals
	Findings map[audit.Severity]int
}

// TrustRow is the bytes and tokens of one channel and trust on each side.
type TrustRow struct {
	Channel wire.Channel
	Trust   wire.Trust
	Bytes   [2]int
	Tokens  [2]int
}

// SegmentFact is a segment named for the report.
type SegmentFact struct {
	ID, Kind, Label string
	Trust           wire.Trust
	Bytes, Tokens   int
}

// GroupRow is the tokens of one breakdown group on each side.
type GroupRow struct {
	Group  breakdown.Group
	Tokens [2]int
	Bytes  [2]int
}

// Build compares the two recordings.
func Build(before, after Side, opt Options) *Report {
	tab := opt.Prices
	if tab == nil {
		tab = price.Default()
	}
	r := &Report{Before: before.Name, After: after.Name, Currency: tab.Currency, redact: opt.Redact}
	var findings [2][]audit.Finding
	for k, side := range []Side{before, after} {
		f := &r.Sides[k]
		f.Requests = len(side.Requests)
		f.Findings = map[audit.Severity]int{}
		seq := diff.Sequence{}
		ledger := diff.Ledger{Prices: tab}
		aud := audit.New()
		seen := map[string]bool{}
		for i := range side.Requests {
			req := &side.Requests[i]
			if !slices.Contains(f.Models, req.Model) {
				f.Models = append(f.Models, req.Model)
			}
			st := seq.Add(req)
			ledger.Add(req, st)
			for _, fd := range aud.Audit(req) {
				// A finding a later request repeats (the same segment
				// carried on) counts once.
				if id := fd.Key + "\x00" + fd.Segment; !seen[id] {
					seen[id] = true
					findings[k] = append(findings[k], fd)
				}
			}
		}
		f.Cache = seq.Summary()
		f.Money = ledger.Totals()
		for _, fd := range findings[k] {
			f.Findings[fd.Severity]++
		}
	}
	r.Introduced, r.Unchanged = unmatched(findings[1], findings[0])
	r.Fixed, _ = unmatched(findings[0], findings[1])

	var first [2]*wire.Request
	if len(before.Requests) > 0 {
		first[0] = &before.Requests[0]
	}
	if len(after.Requests) > 0 {
		first[1] = &after.Requests[0]
	}
	r.trustMap(first)
	r.breakdown(first)
	if first[0] != nil && first[1] != nil {
		r.Diff = diff.Requests(first[0], first[1])
	}
	return r
}

// unmatched returns the findings of fs that no finding of others matches by
// Key (each match used once), and how many were matched.
func unmatched(fs, others []audit.Finding) ([]audit.Finding, int) {
	count := map[string]int{}
	for _, o := range others {
		count[o.Key]++
	}
	var rest []audit.Finding
	matched := 0
	for _, f := range fs {
		if count[f.Key] > 0 {
			count[f.Key]--
			matched++
			continue
		}
		rest = append(rest, f)
	}
	return rest, matched
}

// trustMap fills Trust and SystemWorkspace from the first requests.
func (r *Report) trustMap(first [2]*wire.Request) {
	rows := map[[2]string]*TrustRow{}
	var order [][2]string
	for k, req := range first {
		if req == nil {
			continue
		}
		for i := range req.Segments {
			s := &req.Segments[i]
			key := [2]string{string(s.Channel), string(s.Trust)}
			row, ok := rows[key]
			if !ok {
				row = &TrustRow{Channel: s.Channel, Trust: s.Trust}
				rows[key] = row
				order = append(order, key)
			}
			row.Bytes[k] += len(s.Text)
			row.Tokens[k] += s.Tokens()
			if s.Channel == wire.ChannelSystem && (s.Trust == wire.Untrusted || s.Kind.WorkspaceDerived()) {
				r.SystemWorkspace[k] = append(r.SystemWorkspace[k], SegmentFact{ID: s.ID, Kind: string(s.Kind),
					Label: s.Label, Trust: s.Trust, Bytes: len(s.Text), Tokens: s.Tokens()})
			}
		}
	}
	rank := func(c wire.Channel) int {
		switch c {
		case wire.ChannelTools:
			return 0
		case wire.ChannelSystem:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(order, func(a, b [2]string) int {
		return rank(wire.Channel(a[0])) - rank(wire.Channel(b[0]))
	})
	for _, k := range order {
		r.Trust = append(r.Trust, *rows[k])
	}
}

// breakdown fills Breakdown from the first requests.
func (r *Report) breakdown(first [2]*wire.Request) {
	rows := map[breakdown.Group]*GroupRow{}
	for k, req := range first {
		if req == nil {
			continue
		}
		for _, t := range breakdown.Of(req).Totals() {
			row, ok := rows[t.Group]
			if !ok {
				row = &GroupRow{Group: t.Group}
				rows[t.Group] = row
			}
			row.Tokens[k] += t.Tokens
			row.Bytes[k] += t.Bytes
		}
	}
	for _, g := range breakdown.Groups {
		if row, ok := rows[g]; ok {
			r.Breakdown = append(r.Breakdown, *row)
		}
	}
}

// WorkspaceSystemBytes is the bytes of workspace text in the system channel
// of side k's first request.
func (r *Report) WorkspaceSystemBytes(k int) int {
	n := 0
	for _, s := range r.SystemWorkspace[k] {
		n += s.Bytes
	}
	return n
}

// payload prepares payload text for showing: secrets masked when the report
// redacts.
func (r *Report) payload(s string) string {
	if r.redact {
		return redact.Share(s)
	}
	return s
}

// signed writes a delta with its sign.
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + wire.GroupDigits(n)
	case n < 0:
		return "−" + wire.GroupDigits(-n)
	}
	return "0"
}

// money writes an amount of the table's currency.
func (r *Report) money(v float64) string {
	if r.Currency == "" || r.Currency == "USD" {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("%.4f %s", v, r.Currency)
}

// percent writes a ratio as a percentage.
func percent(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// models lists a side's models.
func models(m []string) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(m, ", ")
}
