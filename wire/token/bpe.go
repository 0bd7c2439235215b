package token

import "math"

// Byte-pair encoding of one piece: start from its bytes and merge, again and
// again, the adjacent pair whose joined bytes are the token of lowest rank,
// the leftmost of equal ones, until no adjacent pair is a token. Short pieces
// are merged by scanning the pairs each time (quadratic, but tiny); long ones
// with a heap of candidate pairs, so that a long run costs n log n.

const (
	noRank    = int32(math.MaxInt32) // "no token"
	scanLimit = 64                   // pieces shorter than this are scanned
)

// merger holds the buffers of merge between pieces.
type merger struct {
	start []int32 // scan: where each part starts; the last is the end
	rank  []int32 // scan: the rank of each part joined with the next
	nodes []node
	heap  []candidate
	ids   []int
}

// merge appends to ids the ranks of the tokens piece is merged into.
func (m *merger) merge(v *vocab, piece string, ids []int) []int {
	if len(piece) < scanLimit {
		return m.scan(v, piece, ids)
	}
	return m.heapMerge(v, piece, ids)
}

func (v *vocab) rank32(s string) int32 {
	if r := v.rank(s); r >= 0 {
		return int32(r)
	}
	return noRank
}

func (m *merger) scan(v *vocab, piece string, ids []int) []int {
	n := len(piece)
	start, rank := m.start[:0], m.rank[:0]
	for i := 0; i <= n; i++ {
		start = append(start, int32(i))
		rank = append(rank, noRank)
	}
	for i := 0; i+2 <= n; i++ {
		rank[i] = v.rank32(piece[i : i+2])
	}
	// pairRank is the rank of parts i and i+1 joined, after a merge.
	pairRank := func(i int) int32 {
		if i+2 < len(start) {
			return v.rank32(piece[start[i]:start[i+2]])
		}
		return noRank
	}
	for len(start) > 2 {
		best, at := noRank, -1
		for i, r := range rank[:len(rank)-2] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		// Part at+1 joins part at.
		start = append(start[:at+1], start[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pairRank(at)
		if at > 0 {
			rank[at-1] = pairRank(at - 1)
		}
	}
	for i := 0; i+1 < len(start); i++ {
		ids = append(ids, v.rank(piece[start[i]:start[i+1]]))
	}
	m.start, m.rank = start, rank
	return ids
}

// node is a part boundary in heapMerge's linked list; rank is that of the
// part joined with the next one.
type node struct {
	prev, next int32
	rank       int32
}

type candidate struct {
	rank, at int32
}

func less(a, b candidate) bool {
	return a.rank < b.rank || a.rank == b.rank && a.at < b.at
}

func (m *merger) heapMerge(v *vocab, piece string, ids []int) []int {
	n := int32(len(piece))
	nodes := m.nodes[:0]
	for i := int32(0); i <= n; i++ {
		nodes = append(nodes, node{prev: i - 1, next: i + 1, rank: noRank})
	}
	nodes[n].next = -1
	pairRank := func(i int32) int32 {
		j := nodes[i].next
		if j < 0 || nodes[j].next < 0 {
			return noRank
		}
		return v.rank32(piece[i:nodes[j].next])
	}
	h := m.heap[:0]
	for i := int32(0); i+2 <= n; i++ {
		if r := pairRank(i); r != noRank {
			nodes[i].rank = r
			h = append(h, candidate{r, i})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i)
	}
	for len(h) > 0 {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		down(h, 0)
		i := top.at
		if nodes[i].rank != top.rank {
			continue // stale: the pair changed since
		}
		// Part j joins part i. A pair's bytes only grow, so a rank once
		// left behind never comes back to the same boundary.
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = pairRank(b)
			if nodes[b].rank != noRank {
				h = append(h, candidate{nodes[b].rank, b})
				up(h, len(h)-1)
			}
		}
	}
	for i := int32(0); nodes[i].next >= 0; i = nodes[i].next {
		ids = append(ids, v.rank(piece[i:nodes[i].next]))
	}
	m.nodes, m.heap = nodes, h
	return ids
}

func up(h []candidate, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func down(h []candidate, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && less(h[c+1], h[c]) {
			c++
		}
		if !less(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
