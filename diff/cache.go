// Package diff compares model requests: the prompt-cache prefix each request
// shares with the one before it (where it breaks, and why), the provider's
// predicted cache reads against the recorded ones, and segment-aligned
// diffs of two requests.
//
// The work grows with the distinct content of a session, not its size:
// consecutive requests are compared segment by segment by content hash, the
// bytes of a segment are read only where the hashes differ, token counts
// come from wire's content-addressed cache, and no concatenated prefix is
// ever built.
package diff

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// BreakCause says why the cached prefix ends where it does.
type BreakCause string

// Break causes.
const (
	CauseChanged   BreakCause = "changed"   // the segment's text changed
	CauseAdded     BreakCause = "added"     // a segment was inserted before the previous request's end
	CauseRemoved   BreakCause = "removed"   // a segment of the previous request is gone
	CauseReordered BreakCause = "reordered" // the same segments in another order
	CauseModel     BreakCause = "model"     // another model: its cache is not shared
	CauseProvider  BreakCause = "provider"  // another provider altogether
	CauseCacheKey  BreakCause = "cache-key" // another prompt_cache_key: OpenAI routes the cache by it
)

// Switch reports whether the cause is a change of cache (model, provider,
// prompt_cache_key) rather than of text.
func (c BreakCause) Switch() bool { return c == CauseModel || c == CauseProvider || c == CauseCacheKey }

// Break is where a request stops sharing the previous request's prefix.
type Break struct {
	// Segment, Channel and Kind are those of the segment the break falls in
	// (in the current request; in the previous one for a removed segment).
	Segment string
	Channel wire.Channel
	Kind    wire.Kind
	Label   string
	// Offset is the byte offset of the first differing byte in the segment.
	Offset int
	// Before and After are short excerpts around Offset in the previous and
	// the current request (hostile text: render through wire.Visible*).
	// They and Label are copies: a Break kept keeps no request's text alive.
	Before, After string
	// Volatile names the changing value the break falls in, or "".
	Volatile scan.VolatileKind
	Cause    BreakCause
	// Position is the segment's index in cache order.
	Position int
	// Rule is audit.RuleToolChanged when the break is a tool definition
	// that changed under the same name (a rug pull, the tools_changed
	// break): one event that check reports as a finding and the cache
	// report as the break's cause. "" otherwise.
	Rule string
	// Server is, for a tool-changed break, the tool's MCP server ("" for
	// the host's own tool; a copy).
	Server string
}

// Step is the comparison of one request with the one before it.
type Step struct {
	Source string
	Index  int
	Line   int
	Format wire.Format
	Model  string
	// PrevSource and PrevIndex name the earlier request the step compares
	// with: the last earlier request of the same model and provider, or,
	// for the first of its model (and with Sequence.Consecutive), the
	// request just before. PrevModel is its model.
	PrevSource string
	PrevIndex  int
	PrevModel  string
	Rule       CacheRule

	TotalTokens int // estimated tokens of the request
	TotalBytes  int
	PrevTokens  int // estimated tokens of the previous request
	// PrefixTokens and PrefixBytes are what the request shares with the
	// previous one in cache order (0 when the model or provider changed).
	PrefixTokens int
	PrefixBytes  int
	// TextPrefixTokens is the shared prefix by text alone, which differs
	// from PrefixTokens only when the model or provider changed.
	TextPrefixTokens int
	// Break is nil when the request starts with the whole previous request.
	Break *Break
	// TextBreak is the text break when Break names a model or provider
	// change (nil when the texts share the whole previous request).
	TextBreak *Break
	// Reprocessed is the tokens processed again because of the break: the
	// previous request's tokens after it, or, when the model or provider
	// changed, the tokens the two requests share by text.
	Reprocessed int

	Prediction Prediction
	// Recorded is the recorded cache read, nil when nothing was recorded.
	Recorded *int
	// PrevRecordedInput is the recorded input tokens (cached included) of
	// the request compared with, nil when it recorded none.
	PrevRecordedInput *int
	// Disagreement states plainly how prediction and record differ, or "".
	Disagreement string
	// Verdict is the provider's (or the agent's) recorded verdict on the
	// request's cache, nil when none was recorded; VerdictOutcome says
	// whether it agrees with wirelens's attribution (Attribution):
	// VerdictAgrees, VerdictDisagrees or VerdictInconclusive.
	Verdict        *wire.CacheVerdict
	VerdictOutcome string
	Notes          []string

	// At is when the request was sent (zero when not recorded). Idle is
	// the time since the request it was compared with was sent, HasIdle
	// false when either time is not recorded.
	At      time.Time
	Idle    time.Duration
	HasIdle bool
	// Lane is the request's lane; LaneFirst says it is the lane's first
	// request (not a break, whatever it shares with other lanes).
	Lane      Lane
	LaneFirst bool
	// PrevLane is the lane of the request compared with (the only word on
	// the lane of a sequence's first request, which has no step).
	PrevLane Lane
	// Expired is the prefix that had been written but had expired, nil
	// when none did (Prediction.Expired).
	Expired *Expiry
	// Scale is the factor the estimates were calibrated by for the
	// prediction (1 when no usage was recorded).
	Scale float64
	// SizeTokens is the request's size in the provider's tokens, as the
	// prediction counts them: the estimate scaled, and the host prefix the
	// recording leaves out.
	SizeTokens int
}

// excerptLen is how much text each side of a break's excerpt holds.
const excerptLen = 40

// seqView is one request prepared for comparison: its segments in cache
// order and the running token and byte totals.
type seqView struct {
	segs   []wire.Segment
	cumTok []int // cumTok[i] is the tokens of segs[:i+1]
	cumLen []int // cumLen[i] is the bytes of segs[:i+1]
	block  []int // block[i] is the index of the content block (wire part) of segs[i]
	bps    []int // indices of segments that end a cache breakpoint
	// chain[i] identifies the prefix segs[:i+1]: equal chains mean the same
	// bytes up to and including segment i.
	chain []uint64
	req   *wire.Request
	lane  *laneState // the request's lane, once Sequence.Add knows it
	rule  CacheRule
	// policy is the agent's breakpoint policy that placed bps, where the
	// recording keeps none; unavailable says why no breakpoints are known
	// at all (a recording of an explicit-caching provider with no policy).
	policy      *BreakpointPolicy
	unavailable string
	// hidden is the estimated tokens of the host prefix the recording
	// does not hold (Claude Code's system prompt and tools), before every
	// segment: the recorded input tokens less the estimate of the segments.
	// leftOut says the recording leaves that prefix out.
	hidden  int
	leftOut bool
	// scale calibrates the estimates to the provider's tokens (0 or 1:
	// none).
	scale float64
	// at is when the request was sent, Unix nanoseconds (0: unknown).
	at int64
	// run is the arrays' run (seqRun).
	run *seqRun
}

// newSeqView prepares r. When prev is given, the running totals of the
// segments r shares with it (compared by hash) are taken from prev instead
// of being looked up again.
func newSeqView(r *wire.Request, prev *seqView) *seqView {
	segs, at := cacheOrdered(r)
	v := &seqView{segs: segs, req: r, rule: RuleFor(r.Format, r.Model), at: unixNano(r.At)}
	n := len(v.segs)
	shared, inPlace := 0, false
	if prev != nil && n > 0 && len(prev.segs) > 0 && &prev.segs[0] == &v.segs[0] {
		// One run of segments (wire.ExtendRun, the decoder's): the same
		// segments as far as both go, their hashes set by prev.
		shared, inPlace = min(n, len(prev.segs)), true
	}
	v.fixHashes(shared)
	if prev != nil && !inPlace {
		for m := min(n, len(prev.segs)); shared < m && sameSeg(&prev.segs[shared], &v.segs[shared]); {
			shared++
		}
	}
	if inPlace && shared == len(prev.segs) && prev.run != nil && prev.run.used == len(prev.chain) {
		// v extends prev, and no view extended prev's arrays before:
		// their elements after prev's are v's to write (wire.ExtendRun).
		v.chain, v.cumTok = wire.ExtendRun(prev.chain, n), wire.ExtendRun(prev.cumTok, n)
		v.cumLen, v.block = wire.ExtendRun(prev.cumLen, n), wire.ExtendRun(prev.block, n)
		v.run = prev.run
		if &v.chain[0] != &prev.chain[0] {
			v.run = &seqRun{}
		}
	} else {
		v.chain, v.cumTok = wire.ExtendRun[uint64](nil, n), wire.ExtendRun[int](nil, n)
		v.cumLen, v.block = wire.ExtendRun[int](nil, n), wire.ExtendRun[int](nil, n)
		v.run = &seqRun{}
		if prev != nil {
			copy(v.cumTok, prev.cumTok[:shared])
			copy(v.cumLen, prev.cumLen[:shared])
			copy(v.chain, prev.chain[:shared])
			if inPlace {
				copy(v.block, prev.block[:shared])
			}
		}
	}
	v.run.used = n
	tok, ln := v.tokensTo(shared), v.bytesTo(shared)
	blk := -1
	prevPart := "\x00"
	from := 0
	if inPlace && shared > 0 {
		// The blocks of the segments shared: the same segments, the same
		// blocks (sameSeg does not compare parts: only then).
		from, blk, prevPart = shared, v.block[shared-1], partOf(&v.segs[shared-1])
	}
	for i := from; i < n; i++ {
		s := &v.segs[i]
		if i >= shared {
			tok += s.Tokens()
			ln += len(s.Text)
			v.cumTok[i], v.cumLen[i] = tok, ln
			var before uint64
			if i > 0 {
				before = v.chain[i-1]
			}
			v.chain[i] = chainHash(before, s)
		}
		if part := partOf(s); part != prevPart || s.Start == 0 {
			blk++
			prevPart = part
		}
		v.block[i] = blk
	}
	for _, i := range r.Breakpoints {
		if at != nil {
			i = at[i]
		}
		v.bps = append(v.bps, i)
	}
	if at != nil {
		slices.Sort(v.bps)
	}
	if v.rule.Mode == CacheExplicit && len(v.bps) == 0 && !CarriesBreakpoints(r.Format) {
		if p := policyFor(r.Format); p != nil {
			v.policy = p
			v.bps = policyBreakpoints(v, *p)
			v.hostPrefix()
		} else {
			v.unavailable = string(r.Format) + " records no cache_control breakpoints and the agent's placement of them is not known: " +
				v.rule.Provider + " caches only at breakpoints, so no cache read can be predicted"
		}
	}
	return v
}

// seqRun is the arrays (chain, cumTok, cumLen, block) that views of
// requests extending one another share: used is how many elements of them
// the view that extended them last holds; the elements after are written
// by the next view that extends that one, and no other.
type seqRun struct{ used int }

// fixHashes sets the hash of each segment from i on that has none.
func (v *seqView) fixHashes(i int) {
	for ; i < len(v.segs); i++ {
		if s := &v.segs[i]; s.Hash == 0 && s.Text != "" {
			s.Hash = wire.HashText(s.Text)
		}
	}
}

// partOf is the part a segment was cut from (its ID when not cut).
func partOf(s *wire.Segment) string {
	if s.Part == "" {
		return s.ID
	}
	return s.Part
}

// hostPrefix sizes the host prefix a recording leaves out (no segment of
// the system channel or the tools): the recorded input tokens less the
// estimate of what the file holds. With no usage to size it, no prediction
// can be made: whether the prefix reaches the provider's minimum, and how
// much of a read it makes, is not known.
func (v *seqView) hostPrefix() {
	v.hidden, v.unavailable, v.leftOut = 0, "", false
	for i := range v.segs {
		if v.segs[i].Channel != wire.ChannelMessages {
			return // the host prefix is in the file
		}
	}
	v.leftOut = true
	u := v.req.Usage
	switch {
	case u == nil || u.CachedUnknown:
		v.unavailable = "the system prompt and tools are not recorded, and no recorded input tokens give their size: " +
			"no cache read can be predicted"
		return
	case u.InputTokens <= v.scaled(v.tokens()):
		v.unavailable = "the system prompt and tools are not recorded, and the recorded input tokens are no more than " +
			"the estimate of what the file holds, so they do not give their size: no cache read can be predicted"
		return
	}
	v.hidden = u.InputTokens - v.scaled(v.tokens())
}

// hostLeftOut reports whether the recording leaves out a host prefix whose
// size the recorded input gives (the agent's policy places breakpoints).
func (v *seqView) hostLeftOut() bool { return v.leftOut }

// chainHash extends the identity of a prefix by one segment: its text,
// channel, role and whether it starts a part (what sameSeg compares).
func chainHash(before uint64, s *wire.Segment) uint64 {
	h := before ^ 0x9e3779b97f4a7c15
	mix := func(x uint64) {
		h ^= x
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	mix(s.Hash)
	mix(uint64(len(s.Text)))
	mix(uint64(s.Channel.CacheRank()))
	for i := 0; i < len(s.Role); i++ {
		mix(uint64(s.Role[i]))
	}
	if s.Start == 0 {
		mix(1)
	}
	return h
}

// cacheOrdered returns r's segments in cache order: the request's own slice
// when it is already in that order (the usual case, and at is nil), else a
// reordered copy, and at[i] the place in it of r.Segments[i].
func cacheOrdered(r *wire.Request) (segs []wire.Segment, at []int) {
	rank := 0
	for i := range r.Segments {
		k := r.Segments[i].Channel.CacheRank()
		if k < rank {
			order := r.CacheIndex()
			at = make([]int, len(order))
			for j, i := range order {
				at[i] = j
			}
			return r.SegmentsAt(order), at
		}
		rank = k
	}
	return r.Segments, nil
}

func (v *seqView) tokens() int { return v.tokensTo(len(v.segs)) }

// has reports whether the request holds a segment of channel ch.
func (v *seqView) has(ch wire.Channel) bool {
	for i := range v.segs {
		if v.segs[i].Channel == ch {
			return true
		}
	}
	return false
}

// name is how reports name the request: "file@N".
func (v *seqView) name() string { return v.req.Source + "@" + strconv.Itoa(v.req.Index) }
func (v *seqView) bytes() int {
	if len(v.segs) == 0 {
		return 0
	}
	return v.cumLen[len(v.segs)-1]
}

// tokensTo is the tokens of segs[:n].
func (v *seqView) tokensTo(n int) int {
	if n <= 0 {
		return 0
	}
	return v.cumTok[n-1]
}

func (v *seqView) bytesTo(n int) int {
	if n <= 0 {
		return 0
	}
	return v.cumLen[n-1]
}

// sameSeg reports whether two segments put the same bytes on the wire:
// same text (by hash and length), same place and the same part boundary.
func sameSeg(a, b *wire.Segment) bool {
	return a.Hash == b.Hash && len(a.Text) == len(b.Text) && a.Channel == b.Channel && a.Role == b.Role &&
		(a.Start == 0) == (b.Start == 0)
}

// Sequence compares each request, as they arrive, with the earlier request
// of the same provider, endpoint host and model whose prefix it shares the
// most: the last request of each lane is kept (a lane is the requests that
// share their stable prefix: the main agent, a subagent, title requests), so
// a main agent's request is compared with the main agent's last one, not
// with a subagent's sent in between. The provider's cache is modelled as a
// store of the prefixes earlier requests wrote, each with its lifetime from
// its last use (5 minutes, or 1 hour), so a prefix that has expired when a
// request comes is not read. The first request of a model has no
// predecessor of its model: it is compared with the request just before it,
// and the break names the change of model (or provider).
type Sequence struct {
	// Consecutive compares each request with the request just before it,
	// whatever its model or lane (the earlier view: a break at every
	// switch).
	Consecutive bool
	// TTL, when above 0, is the lifetime of every write instead of the
	// recorded one (whatif --ttl).
	TTL time.Duration

	prev     *seqView                // the last request of any model
	lanesBy  map[uint64]*laneState   // the lanes by stable prefix
	keyLanes map[string][]*laneState // per cache key, its lanes with a head
	lanes    []*laneState            // in order of appearance
	main     *laneState              // the lane of the conversation, once known (lanes.go)
	mems     map[string]*cacheMemory // per cache key: their caches are apart
	scales   map[string]*scaler      // per provider family
	count    int
	sum      summaryAcc
	last     Lane // the lane of the request added last
}

// LastLane is the lane of the request added last.
func (q *Sequence) LastLane() Lane { return q.last }

// maxLaneCount bounds the lanes a sequence keeps apart; later stable
// prefixes share the lane "other".
const maxLaneCount = 256

// cacheKey names the cache a request reads: its provider, the host of its
// endpoint (when known), its model and its prompt_cache_key (OpenAI routes
// by it).
func cacheKey(r *wire.Request) string {
	return Provider(r.Format, r.Model) + "\x00" + endpointHost(r.Endpoint) + "\x00" + r.Model + "\x00" + r.CacheKey
}

// endpointHost is the host of a request's endpoint URL, "" when unknown.
func endpointHost(endpoint string) string {
	if endpoint == "" {
		return ""
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Add compares r with the earlier request of its model and provider it
// shares the most with (the request just before it with Consecutive) and
// returns the step, or nil for the first request of the sequence.
func (q *Sequence) Add(r *wire.Request) *Step {
	q.count++
	key := cacheKey(r)
	sig, tools := laneSignature(r, key)
	ln := q.findLane(sig)
	first := false
	if q.mems == nil {
		q.mems = map[string]*cacheMemory{}
	}
	mem := q.mems[key]
	if mem == nil {
		mem = newCacheMemory()
		q.mems[key] = mem
	}
	var prev *seqView
	var cur *seqView
	if q.Consecutive {
		prev = q.prev
		cur = newSeqView(r, prev)
	} else {
		var hint *seqView
		if ln != nil {
			hint = ln.head
		}
		heads := q.keyLanes[key]
		if hint == nil && len(heads) > 0 {
			hint = heads[len(heads)-1].head
		}
		if hint == nil {
			hint = q.prev
		}
		cur = newSeqView(r, hint)
		// The head this request shares the most with; its own lane's on a
		// tie.
		best := -1
		var bestLane *laneState
		for _, l := range heads {
			n := sharedTokens(l.head, cur)
			if n > best || (n == best && l == ln) {
				best, prev, bestLane = n, l.head, l
			}
		}
		if ln == nil && bestLane != nil && sameLane(prev, cur) {
			// Another stable prefix that starts with most of a lane's
			// (a system prompt edited past its first line): that lane.
			ln = bestLane
			q.lanesBy[sig] = ln
		}
		if prev == nil {
			prev = q.prev // the first of its model: compared across models
		}
	}
	if ln == nil {
		ln, first = q.newLane(sig, tools, r), true
	}
	lanePrev := ln.head
	if q.Consecutive {
		lanePrev = nil // no lane keeps its last request
	}
	q.calibrate(cur, lanePrev)
	if cur.policy != nil {
		cur.hostPrefix() // again, at the calibrated scale
	}
	q.prev = cur
	mem.sizeHostPrefix(cur)
	mem.sweep(cur.at)
	mem.restart(cur.at, q.keyLanes[key])
	var st *Step
	cur.lane = ln
	ln.Requests++
	q.settleOn(ln)
	if prev != nil {
		// A new lane starts its own cache and breaks nothing; the same
		// agent's lane for another model (main@haiku) is a model switch.
		laneFirst := first && !q.Consecutive && (cacheKey(prev.req) == key || !ln.sibling)
		st = compareViews(prev, cur, mem, laneFirst, q.TTL)
		st.Lane = ln.Lane
		if prev.lane != nil {
			st.PrevLane = prev.lane.Lane
		}
		ln.Compared++
		ln.PrefixTokens += st.PrefixTokens
		ln.TotalTokens += st.TotalTokens
		if st.Break != nil {
			ln.Breaks++
			ln.ReprocessedTokens += st.Reprocessed
		}
		if st.Expired != nil {
			ln.Expiries++
		}
		q.sum.add(st)
	}
	q.last = ln.Lane
	if !q.Consecutive {
		q.setHead(ln, key, cur)
	}
	mem.remember(cur, writeLifetime(cur, mem.ttl, q.TTL))
	return st
}

// findLane is the lane of stable prefix sig, nil when it has none yet.
func (q *Sequence) findLane(sig uint64) *laneState {
	if q.lanesBy == nil {
		q.lanesBy = map[uint64]*laneState{}
		q.keyLanes = map[string][]*laneState{}
	}
	if l := q.lanesBy[sig]; l != nil {
		return l
	}
	if len(q.lanes) >= maxLaneCount {
		return q.lanesBy[0]
	}
	return nil
}

// sameLane reports whether cur, of another stable prefix than prev, still
// starts with at least half of prev's stable part (tools and system), or of
// its own when shorter: a lane whose system prompt was edited, not another
// agent.
func sameLane(prev, cur *seqView) bool {
	stable := min(prev.stableBytes(), cur.stableBytes())
	if stable == 0 {
		return false
	}
	return 2*min(sharedBytes(prev, cur), stable) >= stable
}

// stableBytes is the bytes of v's tools and system prompt.
func (v *seqView) stableBytes() int {
	n := 0
	for n < len(v.segs) && v.segs[n].Channel != wire.ChannelMessages {
		n++
	}
	return v.bytesTo(n)
}

// sharedSegments is how many whole segments a and b start with in common:
// their chain hashes agree up to the first difference, so a binary search
// finds it.
func sharedSegments(a, b *seqView) int {
	lo, hi := 0, min(len(a.chain), len(b.chain))
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if a.chain[mid-1] == b.chain[mid-1] {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// sharedBytes is the bytes a and b start with in common: the whole
// segments, and the common start of the next when it is in the same place.
func sharedBytes(a, b *seqView) int {
	lo := sharedSegments(a, b)
	n := a.bytesTo(lo)
	if lo < len(a.segs) && lo < len(b.segs) {
		sa, sb := &a.segs[lo], &b.segs[lo]
		if sa.Channel == sb.Channel && sa.Role == sb.Role {
			n += commonPrefixLen(sa.Text, sb.Text)
		}
	}
	return n
}

// shortModel is a model's name without its provider's family prefix and
// its date: "claude-haiku-4-5-20251001" is "haiku-4-5".
func shortModel(m string) string {
	m = strings.TrimPrefix(strings.ToLower(m), "claude-")
	if i := strings.LastIndexByte(m, '-'); i > 0 && len(m)-i == 9 {
		if _, err := strconv.Atoi(m[i+1:]); err == nil {
			m = m[:i]
		}
	}
	if len(m) > 24 {
		m = m[:24]
	}
	return m
}

// setHead makes cur the last request of lane l, the most recent of its
// cache key's lanes; the least recent gives way past maxLanes.
func (q *Sequence) setHead(l *laneState, key string, cur *seqView) {
	heads := q.keyLanes[key]
	if i := slices.Index(heads, l); i >= 0 {
		heads = slices.Delete(heads, i, i+1)
	}
	heads = append(heads, l)
	if len(heads) > maxLanes {
		heads[0].head = nil
		heads = slices.Delete(heads, 0, 1)
	}
	l.head = cur
	q.keyLanes[key] = heads
}

// sharedTokens is the estimated tokens of the whole segments a and b start
// with in common (by their chain hashes, which agree up to the first
// difference).
func sharedTokens(a, b *seqView) int {
	lo := sharedSegments(a, b)
	return a.tokensTo(lo)
}

// Compare compares cur with prev (the request sent before it).
func Compare(prev, cur *wire.Request) *Step {
	p := newSeqView(prev, nil)
	mem := newCacheMemory()
	c := newSeqView(cur, p)
	if cacheKey(prev) == cacheKey(cur) {
		mem.sizeHostPrefix(p)
		mem.remember(p, writeLifetime(p, 0, 0))
	}
	mem.sizeHostPrefix(c)
	return compareViews(p, c, mem, false, 0)
}

// compareViews compares cur with prev. laneFirst says cur starts a lane of
// prev's model: what it shares with prev is reported, but it breaks
// nothing. ttl overrides the lifetime of the entries cur refreshes.
func compareViews(prev, cur *seqView, mem *cacheMemory, laneFirst bool, ttl time.Duration) *Step {
	r := cur.req
	st := &Step{Source: r.Source, Index: r.Index, Line: r.Line, Format: r.Format, Model: r.Model,
		PrevSource: prev.req.Source, PrevIndex: prev.req.Index, PrevModel: prev.req.Model, Rule: cur.rule,
		TotalTokens: cur.tokens(), TotalBytes: cur.bytes(), PrevTokens: prev.tokens(), At: r.At,
		LaneFirst: laneFirst, Scale: max(cur.scale, 0)}
	if st.Scale == 0 {
		st.Scale = 1
	}
	st.SizeTokens = cur.scaled(st.TotalTokens) + cur.hidden
	if !r.At.IsZero() && !prev.req.At.IsZero() {
		st.Idle, st.HasIdle = r.At.Sub(prev.req.At), true
	}

	n, brk := commonPrefix(prev, cur)
	if laneFirst {
		brk = nil
		st.Notes = append(st.Notes, "the first request of its lane: it starts the lane's cache, it breaks nothing")
	}
	st.TextPrefixTokens, st.PrefixTokens, st.PrefixBytes = n.tokens, n.tokens, n.bytes
	st.Break = brk

	prevProv, curProv := prev.rule.Provider, cur.rule.Provider
	prevHost, curHost := endpointHost(prev.req.Endpoint), endpointHost(r.Endpoint)
	switched := true
	switch {
	case laneFirst:
		// A lane's first request breaks nothing, whatever model or cache
		// it goes to: it starts that lane's cache.
		switched = false
	case prevProv != curProv:
		st.Break = modelBreak(cur, CauseProvider, prevProv+" "+prev.req.Model, curProv+" "+r.Model)
	case prevHost != "" && curHost != "" && prevHost != curHost:
		// The same provider's model behind another endpoint (a gateway, a
		// cloud's copy): its cache is that endpoint's.
		st.Break = modelBreak(cur, CauseProvider, prevHost+" "+prev.req.Model, curHost+" "+r.Model)
	case prev.req.Model != "" && r.Model != "" && prev.req.Model != r.Model:
		st.Break = modelBreak(cur, CauseModel, prev.req.Model, r.Model)
	case prev.req.CacheKey != r.CacheKey:
		st.Break = modelBreak(cur, CauseCacheKey, strconv.Quote(prev.req.CacheKey), strconv.Quote(r.CacheKey))
	default:
		switched = false
	}
	if switched {
		st.TextBreak = brk
		st.PrefixTokens, st.PrefixBytes = 0, 0
	}
	switch {
	case switched:
		// What the two requests share by text is processed again under
		// the other model's cache.
		st.Reprocessed = st.TextPrefixTokens
	case st.Break != nil:
		// Everything after the break is processed again.
		st.Reprocessed = max(0, st.TotalTokens-st.PrefixTokens)
	}
	if r.Format != prev.req.Format && prev.req.Format != "" && r.Format != "" {
		st.Notes = append(st.Notes, "format changed from "+string(prev.req.Format)+" to "+string(r.Format))
	}
	if pu := prev.req.Usage; pu != nil {
		in := pu.InputTokens
		st.PrevRecordedInput = &in
	}
	st.Prediction = predict(mem, prev, cur, st.PrefixTokens, ttl)
	st.Expired = st.Prediction.Expired
	if e := st.Expired; e != nil {
		st.Notes = append(st.Notes, fmt.Sprintf("%s: the prefix of %s tokens written by %s had expired and was written again",
			e.Sentence(), wire.GroupDigits(e.Tokens), e.From))
	}
	st.Notes = append(st.Notes, st.Prediction.Notes...)
	if st.Prediction.Unavailable != "" {
		st.Notes = append(st.Notes, st.Prediction.Unavailable)
	}
	if r.Verdict != nil {
		v := *r.Verdict
		st.Verdict = &v
		st.VerdictOutcome = judgeVerdict(&v, Attribution(st), func(ch wire.Channel) bool {
			return prev.has(ch) && cur.has(ch)
		})
	}
	if r.Usage != nil && !r.Usage.CachedUnknown {
		rec := r.Usage.CachedTokens
		st.Recorded = &rec
		if st.Prediction.Unavailable == "" {
			st.Disagreement = disagreement(st.Prediction.Cached, rec, cur.scaled(st.TotalTokens)+cur.hidden, cur.rule)
		}
	}
	return st
}

// modelBreak is a break at the very start: the provider keeps one cache
// per model, so nothing of the previous request is reused.
func modelBreak(cur *seqView, cause BreakCause, from, to string) *Break {
	b := &Break{Cause: cause, Before: from, After: to}
	if len(cur.segs) > 0 {
		s := &cur.segs[0]
		b.Segment, b.Channel, b.Kind, b.Label = s.ID, s.Channel, s.Kind, strings.Clone(s.Label)
	}
	return b
}

// shared is the extent of a common prefix.
type shared struct {
	segs   int // whole segments identical
	tokens int
	bytes  int
}

// commonPrefix finds how much of prev cur starts with, in cache order, and
// the break when it does not start with all of it.
func commonPrefix(prev, cur *seqView) (shared, *Break) {
	a, b := prev.segs, cur.segs
	i := 0
	if len(a) > 0 && len(b) > 0 && &a[0] == &b[0] {
		// One array (a request that extends the one before): the same
		// segments as far as both go, not compared one by one.
		i = min(len(a), len(b))
	}
	for i < len(a) && i < len(b) && sameSeg(&a[i], &b[i]) {
		i++
	}
	n := shared{segs: i, tokens: prev.tokensTo(i), bytes: prev.bytesTo(i)}
	if i == len(a) {
		return n, nil
	}
	if i == len(b) {
		// cur ends where prev went on: prev's segment i is gone.
		s := &a[i]
		return n, &Break{Segment: s.ID, Channel: s.Channel, Kind: s.Kind, Label: strings.Clone(s.Label), Position: i,
			Before: excerpt(s.Text, 0), Cause: CauseRemoved}
	}
	sa, sb := &a[i], &b[i]
	if sa.Channel != sb.Channel {
		// One request has more segments in the earlier channel.
		if sa.Channel.CacheRank() < sb.Channel.CacheRank() {
			return n, &Break{Segment: sa.ID, Channel: sa.Channel, Kind: sa.Kind, Label: strings.Clone(sa.Label), Position: i,
				Before: excerpt(sa.Text, 0), After: excerpt(sb.Text, 0), Cause: CauseRemoved}
		}
		return n, &Break{Segment: sb.ID, Channel: sb.Channel, Kind: sb.Kind, Label: strings.Clone(sb.Label), Position: i,
			Before: excerpt(sa.Text, 0), After: excerpt(sb.Text, 0), Cause: CauseAdded}
	}
	off := 0
	if sa.Role == sb.Role && (sa.Start == 0) == (sb.Start == 0) {
		off = commonPrefixLen(sa.Text, sb.Text)
		if off == len(sa.Text) && i == len(a)-1 {
			// prev's last segment goes on in cur: cur starts with all of prev.
			return shared{segs: i, tokens: prev.tokens(), bytes: prev.bytes()}, nil
		}
	}
	brk := &Break{Segment: sb.ID, Channel: sb.Channel, Kind: sb.Kind, Label: strings.Clone(sb.Label), Position: i,
		Offset: off, Before: excerpt(sa.Text, off), After: excerpt(sb.Text, off),
		Cause: changeCause(a, b, i)}
	brk.Volatile = volatileAtBreak(sa.Text, sb.Text, off)
	if brk.Cause == CauseChanged && sb.Channel == wire.ChannelTools && sb.Kind == wire.KindToolSchema && sa.Label == sb.Label {
		brk.Rule, brk.Server = audit.RuleToolChanged, strings.Clone(sb.Server)
	}
	if off > 0 {
		n.tokens += partialTokens(sb, off)
		n.bytes += off
	}
	return n, brk
}

// changeCause tells an edit from an insertion, a removal or a reordering
// at position i, by looking for each side's segment later in the other.
func changeCause(a, b []wire.Segment, i int) BreakCause {
	inLater := func(h uint64, segs []wire.Segment, from int, ch wire.Channel) bool {
		for j := from; j < len(segs); j++ {
			if segs[j].Hash == h && segs[j].Channel == ch {
				return true
			}
		}
		return false
	}
	ch := b[i].Channel
	prevLater := inLater(a[i].Hash, b, i+1, ch) // prev's segment is still there, later
	curEarlier := inLater(b[i].Hash, a, i+1, ch)
	switch {
	case prevLater && curEarlier:
		return CauseReordered
	case prevLater:
		return CauseAdded
	case curEarlier:
		return CauseRemoved
	}
	return CauseChanged
}

// commonPrefixLen is the length of the common byte prefix of a and b, moved
// back to the start of a UTF-8 sequence.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	// Compare eight bytes at a time while they agree.
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// partialTokens estimates the tokens of s.Text[:off]. Short prefixes are
// counted (and cached by content, so a break that stays in the same place
// costs nothing the next time); long ones are estimated in proportion to
// the segment's own count, which is already cached under its hash.
func partialTokens(s *wire.Segment, off int) int {
	const countUpTo = 256 << 10
	if off <= countUpTo {
		return wire.CountTokens(s.Text[:off])
	}
	return int(int64(s.Tokens()) * int64(off) / int64(len(s.Text)))
}

// volatileAtBreak names the changing value a break at off falls in, in
// either text; a break between two digit runs with no other name is a
// counter.
func volatileAtBreak(a, b string, off int) scan.VolatileKind {
	for _, t := range []string{a, b} {
		if v, ok := scan.VolatileAt(t, off); ok {
			return v.Kind
		}
		// The first differing byte may follow the value's last shared byte
		// (a number that grew a digit).
		if off > 0 {
			if v, ok := scan.VolatileAt(t, off-1); ok && v.End >= off {
				return v.Kind
			}
		}
	}
	digitAt := func(s string, i int) bool { return i >= 0 && i < len(s) && scan.IsDigit(s[i]) }
	if (digitAt(a, off) || digitAt(a, off-1)) && (digitAt(b, off) || digitAt(b, off-1)) &&
		(digitAt(a, off) || digitAt(b, off)) {
		return scan.VolatileCounter
	}
	return ""
}

// excerpt is up to excerptLen bytes each side of off, cut at UTF-8
// boundaries: a copy, so that a break kept for a report does not hold the
// whole text it was cut from (nor does its label).
func excerpt(s string, off int) string {
	if off > len(s) {
		off = len(s)
	}
	from := max(0, off-excerptLen)
	for from > 0 && from < len(s) && !utf8.RuneStart(s[from]) {
		from--
	}
	to := min(len(s), off+excerptLen)
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	return strings.Clone(s[from:to])
}
