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

// A slot of the rank table packs, from the low bits up: rank+1 (18 bits, 0
// for an empty slot), the token's offset in vocabBin (21 bits), its length
// (8 bits) and a tag of its hash (17 bits) that rejects most mismatches
// without reading the token's bytes.
const (
	rankBits = 18
	offBits  = 21
	lenBits  = 8
	tagBits  = 64 - rankBits - offBits - lenBits

	slotBits = 19 // 512Ki slots (4 MiB) for 200k tokens: under 40% full
)

// vocab is the rank table: open addressing with linear probing over slots,
// indexed by the top slotBits bits of hash.
type vocab struct {
	slots  []uint64
	maxLen int // the longest token's length
}

var (
	vocabOnce  sync.Once
	vocabValue *vocab
	vocabDone  atomic.Bool
)

// Load builds the rank table from the embedded vocabulary, once (about a
// millisecond or two and 4 MiB); every later call returns at once. Count and
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
	off := 4 + n
	v := &vocab{slots: make([]uint64, 1<<slotBits)}
	mask := uint64(1)<<slotBits - 1
	for rank := 0; rank < n; rank++ {
		l := int(lens[rank])
		h := hash(bin[off : off+l])
		slot := uint64(rank+1) | uint64(off)<<rankBits | uint64(l)<<(rankBits+offBits) | h<<(64-tagBits)>>(64-tagBits)<<(rankBits+offBits+lenBits)
		for i := h >> (64 - slotBits); ; i = (i + 1) & mask {
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
	want := uint64(len(s)) | h<<(64-tagBits)>>(64-tagBits)<<lenBits
	mask := uint64(1)<<slotBits - 1
	for i := h >> (64 - slotBits); ; i = (i + 1) & mask {
		slot := v.slots[i]
		if slot == 0 {
			return -1
		}
		if slot>>(rankBits+offBits) == want {
			off := int(slot >> rankBits & (1<<offBits - 1))
			if vocabBin[off:off+len(s)] == s {
				return int(slot&(1<<rankBits-1)) - 1
			}
		}
	}
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
