package token

import (
	_ "embed"
	"encoding/binary"
	"sync"
	"sync/atomic"
)

//go:generate go run gen.go

// vocabBin is the o200k_base vocabulary in rank order, written by gen.go:
// the token count n (uint32, little-endian), then n token lengths (one byte
// each), then the n tokens' bytes one after the other.
//
//go:embed o200k_base.bin
var vocabBin string

// A slot of the rank table packs rank+1 in its low 18 bits (0 for an empty
// slot) and, above, a tag of the token's hash that rejects most mismatches
// without reading the token's bytes.
const (
	rankBits = 18
	tagBits  = 32 - rankBits
	rankMask = 1<<rankBits - 1

	// 256Ki slots (1 MiB) for 200k tokens, 76% full: a miss probes about
	// nine slots, in one or two cache lines. A table twice the size built
	// slower (19 ms against 12 ms of CPU in a new process on a busy machine),
	// as a new process pays for every page it touches.
	slotBits = 18
	slotMask = 1<<slotBits - 1

	offStep = 4 // vocab.off holds every 4th token's offset
)

// vocab is the rank table: open addressing with linear probing over slots,
// indexed by the top slotBits bits of hash. Token r's bytes lie in vocabBin
// from off[r/offStep] plus the lengths of the tokens before it in its step.
type vocab struct {
	slots  []uint32
	off    []uint32
	lens   string // the token lengths, a part of vocabBin
	maxLen int    // the longest token's length
}

var (
	vocabOnce  sync.Once
	vocabValue *vocab
	vocabDone  atomic.Bool
)

// Load builds the rank table from the embedded vocabulary, once (a few
// milliseconds and 1.2 MiB); every later call returns at once. Count and
// Encode call it; a program calls it ahead, in the background, to have it
// built before the first count.
func Load() { table() }

// Loaded reports whether the rank table is built.
func Loaded() bool { return vocabDone.Load() }

func table() *vocab {
	vocabOnce.Do(func() {
		vocabValue = build(vocabBin)
		vocabDone.Store(true)
	})
	return vocabValue
}

func build(bin string) *vocab {
	n := int(binary.LittleEndian.Uint32([]byte(bin[:4])))
	lens := bin[4 : 4+n]
	v := &vocab{slots: make([]uint32, 1<<slotBits), off: make([]uint32, (n+offStep-1)/offStep), lens: lens}
	off := 4 + n
	for rank := 0; rank < n; rank++ {
		l := int(lens[rank])
		if rank%offStep == 0 {
			v.off[rank/offStep] = uint32(off)
		}
		h := hash(bin[off : off+l])
		slot := uint32(rank+1) | uint32(h)<<rankBits
		for i := h >> (64 - slotBits); ; i = (i + 1) & slotMask {
			if v.slots[i] == 0 {
				v.slots[i] = slot
				break
			}
		}
		v.maxLen = max(v.maxLen, l)
		off += l
	}
	return v
}

// rank is the rank of the token whose bytes are s, or -1 if there is none.
func (v *vocab) rank(s string) int {
	if len(s) > v.maxLen {
		return -1
	}
	h := hash(s)
	tag := uint32(h) & (1<<tagBits - 1)
	for i := h >> (64 - slotBits); ; i = (i + 1) & slotMask {
		slot := v.slots[i]
		if slot == 0 {
			return -1
		}
		if slot>>rankBits == tag {
			r := int(slot&rankMask) - 1
			if int(v.lens[r]) == len(s) && vocabBin[v.offset(r):][:len(s)] == s {
				return r
			}
		}
	}
}

// offset is where token r's bytes start in vocabBin.
func (v *vocab) offset(r int) int {
	off := int(v.off[r/offStep])
	for _, l := range []byte(v.lens[r&^(offStep-1) : r]) {
		off += int(l)
	}
	return off
}

// hash is a fast 64-bit hash of a short string, 8 bytes a step.
func hash(s string) uint64 {
	h := uint64(len(s)) * 0x9e3779b97f4a7c15
	for len(s) >= 8 {
		h = mix(h ^ le64(s))
		s = s[8:]
	}
	var w uint64
	for i := 0; i < len(s); i++ {
		w |= uint64(s[i]) << (8 * i)
	}
	return mix(h ^ w)
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func mix(x uint64) uint64 {
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>31
}
