package diff

import (
	"fmt"
	"strconv"
)

// Prediction is what the provider's cache rules predict for one request,
// given the request before it.
type Prediction struct {
	// Cached is the predicted cache read, in estimated tokens.
	Cached int
	// CacheWrite is the predicted cache write (explicit caching only).
	CacheWrite int
	// Notes explain a prediction of nothing, or a request the provider
	// would refuse.
	Notes []string
}

// predict applies cur's cache rule. identical is how many whole segments
// cur shares with prev in cache order, prefixTokens the tokens of the shared
// prefix, and switched whether the model or provider changed (no cache is
// shared across models).
func predict(prev, cur *seqView, identical, prefixTokens int, switched bool) Prediction {
	rule := cur.rule
	var p Prediction
	if rule.Mode == CacheExplicit {
		return predictExplicit(prev, cur, identical, switched)
	}
	if rule.Step == 0 {
		p.Notes = append(p.Notes, rule.Note)
		return p
	}
	if switched {
		return p
	}
	if prefixTokens < rule.MinTokens {
		if prefixTokens > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("shared prefix of %d tokens is below the %d-token minimum of %s caching",
				prefixTokens, rule.MinTokens, rule.Provider))
		}
		return p
	}
	p.Cached = prefixTokens
	if rule.Step > 1 {
		p.Cached = prefixTokens / rule.Step * rule.Step
	}
	return p
}

// predictExplicit follows Anthropic's rules: entries are written at the
// cache_control breakpoints of earlier requests (when the prefix up to them
// reaches the minimum length); a request reads the longest entry whose whole
// prefix it shares and that lies at one of its own breakpoints or up to
// LookbackBlocks content blocks before one. Only the previous request's
// entries (its breakpoints and the entry it read) are known here.
func predictExplicit(prev, cur *seqView, identical int, switched bool) Prediction {
	rule := cur.rule
	var p Prediction
	if len(cur.bps) == 0 {
		p.Notes = append(p.Notes, "no cache_control breakpoint: "+rule.Provider+" caches nothing for this request")
		return p
	}
	if rule.MaxBreakpoints > 0 && len(cur.bps) > rule.MaxBreakpoints {
		p.Notes = append(p.Notes, strconv.Itoa(len(cur.bps))+" cache_control breakpoints: the API accepts at most "+
			strconv.Itoa(rule.MaxBreakpoints)+" and refuses this request")
	}
	hit, hitAt := 0, -1
	if !switched {
		entries := append([]int(nil), prev.bps...)
		if prev.readAt >= 0 {
			entries = append(entries, prev.readAt)
		}
		for _, k := range entries {
			if k >= identical || prev.cumTok[k] < rule.MinTokens {
				continue // not shared in full, or never written
			}
			for _, bp := range cur.bps {
				if bp >= k && cur.block[bp]-cur.block[k] < rule.LookbackBlocks && cur.cumTok[k] > hit {
					hit, hitAt = cur.cumTok[k], k
				}
			}
		}
	}
	cur.readAt = hitAt
	p.Cached = hit
	last := cur.bps[len(cur.bps)-1]
	if w := cur.cumTok[last]; w >= rule.MinTokens && w > hit {
		p.CacheWrite = w - hit
	} else if w < rule.MinTokens {
		p.Notes = append(p.Notes, fmt.Sprintf("prefix up to the last cache_control breakpoint is %d tokens, below the %d-token minimum",
			w, rule.MinTokens))
	}
	return p
}

// disagreement states how a recorded cache read differs from the
// prediction, or returns "" when they agree within the error of the token
// estimate (the providers' tokenizers differ from the one used here).
func disagreement(pred, rec int, rule CacheRule) string {
	tol := max(rule.Step, 64, max(pred, rec)*15/100)
	d := pred - rec
	if d < 0 {
		d = -d
	}
	if d <= tol {
		return ""
	}
	switch {
	case rec == 0:
		return fmt.Sprintf("no cached tokens recorded where %d were predicted: the cache entry had expired or been evicted, or a request missing from this file came in between", pred)
	case pred == 0:
		return fmt.Sprintf("%d cached tokens recorded where none were predicted: the provider reused a prefix from a request before the previous one, or from outside this file", rec)
	case rec < pred:
		return fmt.Sprintf("%d cached tokens recorded, fewer than the %d predicted: part of the prefix was not cached (expired, or written at a different breakpoint)", rec, pred)
	}
	return fmt.Sprintf("%d cached tokens recorded, more than the %d predicted: the provider matched a longer prefix from an earlier request", rec, pred)
}
