package wire

import (
	"sync"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire/token"
)

// TokenEncoding is the offline tokenizer used for every estimate. Counts are
// estimates: each provider's own tokenizer differs.
const TokenEncoding = "o200k_base"

var (
	tokenMu    sync.Mutex
	tokenCache = map[uint64]tokenEntry{}
)

type tokenEntry struct {
	n   int
	len int // the text's length, a guard against hash collisions
}

// WarmTokens starts building the tokenizer's rank table (a few
// milliseconds and 1.2 MiB, see package token) in the background, once,
// and returns at once: a command that will count tokens calls it when it
// starts, so that the build runs while the input is read, and a command that
// counts none never builds it. The first count waits for the build if it is
// not done.
func WarmTokens() {
	warmOnce.Do(func() { go token.Load() })
}

var warmOnce sync.Once

// TokensWarm reports whether the rank table is built (a count then waits
// for nothing but its own work).
func TokensWarm() bool { return token.Loaded() }

// CountTokens estimates the tokens of text with o200k_base. Each distinct
// text is counted once per process: the count is cached by content hash.
func CountTokens(text string) int { return CountTokensHashed(text, HashText(text)) }

// CountTokensHashed is CountTokens for a text whose hash is known (a
// Segment's Hash), which saves hashing it again.
func CountTokensHashed(text string, hash uint64) int {
	if text == "" {
		return 0
	}
	tokenMu.Lock()
	e, ok := tokenCache[hash]
	tokenMu.Unlock()
	if ok && e.len == len(text) {
		return e.n
	}
	n := countChunked(text)
	tokenMu.Lock()
	tokenCache[hash] = tokenEntry{n: n, len: len(text)}
	tokenMu.Unlock()
	return n
}

// Tokens is the estimated token count of the segment's text.
// A segment built by hand without its Hash is hashed here.
func (s *Segment) Tokens() int {
	if s.Hash == 0 {
		return CountTokens(s.Text)
	}
	return CountTokensHashed(s.Text, s.Hash)
}

// Tokens is the estimated token count of the whole request.
func (r *Request) Tokens() int {
	n := 0
	for i := range r.Segments {
		n += r.Segments[i].Tokens()
	}
	return n
}

// tokenChunk is about the most text the tokenizer is given at once, and
// tokenRun the longest run without white space. Byte-pair encoding of a long
// run costs far more than linear time and memory (one 64 MB line took 50 s
// and 1.9 GB), so a long text is counted in pieces, cut after white space
// where there is some and inside a run only past tokenRun bytes: the
// estimate differs from a count of the whole by a token or so per cut, and
// ordinary prose and code are never cut inside a word. (Package token
// merges a long piece in n log n time; the cuts stay, so that every count is
// the one it was.)
const (
	tokenChunk = 64 << 10
	tokenRun   = 1 << 10
)

// countChunked counts the tokens of text piece by piece (see chunkEnd).
func countChunked(text string) int {
	total := 0
	for len(text) > 0 {
		piece := text[:chunkEnd(text)]
		total += token.Count(piece)
		text = text[len(piece):]
	}
	return total
}

// chunkEnd is where the first piece of text ends: after the last white space
// before tokenChunk bytes, or at the rune that makes a run without white
// space longer than tokenRun bytes, or at the end.
func chunkEnd(text string) int {
	run, lastSpace := 0, -1
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ' ', '\n', '\t', '\r':
			run, lastSpace = 0, i
			continue
		}
		if run >= tokenRun && utf8.RuneStart(text[i]) {
			return i
		}
		run++
		if i >= tokenChunk && lastSpace >= 0 {
			return lastSpace + 1
		}
	}
	return len(text)
}
