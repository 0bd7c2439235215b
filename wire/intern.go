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
	// Bytes is the total size of the distinct texts held.
	Bytes int64
}

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
	in.m[h] = s
	in.Bytes += int64(len(s))
	return s, h
}

// Len is the number of distinct texts held.
func (in *Interner) Len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.m)
}
