package diff

import (
	"fmt"
	"strconv"
	"strings"
)

// Limit is how much of an earlier request a break may make the provider
// process again before check --cache reports it: a number of tokens, or a
// share of the earlier request's tokens.
type Limit struct {
	Tokens int
	// Share, when above 0, is the limit as a fraction (0.25 for "25%").
	Share float64
}

// ParseLimit reads "2048" (tokens) or "25%" (a share of the earlier
// request).
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || v < 0 || v > 100 {
			return Limit{}, fmt.Errorf("%q is not a share from 0%% to 100%%", s)
		}
		return Limit{Share: v / 100}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Limit{}, fmt.Errorf("%q is not a number of tokens or a share such as 25%%", s)
	}
	return Limit{Tokens: n}, nil
}

// String writes the limit as ParseLimit reads it.
func (l Limit) String() string {
	if l.Share > 0 {
		return strconv.FormatFloat(l.Share*100, 'f', -1, 64) + "%"
	}
	return strconv.Itoa(l.Tokens)
}

// Exceeded reports whether reprocessed tokens of an earlier request of prev
// tokens go past the limit.
func (l Limit) Exceeded(reprocessed, prev int) bool {
	if l.Share > 0 {
		return prev > 0 && float64(reprocessed) > l.Share*float64(prev)
	}
	return reprocessed > l.Tokens
}

// Unstable says why a step's break left unchanged in meaning a prefix the
// provider processed again: a changing value ("a timestamp changed"),
// segments in another order, or a segment inserted before text the earlier
// request had. It returns "" for a break that changed the text itself, a
// removal, a change of model or provider, or no break at all.
func Unstable(st *Step) string {
	b := st.Break
	if b == nil {
		return ""
	}
	switch {
	case b.Cause.Switch():
		return ""
	case b.Volatile != "":
		article := "a"
		if strings.ContainsRune("aeiou", rune(b.Volatile[0])) {
			article = "an"
		}
		return article + " " + string(b.Volatile) + " changed"
	case b.Cause == CauseReordered:
		return "the same segments were sent in another order"
	case b.Cause == CauseAdded:
		return "a segment was inserted before text the earlier request sent"
	}
	return ""
}
