package diff

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/wirelens/wirelens/wire"
)

// Op is a diff operation.
type Op string

// Diff operations.
const (
	OpEqual  Op = "equal"
	OpDelete Op = "delete"
	OpInsert Op = "insert"
)

// Hunk is a run of text with one operation. In a line diff, a deleted or
// inserted run of lines that replaces another carries the word diff of the
// two in Words (equal and delete words for a delete hunk, equal and insert
// words for an insert hunk).
type Hunk struct {
	Op    Op
	Text  string
	Words []Hunk
}

// Status is what happened to a segment between two requests.
type Status string

// Segment statuses (CONTRACT.md).
const (
	StatusSame    Status = "same"
	StatusChanged Status = "changed"
	StatusAdded   Status = "added"
	StatusRemoved Status = "removed"
)

// SegmentDiff is one aligned pair of segments (or a segment present on one
// side only).
type SegmentDiff struct {
	// ID is the segment's id in B (in A for a removed segment); FromID is
	// its id in A when that differs (a segment that moved).
	ID     string
	FromID string
	Status Status
	// Moved is set when the segment sits in another channel or role in B.
	Moved bool
	// Reordered is set when the segment comes, in B's cache order, before
	// segments that were before it in A: the same texts in another order
	// are another prefix, not the same request.
	Reordered bool
	// BreakpointChanged is set when a cache breakpoint (Anthropic
	// cache_control) was added to or removed from the segment; BreakA and
	// BreakB say whether the segment carries one in A and in B.
	BreakpointChanged bool
	BreakA, BreakB    bool
	// Offset is the first differing byte of a changed segment's text.
	Offset int
	Hunks  []Hunk
	// A and B are the segments (nil on the side where it is absent).
	A, B *wire.Segment
}

// Seg is the segment the diff entry describes: B's, or A's if removed.
func (d *SegmentDiff) Seg() *wire.Segment {
	if d.B != nil {
		return d.B
	}
	return d.A
}

// Divergence is the first difference in cache order.
type Divergence struct {
	Segment string
	Channel wire.Channel
	Offset  int
	Status  Status
	// Index is the position of the entry in RequestDiff.Segments.
	Index int
}

// RequestDiff is the segment-aligned diff of two requests.
type RequestDiff struct {
	Segments []SegmentDiff
	// First is the first divergence in cache order, nil when every segment
	// is the same.
	First *Divergence
	// ModelA, ModelB, FormatA and FormatB say whether the requests' model
	// and format differ.
	ModelA, ModelB   string
	FormatA, FormatB wire.Format
}

// Identical reports whether the two requests carry the same segments, model
// and format.
func (d *RequestDiff) Identical() bool {
	return d.First == nil && d.ModelA == d.ModelB && d.FormatA == d.FormatB
}

// Counts returns how many segments have each status.
func (d *RequestDiff) Counts() map[Status]int {
	m := map[Status]int{}
	for i := range d.Segments {
		m[d.Segments[i].Status]++
	}
	return m
}

// Requests diffs two requests segment by segment. Segments are aligned by
// identical text at the same id, then identical text in the same channel
// and kind, then the same id, then identical text of the same kind in any
// channel, then the same kind and envelope, then the same workspace or time
// kind anywhere (a legacy section against its isolated fragment). Changed
// segments get a line diff, with a word diff inside replaced lines.
func Requests(a, b *wire.Request) *RequestDiff {
	ia, ib := a.CacheIndex(), b.CacheIndex()
	as, bs := a.SegmentsAt(ia), b.SegmentsAt(ib) // as[i] is a.Segments[ia[i]]
	ma, mb := alignSegments(as, bs)
	d := &RequestDiff{ModelA: a.Model, ModelB: b.Model, FormatA: a.Format, FormatB: b.Format}

	emitted := make([]bool, len(as))
	nextA := 0
	flushA := func(upto int) {
		for ; nextA < upto; nextA++ {
			if ma[nextA] < 0 && !emitted[nextA] {
				emitted[nextA] = true
				s := &as[nextA]
				d.Segments = append(d.Segments, SegmentDiff{ID: s.ID, Status: StatusRemoved, A: s,
					Hunks: []Hunk{{Op: OpDelete, Text: s.Text}}})
			}
		}
	}
	rankA := 0 // as[:rankA] are flushed up to the channel of the current b segment
	// low is the first segment of a paired with a b segment not yet
	// reached: a pair whose a segment comes after it jumped ahead of it.
	pairedDone := make([]bool, len(as))
	low := 0
	advanceLow := func() {
		for low < len(as) && (ma[low] < 0 || pairedDone[low]) {
			low++
		}
	}
	advanceLow()
	for j := range bs {
		sb := &bs[j]
		// Removed segments of an earlier channel come before this one.
		for ; rankA < len(as) && as[rankA].Channel.CacheRank() < sb.Channel.CacheRank(); rankA++ {
			if ma[rankA] < 0 && !emitted[rankA] {
				emitted[rankA] = true
				s := &as[rankA]
				d.Segments = append(d.Segments, SegmentDiff{ID: s.ID, Status: StatusRemoved, A: s,
					Hunks: []Hunk{{Op: OpDelete, Text: s.Text}}})
			}
		}
		i := mb[j]
		if i < 0 {
			d.Segments = append(d.Segments, SegmentDiff{ID: sb.ID, Status: StatusAdded, B: sb,
				Hunks: []Hunk{{Op: OpInsert, Text: sb.Text}}})
			continue
		}
		if i >= nextA {
			flushA(i)
		}
		sa := &as[i]
		sd := SegmentDiff{ID: sb.ID, A: sa, B: sb}
		if sa.ID != sb.ID {
			sd.FromID = sa.ID
		}
		sd.Moved = sa.Channel != sb.Channel || sa.Role != sb.Role
		sd.Reordered = i > low
		pairedDone[i] = true
		advanceLow()
		sd.BreakA, sd.BreakB = a.Breakpoint(ia[i]), b.Breakpoint(ib[j])
		sd.BreakpointChanged = sd.BreakA != sd.BreakB
		sameText := sa.Hash == sb.Hash && sa.Text == sb.Text
		switch {
		case sameText && !sd.Moved && !sd.Reordered && !sd.BreakpointChanged:
			sd.Status = StatusSame
		case sameText:
			// Moved, reordered, or only its cache breakpoint changed (the
			// marker sits after the text).
			sd.Status = StatusChanged
			if !sd.Moved && !sd.Reordered {
				sd.Offset = len(sb.Text)
			}
			sd.Hunks = []Hunk{{Op: OpEqual, Text: sb.Text}}
		default:
			sd.Status = StatusChanged
			sd.Offset = commonPrefixLen(sa.Text, sb.Text)
			sd.Hunks = TextDiff(sa.Text, sb.Text)
		}
		d.Segments = append(d.Segments, sd)
	}
	flushA(len(as))
	for k := range d.Segments {
		sd := &d.Segments[k]
		if sd.Status == StatusSame {
			continue
		}
		s := sd.Seg()
		d.First = &Divergence{Segment: sd.ID, Channel: s.Channel, Offset: sd.Offset, Status: sd.Status, Index: k}
		break
	}
	return d
}

// alignSegments pairs the segments of a and b; ma[i] is the index in b of
// a[i]'s partner (-1 for none) and mb the reverse.
func alignSegments(a, b []wire.Segment) (ma, mb []int) {
	ma, mb = make([]int, len(a)), make([]int, len(b))
	for i := range ma {
		ma[i] = -1
	}
	for j := range mb {
		mb[j] = -1
	}
	pair := func(i, j int) { ma[i], mb[j] = j, i }
	sameText := func(x, y *wire.Segment) bool { return x.Hash == y.Hash && x.Text == y.Text }

	// pass pairs, in b's order, each unpaired b segment with the first
	// unpaired a segment of the same key (when ok accepts the pair).
	pass := func(key func(*wire.Segment) (string, bool), ok func(x, y *wire.Segment) bool) {
		queues := map[string][]int{}
		for i := range a {
			if ma[i] >= 0 {
				continue
			}
			if k, use := key(&a[i]); use {
				queues[k] = append(queues[k], i)
			}
		}
		if len(queues) == 0 {
			return
		}
		for j := range b {
			if mb[j] >= 0 {
				continue
			}
			k, use := key(&b[j])
			if !use {
				continue
			}
			q := queues[k]
			for n, i := range q {
				if ma[i] < 0 && ok(&a[i], &b[j]) {
					pair(i, j)
					queues[k] = append(q[:n:n], q[n+1:]...)
					break
				}
			}
		}
	}
	hashKey := func(s *wire.Segment) string {
		var buf [8]byte
		h := s.Hash
		for k := range 8 {
			buf[k] = byte(h >> (8 * k))
		}
		return string(buf[:])
	}
	anyPair := func(_, _ *wire.Segment) bool { return true }

	// 1. identical text at the same id
	pass(func(s *wire.Segment) (string, bool) { return s.ID, true }, sameText)
	// 2. identical text in the same channel and kind (history shifted)
	pass(func(s *wire.Segment) (string, bool) {
		return string(s.Channel) + "\x00" + string(s.Kind) + "\x00" + hashKey(s), true
	}, sameText)
	// 3. the same id
	pass(func(s *wire.Segment) (string, bool) { return string(s.Channel) + "\x00" + s.ID, true }, anyPair)
	// 4. identical text of the same kind, anywhere
	pass(func(s *wire.Segment) (string, bool) { return string(s.Kind) + "\x00" + hashKey(s), true }, sameText)
	// 5. the same kind and envelope in the same channel
	pass(func(s *wire.Segment) (string, bool) {
		return string(s.Channel) + "\x00" + string(s.Kind) + "\x00" + s.Envelope, true
	}, anyPair)
	// 6. the same workspace or time kind anywhere (legacy against isolated)
	pass(func(s *wire.Segment) (string, bool) {
		return string(s.Kind), s.Kind.WorkspaceDerived() || s.Kind == wire.KindTime || s.Kind == wire.KindEnvironment
	}, anyPair)
	return ma, mb
}

// DiffBudget bounds the time one TextDiff may spend searching for a
// minimal diff. Past it the diff is still exact (the hunks give both texts
// back) but not minimal: what is left is shown as replaced, and replaced
// lines get no word diff.
var DiffBudget = 400 * time.Millisecond

// wordDiffLimit is the largest replaced run (bytes on each side) that gets
// a word diff.
const wordDiffLimit = 64 << 10

// TextDiff is the line diff of two texts, with a word diff inside each run
// of deleted lines replaced by inserted ones.
func TextDiff(a, b string) []Hunk {
	deadline := time.Now().Add(DiffBudget)
	hs := tokenDiff(splitLines(a), splitLines(b), deadline)
	for k := 0; k+1 < len(hs); k++ {
		if !time.Now().Before(deadline) {
			break
		}
		if hs[k].Op != OpDelete || hs[k+1].Op != OpInsert {
			continue
		}
		del, ins := hs[k].Text, hs[k+1].Text
		if len(del) > wordDiffLimit || len(ins) > wordDiffLimit {
			continue
		}
		words := tokenDiff(splitWords(del), splitWords(ins), deadline)
		for _, w := range words {
			if w.Op != OpInsert {
				hs[k].Words = append(hs[k].Words, w)
			}
			if w.Op != OpDelete {
				hs[k+1].Words = append(hs[k+1].Words, w)
			}
		}
		hs[k].Words, hs[k+1].Words = joinChanges(hs[k].Words), joinChanges(hs[k+1].Words)
		k++
	}
	return hs
}

// joinChanges makes one change of changed words with only blanks between
// them ("[-The operating rules-]", not "[-The-] [-operating-] [-rules-]"):
// the blanks are equal on both sides, but a reader sees the phrase changed.
func joinChanges(ws []Hunk) []Hunk {
	out := ws[:0]
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if n := len(out); n > 0 && w.Op != OpEqual && out[n-1].Op == w.Op {
			out[n-1].Text += w.Text
			continue
		}
		if n := len(out); n > 0 && w.Op == OpEqual && out[n-1].Op != OpEqual && i+1 < len(ws) && ws[i+1].Op == out[n-1].Op &&
			strings.Trim(w.Text, " \t") == "" {
			out[n-1].Text += w.Text + ws[i+1].Text
			i++
			continue
		}
		out = append(out, w)
	}
	return out
}

// tokenDiff diffs two token sequences: each distinct token becomes one rune
// and go-diff compares the rune strings.
func tokenDiff(ta, tb []string, deadline time.Time) []Hunk {
	ids := make(map[string]rune, len(ta)/2+len(tb)/2)
	var toks []string
	encode := func(ts []string) ([]rune, bool) {
		rs := make([]rune, len(ts))
		for i, t := range ts {
			r, ok := ids[t]
			if !ok {
				n := len(toks)
				r = rune(n)
				if r >= 0xD800 {
					r += 0x800 // skip the surrogates
				}
				if r > utf8.MaxRune {
					return nil, false
				}
				ids[t] = r
				toks = append(toks, t)
			}
			rs[i] = r
		}
		return rs, true
	}
	ra, okA := encode(ta)
	rb, okB := encode(tb)
	if !okA || !okB {
		// More distinct tokens than runes: show a replacement.
		return mergeHunks([]Hunk{{Op: OpDelete, Text: joinTokens(ta)}, {Op: OpInsert, Text: joinTokens(tb)}})
	}
	tok := func(r rune) string {
		n := int(r)
		if r >= 0xE000 {
			n -= 0x800
		}
		return toks[n]
	}
	dmp := diffmatchpatch.New()
	var out []Hunk
	for _, d := range patienceDiff(dmp, ra, rb, nil, deadline) {
		n := 0
		for _, r := range d.rs {
			n += len(tok(r))
		}
		buf := make([]byte, 0, n)
		for _, r := range d.rs {
			buf = append(buf, tok(r)...)
		}
		out = append(out, Hunk{Op: d.op, Text: string(buf)})
	}
	return mergeHunks(out)
}

// rdiff is a diff operation on token runes.
type rdiff struct {
	op Op
	rs []rune
}

// patienceDiff splits the problem at tokens that occur exactly once on
// each side, in the same order (the patience heuristic), and leaves what is
// between those anchors to go-diff. Scattered edits of a large text then
// cost little, and unrelated texts do not run into go-diff's time limit.
func patienceDiff(dmp *diffmatchpatch.DiffMatchPatch, a, b []rune, out []rdiff, deadline time.Time) []rdiff {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	if p > 0 {
		out = append(out, rdiff{OpEqual, a[:p]})
	}
	a, b = a[p:], b[p:]
	s := 0
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	tail := a[len(a)-s:]
	a, b = a[:len(a)-s], b[:len(b)-s]
	switch {
	case len(a) == 0 && len(b) == 0:
	case len(a) == 0:
		out = append(out, rdiff{OpInsert, b})
	case len(b) == 0:
		out = append(out, rdiff{OpDelete, a})
	default:
		anchors := uniqueAnchors(a, b)
		if len(anchors) == 0 {
			out = myersDiff(dmp, a, b, out, deadline)
			break
		}
		ia, ib := 0, 0
		for _, an := range anchors {
			out = patienceDiff(dmp, a[ia:an[0]], b[ib:an[1]], out, deadline)
			out = append(out, rdiff{OpEqual, a[an[0] : an[0]+1]})
			ia, ib = an[0]+1, an[1]+1
		}
		out = patienceDiff(dmp, a[ia:], b[ib:], out, deadline)
	}
	if s > 0 {
		out = append(out, rdiff{OpEqual, tail})
	}
	return out
}

// uniqueAnchors returns the longest increasing run of (index in a, index
// in b) pairs of tokens that occur once in a and once in b.
func uniqueAnchors(a, b []rune) [][2]int {
	type seen struct{ na, nb, ia, ib int }
	m := make(map[rune]*seen, len(a))
	for i, r := range a {
		e := m[r]
		if e == nil {
			e = &seen{}
			m[r] = e
		}
		e.na++
		e.ia = i
	}
	for j, r := range b {
		if e := m[r]; e != nil {
			e.nb++
			e.ib = j
		}
	}
	var pairs [][2]int
	for i, r := range a {
		if e := m[r]; e.na == 1 && e.nb == 1 {
			pairs = append(pairs, [2]int{i, e.ib})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// Longest increasing subsequence on the b indices (patience sorting).
	tails := []int{}                // tails[k]: index in pairs ending the best run of length k+1
	prev := make([]int, len(pairs)) // predecessor in the run
	for k, pr := range pairs {
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if pairs[tails[mid]][1] < pr[1] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > 0 {
			prev[k] = tails[lo-1]
		} else {
			prev[k] = -1
		}
		if lo == len(tails) {
			tails = append(tails, k)
		} else {
			tails[lo] = k
		}
	}
	out := make([][2]int, len(tails))
	for k, n := tails[len(tails)-1], len(tails)-1; n >= 0; k, n = prev[k], n-1 {
		out[n] = pairs[k]
	}
	return out
}

// myersDiff leaves a and b to go-diff, unless they share no token at all
// (then the answer is a replacement, found without a search).
func myersDiff(dmp *diffmatchpatch.DiffMatchPatch, a, b []rune, out []rdiff, deadline time.Time) []rdiff {
	left := time.Until(deadline)
	if left <= 0 {
		return append(out, rdiff{OpDelete, a}, rdiff{OpInsert, b})
	}
	dmp.DiffTimeout = left
	inA := make(map[rune]struct{}, len(a))
	for _, r := range a {
		inA[r] = struct{}{}
	}
	common := false
	for _, r := range b {
		if _, ok := inA[r]; ok {
			common = true
			break
		}
	}
	if !common {
		return append(out, rdiff{OpDelete, a}, rdiff{OpInsert, b})
	}
	for _, d := range dmp.DiffMainRunes(a, b, false) {
		op := OpEqual
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = OpDelete
		case diffmatchpatch.DiffInsert:
			op = OpInsert
		}
		out = append(out, rdiff{op, []rune(d.Text)})
	}
	return out
}

// mergeHunks joins neighbours with the same op, drops empty hunks, and
// puts deletions before insertions within a replaced run. Each merged text
// is built once, so a long run of small hunks (the equal anchors of a large
// text) costs its length, not its square.
func mergeHunks(hs []Hunk) []Hunk {
	out := hs[:0:0]
	for i := 0; i < len(hs); {
		// A run: equal hunks, or changed ones, up to the next non-empty
		// hunk of the other sort.
		eq := hs[i].Op == OpEqual
		j := i + 1
		for j < len(hs) && (hs[j].Text == "" || (hs[j].Op == OpEqual) == eq) {
			j++
		}
		if eq {
			out = appendJoined(out, OpEqual, hs[i:j])
		} else {
			out = appendJoined(out, OpDelete, hs[i:j])
			out = appendJoined(out, OpInsert, hs[i:j])
		}
		i = j
	}
	return out
}

// appendJoined appends one hunk of op holding the texts of the hunks of hs
// with that op, in order; nothing when they are empty.
func appendJoined(out []Hunk, op Op, hs []Hunk) []Hunk {
	n, last, parts := 0, "", 0
	for _, h := range hs {
		if h.Op == op && h.Text != "" {
			n += len(h.Text)
			last = h.Text
			parts++
		}
	}
	switch parts {
	case 0:
		return out
	case 1:
		return append(out, Hunk{Op: op, Text: last})
	}
	b := make([]byte, 0, n)
	for _, h := range hs {
		if h.Op == op {
			b = append(b, h.Text...)
		}
	}
	return append(out, Hunk{Op: op, Text: string(b)})
}

func joinTokens(ts []string) string {
	n := 0
	for _, t := range ts {
		n += len(t)
	}
	b := make([]byte, 0, n)
	for _, t := range ts {
		b = append(b, t...)
	}
	return string(b)
}

// splitLines cuts s into lines, each keeping its newline.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		if i < len(s) {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// splitWords cuts s into runs of letters and digits, runs of spaces, and
// single other characters.
func splitWords(s string) []string {
	var out []string
	class := func(r rune) int {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			return 1
		case r == ' ' || r == '\t':
			return 2
		}
		return 0
	}
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		c := class(r)
		if c != 0 {
			for n < len(s) {
				r2, m := utf8.DecodeRuneInString(s[n:])
				if class(r2) != c {
					break
				}
				n += m
			}
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
