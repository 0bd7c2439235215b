package find

// The stops of ] and [: the findings and hazards of the requests, in the
// order of the requests and of each one's segments.

import (
	"cmp"
	"slices"
	"sort"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// Stop is a finding or a hazard at byte Off of the segment at position Pos
// of a request's cache order; What says which (hostile: sanitise it).
type Stop struct {
	Pos, Off int
	What     string
}

// Compare orders two stops of a request: by segment, then by offset.
func (s Stop) Compare(o Stop) int {
	return cmp.Or(cmp.Compare(s.Pos, o.Pos), cmp.Compare(s.Off, o.Off))
}

// Stops are a request's findings and hazards in cache order: segs in the
// order of order (indices into segs), hz[i] the hazards of segs[i],
// findings the request's. A hazard a finding is about (at its offset) is
// one stop, the finding's.
func Stops(segs []wire.Segment, order []int, hz [][]scan.Hazard, findings []audit.Finding) []Stop {
	byID := map[string][]Stop{}
	for _, f := range findings {
		byID[f.Segment] = append(byID[f.Segment], Stop{Off: f.Offset, What: string(f.Severity) + " " + f.Rule + ": " + f.Message})
	}
	var out []Stop
	for pos, si := range order {
		from := len(out)
		for _, f := range byID[segs[si].ID] {
			out = append(out, Stop{pos, f.Off, f.What})
		}
		if si < len(hz) {
			for _, h := range hz[si] {
				if !slices.ContainsFunc(out[from:], func(x Stop) bool { return x.Off == h.Offset }) {
					out = append(out, Stop{pos, h.Offset, "hazard " + string(h.Class)})
				}
			}
		}
		seg := out[from:]
		sort.SliceStable(seg, func(i, j int) bool { return seg[i].Off < seg[j].Off })
	}
	return out
}

// Hop finds the next stop (dir 1) or the previous one (dir -1) from stop
// at in request sel of n, the stops of request i being stops(i): first in
// sel after at, then in the requests after it, then, past the last,
// from the first request again (wrapped), up to at itself. ok is false
// when there is no stop at all.
func Hop(n, sel, dir int, at Stop, stops func(i int) []Stop) (req int, s Stop, wrapped, ok bool) {
	for i := 0; i <= n && n > 0; i++ {
		r := ((sel+dir*i)%n + n) % n
		st := stops(r)
		if dir < 0 {
			st = slices.Clone(st)
			slices.Reverse(st)
		}
		for _, x := range st {
			c := x.Compare(at) * dir
			if i == 0 && c <= 0 || i == n && c > 0 {
				continue
			}
			return r, x, i == n || dir > 0 && r < sel || dir < 0 && r > sel, true
		}
	}
	return 0, Stop{}, false, false
}
