package redact

// kwMatcher finds every occurrence of a set of keywords in one pass over a
// text, whatever the number of keywords: an Aho-Corasick automaton made
// deterministic, over classes of bytes. An ASCII capital in the text matches
// its small letter (the keywords are in lower case), so the text need not be
// lowered first.
type kwMatcher struct {
	// class maps a byte to its class: 0 for a byte in no keyword, which
	// always leads back to the root.
	class  [256]uint8
	nclass int
	// next is the transition table: next[off+class], for off a state's
	// offset (its number times nclass), holds the next state's offset
	// shifted left by one, its low bit set when a keyword ends there.
	next []uint32
	// The keywords (by index) that end at state st, its own and those of
	// the states its suffixes reach, are outs[outAt[st][0]:outAt[st][1]].
	outs  []uint16
	outAt [][2]uint32
	lens  []int // the keywords' lengths, by index
	empty bool  // a keyword is empty: it occurs in every text
}

// newKWMatcher builds the automaton of keys (at most 65,535 of them, each
// in lower case; an ASCII capital in one is read as its small letter).
func newKWMatcher(keys []string) *kwMatcher {
	m := &kwMatcher{lens: make([]int, len(keys))}
	nc, size := 1, 1
	for _, k := range keys {
		size += len(k)
		for i := 0; i < len(k); i++ {
			c := lowerByte(k[i])
			if m.class[c] == 0 {
				m.class[c] = uint8(nc)
				nc++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	m.nclass = nc
	// The trie: child[state*nc+class], 0 for none (the root is no one's
	// child); own[state], the keywords that end there.
	child := make([]int32, size*nc)
	own := make([][]uint16, size)
	n := 1
	for id, k := range keys {
		m.lens[id] = len(k)
		if k == "" {
			m.empty = true
			continue
		}
		st := 0
		for i := 0; i < len(k); i++ {
			at := st*nc + int(m.class[lowerByte(k[i])])
			if child[at] == 0 {
				child[at] = int32(n)
				n++
			}
			st = int(child[at])
		}
		own[st] = append(own[st], uint16(id))
	}
	// Breadth first, each state's failure (its longest proper suffix that
	// is a state) is known before its children's, and with it the
	// transitions the state lacks.
	m.next = make([]uint32, n*nc)
	fail := make([]int32, n)
	term := make([]bool, n)
	enc := func(st int32) uint32 {
		v := uint32(int(st)*nc) << 1
		if term[st] {
			v |= 1
		}
		return v
	}
	dec := func(v uint32) int32 { return int32(int(v>>1) / nc) }
	queue := make([]int32, 1, n)
	outAt := make([][2]uint32, n)
	for q := 0; q < len(queue); q++ {
		st := int(queue[q])
		f := int(fail[st])
		outAt[st][0] = uint32(len(m.outs))
		m.outs = append(m.outs, own[st]...)
		if st != 0 {
			m.outs = append(m.outs, m.outs[outAt[f][0]:outAt[f][1]]...)
		}
		outAt[st][1] = uint32(len(m.outs))
		for c := range nc {
			ch := child[st*nc+c]
			switch {
			case ch != 0:
				if st != 0 {
					fail[ch] = dec(m.next[f*nc+c])
				}
				term[ch] = len(own[ch]) > 0 || term[fail[ch]]
				m.next[st*nc+c] = enc(ch)
				queue = append(queue, ch)
			case st != 0:
				m.next[st*nc+c] = m.next[f*nc+c]
			}
		}
	}
	m.outAt = outAt
	return m
}

// lowerByte is c, an ASCII capital made small.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// find calls hit with the index of each keyword that occurs in s and the
// offset where it starts, in the order the occurrences end (the longer
// first at the same end), overlapping ones included. An empty keyword is
// not reported.
func kwFind[T string | []byte](m *kwMatcher, s T, hit func(id, start int)) {
	next, class, nc := m.next, &m.class, m.nclass
	st := 0
	for i := 0; i < len(s); i++ {
		v := next[st+int(class[s[i]])]
		st = int(v >> 1)
		if v&1 != 0 {
			at := m.outAt[st/nc]
			for _, id := range m.outs[at[0]:at[1]] {
				hit(int(id), i+1-m.lens[id])
			}
		}
	}
}

// kwAny reports whether any keyword occurs in s.
func kwAny[T string | []byte](m *kwMatcher, s T) bool {
	if m.empty {
		return true
	}
	next, class := m.next, &m.class
	st := 0
	for i := 0; i < len(s); i++ {
		v := next[st+int(class[s[i]])]
		if v&1 != 0 {
			return true
		}
		st = int(v >> 1)
	}
	return false
}
