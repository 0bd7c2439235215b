package ui

import (
	"sort"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/find"
	"github.com/wirelens/wirelens/wire/scan"
)

// maxHits caps the matches a search keeps.
const maxHits = 100000

// searchMsg carries the matches of a search over every segment of every
// request, in request, cache-order and offset order.
type searchMsg struct {
	gen     int
	query   string
	hits    []hit
	more    bool
	dropped int // m.dropped when it started: the hits move down since
}

// startSearch runs a search in a command. A query in lower case matches
// ASCII letters in either case (smart case).
func (m *Model) startSearch(q string) tea.Cmd {
	m.searchGen++
	m.query = q
	m.hits, m.hitAt = nil, -1
	unmark := m.decorateBody(nil, m.body.Cut)
	if q == "" {
		return unmark
	}
	m.searching = true
	gen, dropped := m.searchGen, m.dropped
	// Entries never change once loaded (more are appended, and dropping
	// makes a new slice): the command reads them as they are, copying nothing.
	reqs := m.reqs
	return tea.Batch(unmark, func() tea.Msg {
		fold := find.Fold(q)
		memo := map[uint64][]int{}
		var hits []hit
		more := false
		for ri := range reqs {
			e := &reqs[ri]
			for _, si := range e.order {
				s := &e.req.Segments[si]
				offs, ok := memo[s.Hash]
				if !ok || s.Hash == 0 {
					offs = findAll(s.Text, q, fold)
					memo[s.Hash] = offs
				}
				for _, o := range offs {
					if len(hits) >= maxHits {
						more = true
						break
					}
					hits = append(hits, hit{ri, si, o})
				}
			}
		}
		return searchMsg{gen: gen, query: q, hits: hits, more: more, dropped: dropped}
	})
}

// findAll is find.All.
func findAll(text, q string, fold bool) []int { return find.All(text, q, fold) }

func (m *Model) onSearch(msg searchMsg) tea.Cmd {
	if msg.gen != m.searchGen {
		return nil
	}
	m.searching = false
	m.hits = find.DropBelow(msg.hits, m.dropped-msg.dropped, func(h *hit) *int { return &h.req })
	q := scan.VisibleLine(msg.query)
	if len(m.hits) == 0 {
		m.status = "no match for " + q
		return nil
	}
	m.status = strconv.Itoa(len(m.hits)) + " matches for " + q
	if msg.more {
		m.status += " (first " + strconv.Itoa(maxHits) + ")"
	}
	// The first match at or after the current position.
	c, s := m.cur(), m.curSeg()
	pos := m.cachePos(c, s)
	m.hitAt = -1
	for i, h := range m.hits {
		if h.req > c || (h.req == c && m.cachePos(h.req, h.seg) >= pos) {
			m.hitAt = i - 1
			break
		}
	}
	if m.hitAt == -1 && (m.hits[0].req < c) {
		m.hitAt = len(m.hits) - 1
	}
	return m.stepHit(1)
}

// cachePos is the position of segment s in request r's cache order.
func (m *Model) cachePos(r, s int) int {
	if r < 0 {
		return 0
	}
	for k, i := range m.reqs[r].order {
		if i == s {
			return k
		}
	}
	return 0
}

// stepHit goes to the next (dir 1) or previous (dir -1) match: its request
// is selected (the filter is cleared if it hides it), its segment selected
// and the match scrolled into view.
func (m *Model) stepHit(dir int) tea.Cmd {
	if len(m.hits) == 0 {
		if m.query != "" {
			m.status = "no match for " + scan.VisibleLine(m.query)
		}
		return nil
	}
	m.hitAt = (m.hitAt + dir + len(m.hits)) % len(m.hits)
	h := m.hits[m.hitAt]
	cmd := m.jumpTo(h.req, h.seg, h.off)
	// The body keeps its marks when the match is in the segment shown.
	cmd = tea.Batch(cmd, m.decorateBody(m.matchMarks(h.req, h.seg), m.body.Cut))
	// The count is in the search's place in the status line.
	m.status = "in " + scan.VisibleLine(m.reqs[h.req].req.Segments[h.seg].ID)
	return cmd
}

// matchMarks are the search matches inside segment s of request r.
func (m *Model) matchMarks(r, s int) []mark {
	if len(m.hits) == 0 {
		return nil
	}
	lo := sort.Search(len(m.hits), func(i int) bool {
		h := m.hits[i]
		return h.req > r || (h.req == r && m.cachePos(r, h.seg) >= m.cachePos(r, s))
	})
	var out []mark
	for i := lo; i < len(m.hits) && m.hits[i].req == r && m.hits[i].seg == s; i++ {
		out = append(out, mark{Start: m.hits[i].off, End: m.hits[i].off + len(m.query)})
	}
	return out
}
