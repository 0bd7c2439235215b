package diff

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"github.com/wirelens/wirelens/wire"
)

// The provider's cache as a store of prefixes with lifetimes: each entry is
// the identity (a chain hash, never the text) of a prefix an earlier request
// wrote, when it was last written or read, and how long it lives after
// that. A request reads the longest live entry it starts with; an entry past
// its lifetime is expired and is dropped when the store is swept.

// Lifetimes of a cache entry after its last use (Anthropic's 5-minute
// default and 1-hour cache_control ttl; OpenAI documents 5 to 10 minutes of
// inactivity, up to an hour off-peak; Gemini's implicit cache and Moonshot's
// state no figure, taken as 5 minutes).
const (
	Lifetime5m = 5 * time.Minute
	Lifetime1h = time.Hour
)

// Expiry is a prefix that had been written but had expired when a request
// would have read it.
type Expiry struct {
	// Lifetime is the entry's lifetime, Idle the time since its last use.
	Lifetime, Idle time.Duration
	// Tokens is the estimated tokens of the expired prefix beyond what the
	// request still read live.
	Tokens int
	// From names the request that wrote it ("file@N").
	From string
}

// Sentence says it in words: "idle 6m12s, past the 5-minute lifetime".
func (e *Expiry) Sentence() string {
	return "idle " + Duration(e.Idle) + ", past the " + lifetimeWords(e.Lifetime) + " lifetime"
}

func lifetimeWords(d time.Duration) string {
	switch d {
	case Lifetime5m:
		return "5-minute"
	case Lifetime1h:
		return "1-hour"
	}
	return Duration(d)
}

// Duration writes d to the second, as "6m12s", "1h02m", "45s".
func Duration(d time.Duration) string {
	s := int64(math.Round(d.Seconds()))
	if s < 0 {
		return "-" + Duration(-d)
	}
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
}

// live reports whether an entry last used at used (Unix nanoseconds, 0 when
// unknown) with lifetime ttl is still alive at at (0 when unknown): without
// times nothing expires.
func live(used int64, ttl time.Duration, at int64) bool {
	return at == 0 || used == 0 || at-used <= int64(ttl)
}

// unixNano is t in Unix nanoseconds, 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// writeLifetime is how long what request v writes lives: an hour when a
// breakpoint asks for it or the recorded usage shows 1-hour writes only, the
// lifetime last seen for the model when the request says nothing (it wrote
// nothing), else 5 minutes. override, when above 0, is used instead.
func writeLifetime(v *seqView, last, override time.Duration) time.Duration {
	if override > 0 {
		return override
	}
	r := v.req
	if r.CacheTTL1h {
		return Lifetime1h
	}
	if u := r.Usage; u != nil && u.CacheWriteTokens > 0 {
		if u.CacheWrite1hTokens >= u.CacheWriteTokens {
			return Lifetime1h
		}
		return Lifetime5m
	}
	if last > 0 {
		return last
	}
	return Lifetime5m
}

// sweep drops the expired entries of m when it has grown: the store holds
// the live prefixes, not every prefix ever sent.
func (m *cacheMemory) sweep(at int64) {
	if at == 0 || len(m.entries)+len(m.prefixes) < m.sweepAt {
		return
	}
	for k, e := range m.entries {
		if !live(e.used, e.lifetime(), at) {
			delete(m.entries, k)
		}
	}
	for k, e := range m.prefixes {
		if !live(e.used, e.lifetime(), at) {
			delete(m.prefixes, k)
		}
	}
	m.sweepAt = max(4096, 2*(len(m.entries)+len(m.prefixes)))
}

// untimedEntries is the most entries the store holds for one cache key
// when the requests' times are not recorded, so that nothing expires: past
// it the store starts again from the last request of each of the key's
// lanes (what a provider would still hold: it keeps a prefix for minutes,
// not for the 100,000 requests after it). Memory stays bounded on any
// session, at about 32 bytes an entry.
var untimedEntries = 1 << 18 // a variable for the tests

// restart empties m and writes again what the lanes' last requests left in
// the cache, when m has grown past untimedEntries without times.
func (m *cacheMemory) restart(at int64, heads []*laneState) {
	if at != 0 || len(m.entries)+len(m.prefixes) < untimedEntries {
		return
	}
	clear(m.entries)
	clear(m.prefixes)
	for _, l := range heads {
		if l.head != nil {
			m.remember(l.head, m.ttl)
		}
	}
	m.restarts++
}

// scaler calibrates the o200k estimates to a provider family's recorded
// input tokens: the median of per-request ratios, kept as a histogram of
// their logarithms so that it takes the same memory whatever the session's
// length. Where the recording leaves out a host prefix of unknown size (the
// recorded input is that prefix plus the estimate of what the file holds),
// the ratio is that of the growth of the recorded input to the growth of the
// estimate between two requests of a lane.
type scaler struct {
	hist [scaleBins]int32
	n    int
}

// The histogram spans ratios from 1/4 to 4 in steps of about 0.5%.
const (
	scaleBins = 560
	scaleLog  = 1.3862943611198906 // ln 4
)

func (s *scaler) add(ratio float64) {
	if !(ratio > 0) || math.IsInf(ratio, 0) {
		return
	}
	x := (math.Log(ratio) + scaleLog) / (2 * scaleLog) * scaleBins
	i := int(math.Max(0, math.Min(scaleBins-1, x)))
	s.hist[i]++
	s.n++
}

// median is the median ratio, 1 when none was added.
func (s *scaler) median() float64 {
	if s.n == 0 {
		return 1
	}
	half := (s.n + 1) / 2
	c := 0
	for i, h := range s.hist {
		c += int(h)
		if c >= half {
			return math.Exp((float64(i)+0.5)/scaleBins*2*scaleLog - scaleLog)
		}
	}
	return 1
}

// Scale is the factor the estimates of a sequence's provider family with
// the most recorded usage are calibrated by (1 when none was recorded), and
// how many requests it was fitted on.
func (q *Sequence) Scale() (float64, int) {
	best, n := 1.0, 0
	for _, s := range q.scales {
		if s.n > n {
			best, n = s.median(), s.n
		}
	}
	return math.Round(best*1000) / 1000, n
}

// calibrate adds cur's recorded input to the scale of its family and sets
// cur.scale. prev is the last request of cur's lane, for the growth ratio.
func (q *Sequence) calibrate(cur, prev *seqView) {
	if q.scales == nil {
		q.scales = map[string]*scaler{}
	}
	s := q.scales[cur.rule.Provider]
	if s == nil {
		s = &scaler{}
		q.scales[cur.rule.Provider] = s
	}
	u := cur.req.Usage
	if u != nil && !u.CachedUnknown && u.InputTokens > 0 {
		switch {
		case cur.hostLeftOut():
			if prev != nil && prev.req.Usage != nil && !prev.req.Usage.CachedUnknown {
				dIn := u.InputTokens - prev.req.Usage.InputTokens
				dEst := cur.tokens() - prev.tokens()
				if dEst >= minGrowth && dIn > 0 {
					s.add(float64(dIn) / float64(dEst))
				}
			}
		case cur.tokens() > 0:
			s.add(float64(u.InputTokens) / float64(cur.tokens()))
		}
	}
	cur.scale = s.median()
}

// minGrowth is the least growth of the estimate, in tokens, a growth ratio
// is taken from (a smaller one is mostly the tokenizers' noise).
const minGrowth = 256

// scaled is n estimated tokens in the provider's tokens.
func (v *seqView) scaled(n int) int {
	if v.scale == 0 || v.scale == 1 {
		return n
	}
	return int(math.Round(float64(n) * v.scale))
}

// Lane is a group of the requests of a session that share their stable
// prefix (the tools, and the start of the system prompt): the main agent,
// each kind of subagent, title or summary requests. Each request reads the
// cache its lane wrote (or any earlier request's); a lane's first request
// starts the lane, it breaks nothing.
type Lane struct {
	// Name is a short name (lanes.go): main, subagent:N, title, summary,
	// classifier, oneshot:N, main@MODEL.
	Name string
	// ID is a stable id of the lane's stable prefix (hex).
	ID string
	n  int // the lane's number in its sequence, from 1 (0: none)
}

// laneState is a lane of a sequence: its last request and what it came to.
type laneState struct {
	Lane
	head  *seqView
	tools bool
	shape uint64 // laneShape of its first request
	// sibling: the same agent's lane for another model (its first request
	// is a model switch, not a new lane's start); sibOf is that lane.
	sibling bool
	sibOf   *laneState
	model   string
	other   bool   // the lane of the stable prefixes past maxLaneCount
	purpose string // what a lane without tools says it does (lanePurpose)
	LaneTotals
}

// LaneTotals is what one lane's requests came to.
type LaneTotals struct {
	Lane
	Requests          int
	Compared          int
	PrefixTokens      int
	TotalTokens       int
	Breaks            int
	Expiries          int
	ReprocessedTokens int
}

// ReuseRatio is the lane's prefix tokens over its total tokens.
func (t LaneTotals) ReuseRatio() float64 {
	if t.TotalTokens == 0 {
		return 0
	}
	return float64(t.PrefixTokens) / float64(t.TotalTokens)
}

// maxLanes is how many lanes of one cache key keep their last request to be
// compared with; the least recent one gives way.
const maxLanes = 16

// laneSignature identifies the stable prefix of r: its cache key, how many
// tools it has, and the first line or so of its system prompt, digits
// masked (a date in it does not make another lane).
// It is the same in every run (not wire.HashText, which is seeded per
// process): the lane's id, printed by cache, is derived from it.
func laneSignature(r *wire.Request, key string) (sig uint64, tools bool) {
	h := fnv.New64a()
	h.Write([]byte(key))
	x := laneShape(r) ^ h.Sum64()
	// splitmix64's finaliser: every bit of the key reaches the id's.
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31, tools0(r)
}

// tools0 reports whether r has tools.
func tools0(r *wire.Request) bool {
	for i := range r.Segments {
		if r.Segments[i].Channel == wire.ChannelTools {
			return true
		}
	}
	return false
}

// laneShape is the stable prefix's identity whatever the model: the same
// agent's requests to another model have the same shape.
func laneShape(r *wire.Request) uint64 {
	h := uint64(0x51ed270b27e3c1d5)
	mix := func(x uint64) {
		h ^= x
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	const head = 64
	sys, ntools := 0, 0
	for i := range r.Segments {
		s := &r.Segments[i]
		switch s.Channel {
		case wire.ChannelTools:
			// How many tools, not which: tools changed or reordered are a
			// break of the lane (tool-changed), not another lane; a tool
			// added makes another stable prefix that starts with most of
			// the lane's (Sequence.Add keeps it in the lane).
			if s.Start == 0 {
				ntools++
			}
		case wire.ChannelSystem:
			for j := 0; j < len(s.Text) && sys < head; j++ {
				c := s.Text[j]
				if c >= '0' && c <= '9' {
					c = '0'
				}
				mix(uint64(c))
				sys++
			}
		}
	}
	mix(uint64(ntools))
	return h
}
