package diff

import (
	"fmt"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// Gate is the cache rule of check --cache (audit.RuleUnstablePrefix): it
// compares requests as they come, as a Sequence does, and reports each
// break that made the provider process again, past Limit, a prefix
// unchanged in meaning (see Unstable). A break that recurs (the same
// segment, kind, label and reason) is one finding at its first request,
// whose message counts the later ones.
type Gate struct {
	Limit Limit
	seq   Sequence
	at    map[string]*gateHit
}

// gateHit is a finding reported and how often its break recurred.
type gateHit struct {
	index  int // in the findings
	first  string
	count  int
	tokens int
}

// Add compares r with the earlier requests; a new finding is appended to
// findings, a recurring one updated in place.
func (g *Gate) Add(r *wire.Request, findings *[]audit.Finding) {
	st := g.seq.Add(r)
	if st == nil {
		return
	}
	why := Unstable(st)
	if why == "" || !g.Limit.Exceeded(st.Reprocessed, st.PrevTokens) {
		return
	}
	if g.at == nil {
		g.at = map[string]*gateHit{}
	}
	b := st.Break
	key := audit.RuleUnstablePrefix + "\x00" + string(b.Kind) + "\x00" + b.Label + "\x00" + why
	if h := g.at[key]; h != nil && h.index < len(*findings) {
		h.count++
		h.tokens += st.Reprocessed
		(*findings)[h.index].Message = h.first + fmt.Sprintf("; again in %d later requests, %s tokens re-processed in all",
			h.count-1, wire.GroupDigits(h.tokens))
		return
	}
	share := 0
	if st.PrevTokens > 0 {
		share = st.Reprocessed * 100 / st.PrevTokens
	}
	msg := fmt.Sprintf("re-processes %s tokens (%d%%) of %s@%d because %s in %s (%s, %s), over --max-reprocessed %s: "+
		"keep the prefix byte-stable, the changing value after it", wire.GroupDigits(st.Reprocessed), share,
		scan.VisibleLine(st.PrevSource), st.PrevIndex, why, scan.VisibleLine(b.Segment), b.Channel, b.Kind, g.Limit)
	*findings = append(*findings, audit.Finding{Rule: audit.RuleUnstablePrefix, Severity: audit.SeverityMedium,
		Source: r.Source, Request: r.Index, Line: r.Line, Segment: scan.VisibleLine(b.Segment), Offset: b.Offset,
		Excerpt: scan.VisibleLine(b.Before) + " → " + scan.VisibleLine(b.After), Message: msg, Key: key})
	g.at[key] = &gateHit{index: len(*findings) - 1, first: msg, count: 1, tokens: st.Reprocessed}
}
