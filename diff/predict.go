package diff

import (
	"fmt"
	"strconv"
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
}

// memHit is a cached prefix: its tokens and the request that put it there
// (named when a prediction reads it: one entry is kept for every prefix
// sent, so it holds no string of its own).
type memHit struct {
	tokens int
	index  int
	source string
}

// from names the request that put the prefix in the cache: "file@N".
func (h memHit) from() string { return h.source + "@" + strconv.Itoa(h.index) }

// cacheMemory is what a provider holds for one model after the requests
// seen so far: every prefix sent (automatic caching) or the entries written
// at cache_control breakpoints (explicit caching). Entries are taken to be
// alive: recordings rarely say when a request was sent, so time to live is
// not modelled.
type cacheMemory struct {
	prefixes map[uint64]memHit
	entries  map[uint64]memHit
	// hidden is the least size seen of a host prefix the recording leaves
	// out (see seqView.hidden): the same system prompt and tools go with
	// every request of a model, and the least excess of the recorded input
	// over the estimate of the file is the one least swollen by the
	// tokenizers' difference on the conversation.
	hidden int
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

// remember records what request v leaves in the cache.
func (m *cacheMemory) remember(v *seqView) {
	src, idx := v.req.Source, v.req.Index
	if v.rule.Mode == CacheExplicit {
		if v.hidden >= v.rule.MinTokens && v.policy != nil && v.policy.System {
			// The unrecorded system prompt ends at a breakpoint: its
			// entry is the empty prefix of what the file holds.
			if _, ok := m.entries[hostEntry]; !ok {
				m.entries[hostEntry] = memHit{v.hidden, idx, src}
			}
		}
		for _, bp := range v.bps {
			if v.cumTok[bp]+v.hidden < v.rule.MinTokens {
				continue
			}
			if _, ok := m.entries[v.chain[bp]]; !ok {
				m.entries[v.chain[bp]] = memHit{v.cumTok[bp], idx, src}
			}
		}
		return
	}
	// The set of prefixes is closed under taking a shorter prefix: once
	// one is known, so are all before it.
	for i := len(v.chain) - 1; i >= 0; i-- {
		if _, ok := m.prefixes[v.chain[i]]; ok {
			break
		}
		m.prefixes[v.chain[i]] = memHit{v.cumTok[i], idx, src}
	}
}

// hostEntry keys the cache entry of a host prefix the recording leaves out
// (a chain hash is never 0 in practice: see chainHash).
const hostEntry uint64 = 0

// predict applies cur's cache rule. prefixTokens is what cur shares with
// prev, the request just before it (0 when that one was of another model);
// mem holds what the earlier requests of cur's model left in the cache.
func predict(mem *cacheMemory, prev, cur *seqView, prefixTokens int) Prediction {
	rule := cur.rule
	var p Prediction
	if rule.Mode == CacheExplicit {
		return predictExplicit(mem, cur)
	}
	if rule.Step == 0 {
		p.Notes = append(p.Notes, rule.Note)
		return p
	}
	best := prefixTokens
	if best > 0 {
		p.From = prev.name()
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
	if lo > 0 {
		if h := mem.prefixes[cur.chain[lo-1]]; h.tokens > best {
			best, p.From = h.tokens, h.from()
		}
	}
	if best < rule.MinTokens {
		if best > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("shared prefix of %d tokens is below the %d-token minimum of %s caching",
				best, rule.MinTokens, rule.Provider))
		}
		p.From = ""
		return p
	}
	p.Cached = best
	if rule.Step > 1 {
		p.Cached = best / rule.Step * rule.Step
	}
	return p
}

// predictExplicit follows Anthropic's rules: entries are written at the
// cache_control breakpoints of earlier requests (when the prefix up to them
// reaches the minimum length); a request reads the longest entry whose whole
// prefix it shares and that lies at one of its own breakpoints or up to
// LookbackBlocks content blocks before one.
func predictExplicit(mem *cacheMemory, cur *seqView) Prediction {
	rule := cur.rule
	var p Prediction
	if cur.unavailable != "" {
		p.Unavailable = cur.unavailable
		return p
	}
	if cur.policy != nil {
		p.Policy = cur.policy.Name + " " + cur.policy.Versions
		p.Notes = append(p.Notes, "cache_control breakpoints are not recorded in "+string(cur.req.Format)+
			" files: placed where "+p.Policy+" puts them ("+cur.policy.describe()+")")
	}
	if len(cur.bps) == 0 {
		p.Notes = append(p.Notes, "no cache_control breakpoint: "+rule.Provider+" caches nothing for this request")
		return p
	}
	if rule.MaxBreakpoints > 0 && len(cur.bps) > rule.MaxBreakpoints {
		p.Notes = append(p.Notes, strconv.Itoa(len(cur.bps))+" cache_control breakpoints: the API accepts at most "+
			strconv.Itoa(rule.MaxBreakpoints)+" and refuses this request")
	}
	hit, from := 0, memHit{}
	for _, bp := range cur.bps {
		for j := bp; j >= 0 && cur.block[bp]-cur.block[j] < rule.LookbackBlocks; j-- {
			if cur.cumTok[j] <= hit {
				break // everything further back is shorter
			}
			if e, ok := mem.entries[cur.chain[j]]; ok {
				hit, from = cur.cumTok[j], e
				break
			}
		}
	}
	switch {
	case hit > 0:
		p.From = from.from()
		p.Cached = hit + cur.hidden
	case cur.hidden > 0:
		if e, ok := mem.entries[hostEntry]; ok {
			p.From = e.from()
			p.Cached = cur.hidden
		}
	}
	if cur.hidden > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the system prompt and tools are not recorded: taken to be the same in "+
			"every request of the model, of %d tokens (the least by which the recorded input tokens have exceeded the "+
			"estimate of what the file holds)", cur.hidden))
	}
	last := cur.bps[len(cur.bps)-1]
	if w := cur.cumTok[last] + cur.hidden; w >= rule.MinTokens && w > p.Cached {
		p.CacheWrite = w - p.Cached
	} else if w < rule.MinTokens {
		p.Notes = append(p.Notes, fmt.Sprintf("prefix up to the last cache_control breakpoint is %d tokens, below the %d-token minimum",
			w, rule.MinTokens))
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
		return fmt.Sprintf("no cached tokens recorded where %d were predicted: the cache entry had expired or been evicted, or a request missing from this file came in between", pred)
	case pred == 0:
		return fmt.Sprintf("%d cached tokens recorded where none were predicted: the provider reused a prefix from a request before the previous one, or from outside this file", rec)
	case rec < pred:
		return fmt.Sprintf("%d cached tokens recorded, fewer than the %d predicted: part of the prefix was not cached (expired, or written at a different breakpoint)", rec, pred)
	}
	return fmt.Sprintf("%d cached tokens recorded, more than the %d predicted: the provider matched a longer prefix from an earlier request", rec, pred)
}
