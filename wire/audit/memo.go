package audit

import (
	"sort"

	"github.com/wirelens/wirelens/wire"
)

// memo is what the request audited last leaves for the next one: its
// segments, its findings as they were found (before sorting) with each
// one's segment, where tool-changed ran on each tool definition, and the
// state of the trusted prefix and of the envelopes after its segments.
//
// A segment's findings depend on the segment itself and on what comes
// before it: whether it is in the trusted prefix (every segment before
// it), the host text of its part before it (untrusted-elevated), the
// first envelope of its part (the framing around envelopes); and on the
// segment after it (the framing's next envelope). tool-changed alone
// depends on the requests before. So a segment that is, with every
// segment before it and the one after it, the same as in the request
// before has the same findings but tool-changed's, and the finding's
// request, source and line.
type memo struct {
	segs      []wire.Segment
	workspace *WorkspaceMarks
	out       []Finding
	order     []int
	tools     []toolMark
	closed    int
	enveloped map[string]int
}

// toolMark is where tool-changed ran on a tool definition: the segment and
// the number of findings before it.
type toolMark struct{ seg, at int }

// replaying turns the replay on; tests turn it off to compare.
var replaying = true

// replayable is how many of r's first segments have the findings they had
// in the request audited before (see memo): those it shares with it but
// the last shared one, whose next segment differs (or is absent from one
// of them), unless both requests end with it.
func (a *Auditor) replayable(r *wire.Request) int {
	p := &a.last
	n := min(len(p.segs), len(r.Segments))
	if n == 0 || p.workspace != a.Workspace || !replaying {
		return 0
	}
	same := n
	// The decoder hands a session's requests that extend the one before
	// in the same array (wire.ExtendRun), never written after: the same
	// first element is the same segments.
	if &p.segs[0] != &r.Segments[0] {
		same = 0
		for same < n && wire.SameSegments(p.segs[same:same+1], r.Segments[same:same+1]) {
			same++
		}
	}
	if same == len(p.segs) && same == len(r.Segments) {
		return same
	}
	return max(same-1, 0)
}

// replay gives the request the findings of its first n segments from the
// request before, with its own number, source and line, and runs
// tool-changed on their tool definitions where it ran before.
func (c *requestAudit) replay(n int) {
	if n == 0 {
		return
	}
	p := &c.a.last
	c.a.replayed += n
	c.closed = -1
	if p.closed >= 0 && p.closed < n {
		c.closed = p.closed
	}
	for part, at := range p.enveloped {
		if at < n {
			if c.enveloped == nil {
				c.enveloped = map[string]int{}
			}
			c.enveloped[part] = at
		}
	}
	end := sort.SearchInts(p.order, n) // the first finding of a segment from n on
	c.out = make([]Finding, 0, end+8)
	c.order = make([]int, 0, end+8)
	from := 0
	for _, t := range p.tools {
		if t.seg >= n {
			break
		}
		c.copyFindings(p, from, t.at)
		c.tools = append(c.tools, toolMark{seg: t.seg, at: len(c.out)})
		c.toolChanged(t.seg)
		from = t.at
	}
	c.copyFindings(p, from, end)
}

// copyFindings appends p's findings [from, to) but tool-changed's, as the
// request's own.
func (c *requestAudit) copyFindings(p *memo, from, to int) {
	req := max(c.r.Index, 1)
	for k := from; k < to; k++ {
		f := p.out[k]
		if f.Rule == RuleToolChanged {
			continue
		}
		f.Source, f.Request, f.Line = c.r.Source, req, c.r.Line
		c.out = append(c.out, f)
		c.order = append(c.order, p.order[k])
	}
}
