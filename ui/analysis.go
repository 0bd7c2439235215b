package ui

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
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

// Analysis is how the analyses reach the viewer: the command fills in what
// the build has, each func is called in a command (never in Update or View),
// and a nil func falls back to the viewer's own segment-level view or to a
// pane that says the analysis is not available.
type Analysis struct {
	// Findings audits every request.
	Findings func(reqs []wire.Request) []Finding
	// Cache compares each request with the one before it, in cache order.
	Cache func(reqs []wire.Request) []CacheRow
	// Diff aligns two requests by segment.
	Diff func(a, b *wire.Request) Diff
}

// uiCacheFallback compares consecutive requests segment by segment in cache
// order (equal hashes skip the bytes) when no cache analysis is plugged in.
func uiCacheFallback(reqs []wire.Request) []CacheRow {
	var rows []CacheRow
	for i := 1; i < len(reqs); i++ {
		a, b := reqs[i-1].CacheOrder(), reqs[i].CacheOrder()
		row := CacheRow{Request: i, Recorded: -1}
		for k := range b {
			row.TotalTokens += b[k].Tokens()
		}
		if u := reqs[i].Usage; u != nil {
			row.Recorded = u.CachedTokens
		}
		k := 0
		for k < len(a) && k < len(b) && a[k].Hash == b[k].Hash && a[k].Text == b[k].Text {
			row.PrefixTokens += b[k].Tokens()
			row.PrefixBytes += len(b[k].Text)
			k++
		}
		if k < len(a) {
			var at, bt string
			br := &CacheBreak{}
			if k < len(b) {
				bt = b[k].Text
				br.Segment, br.Channel, br.Kind = b[k].ID, b[k].Channel, b[k].Kind
			} else {
				br.Segment, br.Channel, br.Kind = a[k].ID, a[k].Channel, a[k].Kind
			}
			at = a[k].Text
			off := uiCommonPrefix(at, bt)
			br.Offset = off
			br.Before = uiAround(at, off)
			br.After = uiAround(bt, off)
			row.PrefixBytes += off
			row.Break = br
		}
		row.Predicted = row.PrefixTokens
		rows = append(rows, row)
	}
	return rows
}

// uiDiffFallback aligns two requests by segment ID when no diff analysis is
// plugged in: whole segments are shown removed and added.
func uiDiffFallback(a, b *wire.Request) Diff {
	var d Diff
	as, bs := a.CacheOrder(), b.CacheOrder()
	inA, inB := map[string]bool{}, map[string]int{}
	for _, s := range as {
		inA[s.ID] = true
	}
	for i, s := range bs {
		if _, dup := inB[s.ID]; !dup {
			inB[s.ID] = i
		}
	}
	add := func(ds DiffSegment, off int) {
		if ds.Status != "same" && d.FirstSegment == "" {
			d.FirstSegment, d.FirstOffset = ds.ID, off
		}
		d.Segments = append(d.Segments, ds)
	}
	added := func(s wire.Segment) {
		add(DiffSegment{ID: s.ID, Status: "added", Hunks: []Hunk{{Op: "insert", Text: s.Text}}}, 0)
	}
	bi := 0
	for _, s := range as {
		j, ok := inB[s.ID]
		if !ok || j < bi {
			add(DiffSegment{ID: s.ID, Status: "removed", Hunks: []Hunk{{Op: "delete", Text: s.Text}}}, 0)
			continue
		}
		for ; bi < j; bi++ {
			if !inA[bs[bi].ID] {
				added(bs[bi])
			}
		}
		bi = j + 1
		t := bs[j]
		if t.Text == s.Text {
			add(DiffSegment{ID: s.ID, Status: "same", Hunks: []Hunk{{Op: "equal", Text: s.Text}}}, 0)
			continue
		}
		off := uiCommonPrefix(s.Text, t.Text)
		// Whole lines: the changed part starts at the start of the line of
		// the first difference and ends at the end of the line of the last.
		ls := strings.LastIndexByte(s.Text[:off], '\n') + 1
		suf := uiCommonSuffix(s.Text[ls:], t.Text[ls:])
		se, te := len(s.Text)-suf, len(t.Text)-suf
		if i := strings.IndexByte(s.Text[se:], '\n'); i >= 0 {
			se += i + 1
			te += i + 1
		} else {
			se, te = len(s.Text), len(t.Text)
		}
		ds := DiffSegment{ID: s.ID, Status: "changed"}
		if ls > 0 {
			ds.Hunks = append(ds.Hunks, Hunk{Op: "equal", Text: s.Text[:ls]})
		}
		ds.Hunks = append(ds.Hunks, Hunk{Op: "delete", Text: s.Text[ls:se]}, Hunk{Op: "insert", Text: t.Text[ls:te]})
		if se < len(s.Text) {
			ds.Hunks = append(ds.Hunks, Hunk{Op: "equal", Text: s.Text[se:]})
		}
		add(ds, off)
	}
	for ; bi < len(bs); bi++ {
		if !inA[bs[bi].ID] {
			added(bs[bi])
		}
	}
	return d
}

// uiCommonPrefix is the length of the common prefix of a and b, backed off to
// a UTF-8 boundary.
func uiCommonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && a[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// uiCommonSuffix is the length of the common suffix of a and b, backed off
// to a UTF-8 boundary.
func uiCommonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	for i > 0 && len(a)-i < len(a) && a[len(a)-i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// uiAround is up to 40 bytes of s on either side of off, on rune boundaries.
func uiAround(s string, off int) string {
	lo, hi := max(0, off-40), min(len(s), off+40)
	for lo > 0 && lo < len(s) && s[lo]&0xC0 == 0x80 {
		lo--
	}
	for hi < len(s) && s[hi]&0xC0 == 0x80 {
		hi++
	}
	return strings.ReplaceAll(s[lo:hi], "\n", " ")
}
