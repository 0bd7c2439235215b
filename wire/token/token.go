// Package token counts the tokens of text under OpenAI's o200k_base
// encoding, exactly as github.com/tiktoken-go/tokenizer v0.10.0 counts them
// with ErrorModeReplace (its tests hold it to that), without its costs: the
// vocabulary is an embedded table in rank order that Load turns into a flat
// hash table of ranks in a millisecond or two, where tiktoken-go builds a Go
// map of 200k strings; and the pre-tokenizer is written out by hand (split.go)
// where tiktoken-go runs a backtracking regular expression.
package token

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Count is the number of o200k_base tokens in text. Invalid UTF-8 is first
// replaced, each maximal ill-formed subpart by one U+FFFD (replaceInvalid).
func Count(text string) int {
	n, _ := encode(text, false)
	return n
}

// Encode is the o200k_base token ids of text (ranks), as Count counts them.
func Encode(text string) []int {
	_, ids := encode(text, true)
	return ids
}

// encode counts the tokens of text and, if withIDs, lists them.
func encode(text string, withIDs bool) (int, []int) {
	v := table()
	if !utf8.ValidString(text) {
		text = replaceInvalid(text)
	}
	var m merger
	var ids []int
	var hot *hotPieces
	if !withIDs {
		hot = hotPool.Get().(*hotPieces)
		defer hotPool.Put(hot)
	}
	n := 0
	for i := 0; i < len(text); {
		end := piece(text, i)
		if end < 0 {
			i++ // a DEL: no piece
			continue
		}
		p := text[i:end]
		i = end
		if hot != nil && len(p) <= hotMaxLen {
			n += hot.count(v, &m, text, i-len(p), i)
			continue
		}
		if r := v.rank(p); r >= 0 {
			n++
			if withIDs {
				ids = append(ids, r)
			}
			continue
		}
		if withIDs {
			k := len(ids)
			ids = m.merge(v, p, ids)
			n += len(ids) - k
			continue
		}
		c, ok := mergeCache.get(p)
		if !ok {
			m.ids = m.merge(v, p, m.ids[:0])
			c = len(m.ids)
			mergeCache.put(p, c)
		}
		n += c
	}
	return n, ids
}

// hotPieces is a small table of the short pieces a count met and the
// tokens each is (1 for a piece that is a token): words, spaces and marks
// recur all through a text, and the rank table (1 MiB, with the token's
// length and bytes elsewhere) costs a few cache misses a look, where a slot
// here is in the nearest cache. A piece is kept in its bytes (two words and
// a length), not as a string, so the table holds no text. One a goroutine
// at a time (hotPool); a slot is the count of exactly those bytes, so the
// counts are the rank table's.
type hotPieces struct {
	slots [1 << hotBits]hotSlot
}

type hotSlot struct {
	w0, w1 uint64
	n      uint32
	len    uint32 // 0: empty
}

const (
	hotBits   = 14 // 16,384 slots, 384 KB: half the table's size ran 0.9 times as fast on prose
	hotMaxLen = 16
)

var hotPool = sync.Pool{New: func() any { return new(hotPieces) }}

// count is the tokens of the piece text[i:end] (at most hotMaxLen bytes),
// from its slot or counted and kept there. Its bytes are read as two
// words, straight from the text when 16 bytes of it follow i.
func (h *hotPieces) count(v *vocab, m *merger, text string, i, end int) int {
	p := text[i:end]
	var w0, w1 uint64
	if i+16 <= len(text) {
		w0, w1 = le64(text[i:]), le64(text[i+8:])
		if len(p) < 8 {
			w0 &= 1<<(8*len(p)) - 1
			w1 = 0
		} else {
			w1 &= 1<<(8*(len(p)-8)) - 1 // all of it for 16 bytes: 1<<64 is 0
		}
	} else {
		for k := 0; k < len(p) && k < 8; k++ {
			w0 |= uint64(p[k]) << (8 * k)
		}
		for k := 8; k < len(p); k++ {
			w1 |= uint64(p[k]) << (8 * (k - 8))
		}
	}
	sl := &h.slots[mix(w0^mix(w1^uint64(len(p))))>>(64-hotBits)]
	if sl.len == uint32(len(p)) && sl.w0 == w0 && sl.w1 == w1 {
		return int(sl.n)
	}
	c := 1
	if v.rank(p) < 0 {
		var ok bool
		if c, ok = mergeCache.get(p); !ok {
			m.ids = m.merge(v, p, m.ids[:0])
			c = len(m.ids)
			mergeCache.put(p, c)
		}
	}
	*sl = hotSlot{w0: w0, w1: w1, n: uint32(c), len: uint32(len(p))}
	return c
}

// mergeCache remembers how many tokens the latest pieces that are not
// tokens themselves merge into: names, words and numbers recur, and
// merging is the slow part of a count.
var mergeCache countCache

const (
	cacheBits   = 12 // 4096 entries
	cacheMaxLen = 48 // longer pieces are not kept
)

type countCache struct {
	mu    sync.Mutex
	slots [1 << cacheBits]cacheEntry
}

type cacheEntry struct {
	piece string
	n     int
}

func (c *countCache) get(p string) (int, bool) {
	if len(p) > cacheMaxLen {
		return 0, false
	}
	e := &c.slots[hash(p)>>(64-cacheBits)]
	c.mu.Lock()
	n, ok := e.n, e.piece == p
	c.mu.Unlock()
	return n, ok
}

func (c *countCache) put(p string, n int) {
	if len(p) > cacheMaxLen {
		return
	}
	e := &c.slots[hash(p)>>(64-cacheBits)]
	p = strings.Clone(p) // not to hold the whole text
	c.mu.Lock()
	e.piece, e.n = p, n
	c.mu.Unlock()
}

// replaceInvalid replaces each maximal subpart of an ill-formed sequence in
// s by U+FFFD, the practice of the Unicode Standard (chapter 3, "U+FFFD
// Substitution of Maximal Subparts"), as tiktoken-go's ErrorModeReplace does.
func replaceInvalid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
			n = maximalSubpart(s)
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// maximalSubpart is the length of the ill-formed subpart at the start of s:
// a lead byte and as many of the bytes that must follow it (Table 3-7,
// "Well-Formed UTF-8 Byte Sequences") as are there, or one byte.
func maximalSubpart(s string) int {
	lead := s[0]
	need, lo, hi := 0, byte(0x80), byte(0xbf)
	switch {
	case lead >= 0xc2 && lead <= 0xdf:
		need = 1
	case lead == 0xe0:
		need, lo = 2, 0xa0
	case lead == 0xed:
		need, hi = 2, 0x9f
	case lead >= 0xe1 && lead <= 0xef:
		need = 2
	case lead == 0xf0:
		need, lo = 3, 0x90
	case lead == 0xf4:
		need, hi = 3, 0x8f
	case lead >= 0xf1 && lead <= 0xf3:
		need = 3
	}
	n := 1
	for n <= need && n < len(s) && s[n] >= lo && s[n] <= hi {
		n++
		lo, hi = 0x80, 0xbf // only the second byte has narrower bounds
	}
	return n
}
