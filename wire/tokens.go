package wire

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// TokenEncoding is the offline tokenizer used for every estimate. Counts are
// estimates: each provider's own tokenizer differs.
const TokenEncoding = "o200k_base"

var (
	codecOnce  sync.Once
	codecValue tokenizer.Codec
	codecErr   error

	tokenMu    sync.Mutex
	tokenCache = map[uint64]tokenEntry{}
)

type tokenEntry struct {
	n   int
	len int // the text's length, a guard against hash collisions
}

func codec() (tokenizer.Codec, error) {
	codecOnce.Do(func() {
		codecValue, codecErr = tokenizer.Get(tokenizer.O200kBase)
		if codecErr == nil {
			codecValue.SetErrorMode(tokenizer.ErrorModeReplace)
		}
	})
	return codecValue, codecErr
}

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
	c, err := codec()
	n := 0
	if err == nil {
		n, err = c.Count(text)
	}
	if err != nil {
		// The tokenizer could not count: fall back to the usual rough ratio.
		n = (len(text) + 3) / 4
	}
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
