package audit

import (
	"strconv"

	"github.com/wirelens/wirelens/wire"
)

// Distinct tells the distinct findings of a run of requests apart, as
// `check` lists them: a finding that a later request of the same source
// carries again (the same rule, segment, offset and message, over the same
// segment text) is one finding, kept under the first request, its Requests
// counting the requests that carry it. The viewer's Findings view counts
// them the same way.
type Distinct struct {
	seen map[string]int
}

// Index returns the index, in the caller's list of distinct findings, of
// the finding f repeats (f is of a request, s the segment it is in, nil if
// none), or -1 if f is new: then the caller's next index is recorded as
// f's, and f.Requests set to this one request. The caller adds one to the
// Requests count of a repeat's finding.
func (d *Distinct) Index(f *Finding, s *wire.Segment, next int) int {
	var text string
	var hash uint64
	if s != nil {
		text, hash = s.Text, s.Hash
		if hash == 0 {
			hash = wire.HashText(text)
		}
	}
	key := f.Source + "\x00" + f.Rule + "\x00" + f.Segment + "\x00" + strconv.Itoa(f.Offset) + "\x00" +
		f.Message + "\x00" + strconv.FormatUint(hash, 16) + "\x00" + strconv.Itoa(len(text))
	if d.seen == nil {
		d.seen = map[string]int{}
	}
	if k, ok := d.seen[key]; ok {
		return k
	}
	d.seen[key] = next
	f.Requests = &RequestSpan{First: f.Request, Count: 1}
	return -1
}

// DistinctOf returns the distinct findings of items, in order (of gives an
// item's finding and the request it is of): each once, under its first
// request, its Requests counting the items that repeat it (Distinct).
func DistinctOf[T any](items []T, of func(*T) (*Finding, *wire.Request)) []T {
	var d Distinct
	out := make([]T, 0, len(items))
	for _, it := range items {
		f, r := of(&it)
		var seg *wire.Segment
		for i := range r.Segments {
			if r.Segments[i].ID == f.Segment {
				seg = &r.Segments[i]
				break
			}
		}
		if k := d.Index(f, seg, len(out)); k >= 0 {
			kept, _ := of(&out[k])
			kept.Requests.Count++
			continue
		}
		out = append(out, it)
	}
	return out
}
