package diff

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Prediction is what the provider's cache rules predict for one request,
// given the requests of the same model before it.
type Prediction struct {
	// Cached is the predicted cache read, in estimated tokens.
	Cached int
	// CacheWrite is the predicted cache write (explicit caching only).
	CacheWrite int
	// From names the earlier request ("file@N") whose cached prefix the
	// read comes from, "" when nothing is read.
	From string
	// Notes explain a prediction of nothing, or a request the provider
	// would refuse.
	Notes []string
	// Unavailable, when not "", says why no prediction can be made (the
	// provider caches only at breakpoints and the recording keeps none, nor
	// is the agent's policy known): Cached and CacheWrite are then 0 for
	// want of data and mean nothing.
	Unavailable string
	// Policy names the agent's breakpoint policy the prediction applied
	// where the recording keeps no breakpoints ("Claude Code 2.1"), or "".
	Policy string
	// FromSource and FromIndex name the request From names.
	FromSource string
	FromIndex  int
	// Expired is the longer prefix the request would have read had it not
	// expired, nil when none had.
	Expired *Expiry
	// NeverWritten, when not "", says why the prefix the request shares
	// with an earlier one was never written to the cache ("below the
	// 1024-token minimum", "no cache_control breakpoint: nothing written").
	NeverWritten string
}

// from sets the request the read comes from.
func (p *Prediction) from(m *cacheMemory, h memHit) {
	p.From, p.FromSource, p.FromIndex = m.from(h), m.sources[h.src], int(h.index)
}

// memHit is a cached prefix: its tokens and the request that put it there
// (named when a prediction reads it: one entry is kept for every prefix
// sent, so it holds no string of its own).
type memHit struct {
	tokens int32
	index  int32
	// real is the prefix's size in the provider's tokens where a record
	// gives it (the entry ends where the request that wrote it ended, and
	// that request recorded its input tokens), else 0: observed beats
	// estimated.
	real int32
	// ttl is the entry's lifetime in seconds after its last use, used when
	// that was (Unix nanoseconds, 0 when unknown).
	ttl  int32
	src  uint32 // the source of the request, by number (cacheMemory.sources)
	used int64
}

// lifetime is the entry's lifetime.
func (h memHit) lifetime() time.Duration { return time.Duration(h.ttl) * time.Second }

// size is the entry's size in the provider's tokens: the recorded one, or
// the estimate scaled by v's calibration plus v's unrecorded host prefix.
func (h memHit) size(v *seqView, est int) int {
	if h.real > 0 {
		return int(h.real)
	}
	return v.scaled(est) + v.hidden
}

// from names the request that put the prefix in the cache: "file@N".
func (m *cacheMemory) from(h memHit) string {
	return m.sources[h.src] + "@" + strconv.Itoa(int(h.index))
}

// source is the number of a request's source, added when new.
func (m *cacheMemory) source(s string) uint32 {
	if id, ok := m.srcID[s]; ok {
		return id
	}
	if m.srcID == nil {
		m.srcID = map[string]uint32{}
	}
	id := uint32(len(m.sources))
	m.sources = append(m.sources, s)
	m.srcID[s] = id
	return id
}

// tok is a count of tokens as an entry keeps it.
func tok(n int) int32 { return int32(min(n, math.MaxInt32)) }

// cacheMemory is what a provider holds for one model after the requests
// seen so far: every prefix sent (automatic caching) or the entries written
// at cache_control breakpoints (explicit caching). Entries are taken to be
// alive until their lifetime has passed since their last use, where the
// requests' times are recorded; without times nothing expires.
type cacheMemory struct {
	prefixes map[uint64]memHit
	entries  map[uint64]memHit
	// hidden is the least size seen of a host prefix the recording leaves
	// out (see seqView.hidden): the same system prompt and tools go with
	// every request of a model, and the least excess of the recorded input
	// over the estimate of the file is the one least swollen by the
	// tokenizers' difference on the conversation.
	hidden int
	// ttl is the lifetime of the last write seen; sweepAt the size of the
	// store at which expired entries are dropped next.
	ttl     time.Duration
	sweepAt int
	// restarts counts the times the store started again (restart).
	restarts int
	// sources are the entries' sources, each once.
	sources []string
	srcID   map[string]uint32
	// words are the notes predictExplicit wrote last for this cache: the
	// next request of the cache says the same, and takes them.
	words predictWords
}

// predictWords are notes of a prediction, with what they were made of.
type predictWords struct {
	policy     BreakpointPolicy
	policyName string
	policyNote string
	hidden     int
	hiddenNote string
	policyMade bool
	hiddenMade bool
}

// sizeHostPrefix gives v the size of the unrecorded host prefix: the least
// seen so far for its model.
func (m *cacheMemory) sizeHostPrefix(v *seqView) {
	if v.hidden <= 0 {
		return
	}
	if m.hidden == 0 || v.hidden < m.hidden {
		m.hidden = v.hidden
	}
	v.hidden = m.hidden
}

func newCacheMemory() *cacheMemory {
	return &cacheMemory{prefixes: map[uint64]memHit{}, entries: map[uint64]memHit{}}
}

// remember records what request v leaves in the cache, with lifetime
// ttl: the entries at its breakpoints (explicit caching) or every prefix it
// sent (automatic), each written or refreshed at the request's time. An
// entry keeps the request that first wrote it.
func (m *cacheMemory) remember(v *seqView, ttl time.Duration) {
	src, idx := m.source(v.req.Source), tok(v.req.Index)
	m.ttl = ttl
	recorded := 0 // the request's own recorded input: the size of its whole prefix
	if u := v.req.Usage; u != nil && !u.CachedUnknown {
		recorded = u.InputTokens
	}
	put := func(store map[uint64]memHit, k uint64, tokens, real int) {
		e, ok := store[k]
		if !ok || !live(e.used, e.lifetime(), v.at) {
			e = memHit{tokens: tok(tokens), index: idx, src: src}
		}
		if e.real == 0 {
			e.real = tok(real)
		}
		e.used, e.ttl = v.at, max(int32(ttl/time.Second), e.ttl)
		if !ok || v.at != 0 || e.used != 0 {
			store[k] = e
		}
	}
	if v.rule.Mode == CacheExplicit {
		if v.hidden >= v.rule.MinTokens && v.policy != nil && v.policy.System {
			// The unrecorded system prompt ends at a breakpoint: its
			// entry is the empty prefix of what the file holds.
			put(m.entries, hostEntry, v.hidden, 0)
		}
		for _, bp := range v.bps {
			if v.scaled(v.cumTok[bp])+v.hidden < v.rule.MinTokens {
				continue
			}
			real := 0
			if bp == len(v.segs)-1 {
				real = recorded
			}
			put(m.entries, v.chain[bp], v.cumTok[bp], real)
		}
		return
	}
	// The set of prefixes is closed under taking a shorter prefix: once
	// one is known, so are all before it. With times every prefix sent is
	// refreshed.
	for i := len(v.chain) - 1; i >= 0; i-- {
		e, ok := m.prefixes[v.chain[i]]
		if ok && v.at == 0 {
			break
		}
		if ok && e.used == v.at && e.lifetime() >= ttl {
			break // refreshed by this request already (a shorter one sent at the same time)
		}
		real := 0
		if i == len(v.chain)-1 {
			real = recorded
		}
		put(m.prefixes, v.chain[i], v.cumTok[i], real)
	}
}

// hostEntry keys the cache entry of a host prefix the recording leaves out
// (a chain hash is never 0 in practice: see chainHash).
const hostEntry uint64 = 0

// predict applies cur's cache rule. prefixTokens is what cur shares with
// prev, the request it is compared with (0 when that one was of another
// model); mem holds what the earlier requests of cur's model left in the
// cache, and the entries cur reads are refreshed.
func predict(mem *cacheMemory, prev, cur *seqView, prefixTokens int, ttl time.Duration) Prediction {
	rule := cur.rule
	var p Prediction
	if rule.Mode == CacheExplicit {
		return predictExplicit(mem, cur)
	}
	if rule.Step == 0 {
		p.Notes = append(p.Notes, rule.Note)
		return p
	}
	best, from := 0, memHit{}
	if prefixTokens > 0 && live(prev.at, mem.ttl, cur.at) {
		best, from = prefixTokens, memHit{tokens: tok(prefixTokens), index: tok(prev.req.Index), src: mem.source(prev.req.Source)}
	}
	// The longest run of leading segments some earlier request sent.
	lo, hi := 0, len(cur.chain)
	for lo < hi {
		mid := (lo + hi) / 2
		if _, ok := mem.prefixes[cur.chain[mid]]; ok {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	// The longest of them still alive (a shorter prefix may have been
	// used more recently, by another lane).
	var exp *memHit
	for j, tries := lo-1, 0; j >= 0 && tries < 64; j, tries = j-1, tries+1 {
		h := mem.prefixes[cur.chain[j]]
		if !live(h.used, h.lifetime(), cur.at) {
			if exp == nil {
				exp = &h
			}
			continue
		}
		if int(h.tokens) > best {
			best, from = int(h.tokens), h
		}
		break
	}
	size := from.size(cur, best)
	if best == 0 {
		size = 0
	}
	if exp != nil && int(exp.tokens) > best && exp.size(cur, int(exp.tokens)) >= rule.MinTokens {
		p.Expired = &Expiry{Lifetime: exp.lifetime(), Idle: time.Duration(cur.at - exp.used), From: mem.from(*exp),
			Tokens: max(0, exp.size(cur, int(exp.tokens))-size)}
	}
	if size < rule.MinTokens {
		if best > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("shared prefix of %d tokens is below the %d-token minimum of %s caching",
				size, rule.MinTokens, rule.Provider))
			p.NeverWritten = fmt.Sprintf("below the %d-token minimum", rule.MinTokens)
		}
		return p
	}
	p.from(mem, from)
	p.Cached = size
	if rule.Step > 1 {
		p.Cached = p.Cached / rule.Step * rule.Step
	}
	return p
}

// predictExplicit follows Anthropic's rules: entries are written at the
// cache_control breakpoints of earlier requests (when the prefix up to them
// reaches the minimum length); a request reads the longest live entry whose
// whole prefix it shares and that lies at one of its own breakpoints or up
// to LookbackBlocks content blocks before one.
func predictExplicit(mem *cacheMemory, cur *seqView) Prediction {
	rule := cur.rule
	var p Prediction
	if cur.unavailable != "" {
		p.Unavailable = cur.unavailable
		return p
	}
	if cur.policy != nil {
		wd := &mem.words
		if !wd.policyMade || wd.policy != *cur.policy {
			// cur.policy is the table's for cur's format (policyFor).
			wd.policy, wd.policyMade = *cur.policy, true
			wd.policyName = cur.policy.Name + " " + cur.policy.Versions
			wd.policyNote = "cache_control breakpoints are not recorded in " + string(cur.policy.Agent) +
				" files: placed where " + wd.policyName + " puts them (" + cur.policy.describe() + ")"
		}
		p.Policy = wd.policyName
		p.Notes = append(p.Notes, wd.policyNote)
	}
	if len(cur.bps) == 0 {
		p.Notes = append(p.Notes, "no cache_control breakpoint: "+rule.Provider+" caches nothing for this request")
		p.NeverWritten = "no cache_control breakpoint: nothing written"
		return p
	}
	if rule.MaxBreakpoints > 0 && len(cur.bps) > rule.MaxBreakpoints {
		p.Notes = append(p.Notes, strconv.Itoa(len(cur.bps))+" cache_control breakpoints: the API accepts at most "+
			strconv.Itoa(rule.MaxBreakpoints)+" and refuses this request")
	}
	hit, from := 0, memHit{}
	expTok, exp := 0, memHit{}
	for _, bp := range cur.bps {
		for j := bp; j >= 0 && cur.block[bp]-cur.block[j] < rule.LookbackBlocks; j-- {
			if cur.cumTok[j] <= hit {
				break // everything further back is shorter
			}
			if e, ok := mem.entries[cur.chain[j]]; ok {
				if live(e.used, e.lifetime(), cur.at) {
					hit, from = cur.cumTok[j], e
					break
				}
				if cur.cumTok[j] > expTok {
					expTok, exp = cur.cumTok[j], e
				}
			}
		}
	}
	host, hostOK := mem.entries[hostEntry]
	switch {
	case hit > 0:
		p.from(mem, from)
		p.Cached = from.size(cur, hit)
	case cur.hidden > 0 && hostOK && live(host.used, host.lifetime(), cur.at):
		p.from(mem, host)
		p.Cached = cur.hidden
	}
	switch {
	case expTok > hit:
		p.Expired = &Expiry{Lifetime: exp.lifetime(), Idle: time.Duration(cur.at - exp.used), From: mem.from(exp),
			Tokens: max(0, exp.size(cur, expTok)-p.Cached)}
	case hit == 0 && cur.hidden > 0 && hostOK && p.Cached == 0:
		p.Expired = &Expiry{Lifetime: host.lifetime(), Idle: time.Duration(cur.at - host.used), From: mem.from(host),
			Tokens: cur.hidden}
	}
	if cur.hidden > 0 {
		wd := &mem.words
		if !wd.hiddenMade || wd.hidden != cur.hidden {
			wd.hidden, wd.hiddenMade = cur.hidden, true
			wd.hiddenNote = fmt.Sprintf("the system prompt and tools are not recorded: taken to be the same in "+
				"every request of the model, of %d tokens (the least by which the recorded input tokens have exceeded the "+
				"estimate of what the file holds)", cur.hidden)
		}
		p.Notes = append(p.Notes, wd.hiddenNote)
	}
	last := cur.bps[len(cur.bps)-1]
	w := cur.scaled(cur.cumTok[last]) + cur.hidden
	if u := cur.req.Usage; u != nil && !u.CachedUnknown && last == len(cur.segs)-1 && u.InputTokens > 0 {
		w = u.InputTokens // the request's own recorded size
	}
	if w >= rule.MinTokens && w > p.Cached {
		p.CacheWrite = w - p.Cached
	} else if w < rule.MinTokens {
		p.Notes = append(p.Notes, fmt.Sprintf("prefix up to the last cache_control breakpoint is %d tokens, below the %d-token minimum",
			w, rule.MinTokens))
		if p.Cached == 0 {
			p.NeverWritten = fmt.Sprintf("below the %d-token minimum", rule.MinTokens)
		}
	}
	return p
}

// disagreement states how a recorded cache read differs from the
// prediction, or returns "" when they agree within the error of the token
// estimate (the providers' tokenizers differ from the one used here).
// total is the estimated tokens of the whole request as decoded.
func disagreement(pred, rec, total int, rule CacheRule) string {
	tol := max(rule.Step, 64, max(pred, rec)*15/100)
	d := pred - rec
	if d < 0 {
		d = -d
	}
	if d <= tol {
		return ""
	}
	switch {
	case rec > total+tol && 2*rec > 3*total:
		// More was read from the cache than the request holds, by far more
		// than tokenizers differ: the file does not hold all that was sent.
		return fmt.Sprintf("%d cached tokens recorded, more than the whole request as this file holds it (about %d tokens): "+
			"the file leaves out part of what was sent (agent recordings often omit the host's system prompt and tools), "+
			"so the prediction cannot be checked against the record", rec, total)
	case rec == 0:
		return fmt.Sprintf("no cached tokens recorded where %d were predicted: the cache entry was evicted, or a request missing from this file came in between (evicted or unknown)", pred)
	case pred == 0:
		return fmt.Sprintf("%d cached tokens recorded where none were predicted: the provider reused a prefix from a request before the previous one, or from outside this file", rec)
	case rec < pred:
		return fmt.Sprintf("%d cached tokens recorded, fewer than the %d predicted: part of the prefix was not cached (evicted or unknown)", rec, pred)
	}
	return fmt.Sprintf("%d cached tokens recorded, more than the %d predicted: the provider matched a longer prefix from an earlier request", rec, pred)
}
