// Package memo finds the hazards and the secrets of each distinct segment
// text once: a session repeats almost all of request k in request k+1, so
// the viewer's loader asks for the same texts again and again. Texts are
// known by their hash (wire.HashText), with their length against
// collisions; what is found is shared read-only by every request holding
// the text.
package memo

import (
	"sync"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Texts holds what was found in each distinct text. Its zero value is
// ready, and safe for use by several goroutines; a nil *Texts finds
// everything every time.
type Texts struct {
	mu  sync.Mutex
	hz  map[uint64]entry[[]scan.Hazard]
	sec map[uint64]entry[[]redact.Secret]
}

// entry is what was found in a text, with the text's length.
type entry[T any] struct {
	n     int
	found T
}

// Hazards are the hazards of a segment's text (scan.Hazards; nil when it
// has none).
func (t *Texts) Hazards(s *wire.Segment) []scan.Hazard {
	find := func(text string) []scan.Hazard {
		if !scan.HasHazards(text) {
			return nil
		}
		return scan.Hazards(text)
	}
	if t == nil {
		return find(s.Text)
	}
	return memoized(t, &t.hz, s, find)
}

// Secrets are the secrets of a segment's text (redact.FindSecrets).
func (t *Texts) Secrets(s *wire.Segment) []redact.Secret {
	if t == nil {
		return redact.FindSecrets(s.Text)
	}
	return memoized(t, &t.sec, s, redact.FindSecrets)
}

// memoized is find(s.Text), found once per distinct text in *tab. A
// segment without a hash is looked at every time.
func memoized[T any](t *Texts, tab *map[uint64]entry[T], s *wire.Segment, find func(string) T) T {
	if s.Hash == 0 {
		return find(s.Text)
	}
	t.mu.Lock()
	e, ok := (*tab)[s.Hash]
	t.mu.Unlock()
	if ok && e.n == len(s.Text) {
		return e.found
	}
	found := find(s.Text)
	t.mu.Lock()
	if *tab == nil {
		*tab = map[uint64]entry[T]{}
	}
	(*tab)[s.Hash] = entry[T]{n: len(s.Text), found: found}
	t.mu.Unlock()
	return found
}
