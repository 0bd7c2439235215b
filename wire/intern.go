package wire

import (
	"hash/maphash"
	"sync"
)

var hashSeed = maphash.MakeSeed()

// HashText is the content hash used for interning, token caching and the
// segment-by-segment comparison of requests. It is stable within a process.
func HashText(s string) uint64 { return maphash.String(hashSeed, s) }

// Interner holds one copy of each distinct text. A session of N growing
// requests repeats almost all of request k in request k+1; interning makes the
// repeated text share one string.
type Interner struct {
	mu sync.Mutex
	m  map[uint64]string
	// Bytes is the total size of the distinct texts interned; distinct
	// their count (the texts of a map emptied included).
	Bytes    int64
	distinct int
}

// maxInterned is the most texts an interner holds: past it the map starts
// again empty (the texts requests hold stay theirs; later repeats share a
// new copy), so that a stream of a million requests of distinct text, which
// shares nothing, holds no map of a million entries. A session's growing
// requests repeat the texts of the last few, which the new map holds again
// at once.
var maxInterned = 1 << 20 // a variable for the tests

// NewInterner returns an empty interner.
func NewInterner() *Interner { return &Interner{m: make(map[uint64]string)} }

// Intern returns the held copy of s and its hash.
func (in *Interner) Intern(s string) (string, uint64) {
	h := HashText(s)
	if in == nil {
		return s, h
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if held, ok := in.m[h]; ok && held == s {
		return held, h
	} else if ok {
		// A 64-bit collision: keep both texts apart by not interning this one.
		return s, h
	}
	in.hold(h, s)
	return s, h
}

// hold keeps s, not held, under its hash h (in.mu held): in a new map once
// the map holds maxInterned texts.
func (in *Interner) hold(h uint64, s string) {
	if len(in.m) >= maxInterned {
		in.m = make(map[uint64]string)
	}
	in.m[h] = s
	in.Bytes += int64(len(s))
	in.distinct++
}

// InternBytes returns the held copy of the text b spells, and its hash, as
// Intern(string(b)) would, without copying b when the text is held: a
// reader that meets again a text read before (the same tool result in two
// transcripts) shares the copy instead of making one more.
func (in *Interner) InternBytes(b []byte) (string, uint64) {
	h := maphash.Bytes(hashSeed, b)
	if in == nil {
		return string(b), h
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if held, ok := in.m[h]; ok && held == string(b) {
		return held, h
	} else if ok {
		return string(b), h
	}
	s := string(b)
	in.hold(h, s)
	return s, h
}

// Len is the number of distinct texts interned.
func (in *Interner) Len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.distinct
}

// Held is the number of texts the interner holds now (at most maxInterned).
func (in *Interner) Held() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.m)
}
