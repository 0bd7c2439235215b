// Package memo holds what the viewer finds in each distinct segment text,
// by the text's hash: the hazards and the secrets. A session repeats almost
// all of request k in request k+1, so each distinct text is scanned once,
// not once per request that holds it. What it hands out is shared: read
// it, never change it.
package memo

import (
	"sync"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Texts is the memo. A nil *Texts finds everything every time.
type Texts struct {
	mu  sync.Mutex
	hz  map[uint64]entry[[]scan.Hazard]
	sec map[uint64]entry[[]redact.Secret]
}

// entry is what was found in a text, with the text's length against hash
// collisions.
type entry[T any] struct {
	n     int
	found T
}

// New is an empty memo.
func New() *Texts {
	return &Texts{hz: map[uint64]entry[[]scan.Hazard]{}, sec: map[uint64]entry[[]redact.Secret]{}}
}

// memoized is find(s.Text), found once per distinct text in *tab. A nil
// memo or a segment without a hash finds it every time.
func memoized[T any](t *Texts, tab *map[uint64]entry[T], s *wire.Segment, find func(string) T) T {
	if t == nil || s.Hash == 0 {
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

// Secrets are the secrets of a segment's text (redact.FindSecrets).
func (t *Texts) Secrets(s *wire.Segment) []redact.Secret {
	if t == nil {
		return redact.FindSecrets(s.Text)
	}
	return memoized(t, &t.sec, s, redact.FindSecrets)
}

// Hazards are the hazards of a segment's text (scan.Hazards).
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
