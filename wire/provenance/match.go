package provenance

import (
	"sort"
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Matching thresholds: what makes a run of lines evidence that text came
// from a file.
const (
	// MinWeight is the fewest letters and digits a run of a file's lines
	// must hold (weight): one short line ("# Notes", "}") could be anyone's.
	MinWeight = 20
	// MinListing is the fewest distinct entry names of the workspace, one a
	// line, that make a listing (or all of them, when it has fewer).
	MinListing = 3
)

// span is a stretch [Start, End) of a text that came from one file (or,
// file -1, from the workspace's entry names: a listing).
type span struct {
	Start, End int
	file       int
	kind       wire.Kind
	// head and tail: the run starts at the file's first line, ends at its
	// last (what comes before or after it is not the file's).
	head, tail bool
}

// line is one line of a text, or a part of one (a JSON-escaped line split
// at its \n): [start, end) in the text, end after its line break.
type line struct {
	start, end int // the line's content, white space around it excluded
	next       int // where the next line starts
	canon      string
	locs       []loc
	name       bool // an entry name of the workspace
}

// splitLines cuts text into lines with their canonical forms and where
// the index holds them. A line that matches nothing and holds JSON-escaped
// line breaks (\n) is cut at them and its pieces unescaped.
func (x *Index) splitLines(text string) []line {
	var out []line
	next := 0
	for ln := range strings.Lines(text) {
		at := next
		next += len(ln)
		s, e := trimRange(text, at, next) // trimRange drops the line break too
		l := line{start: s, end: e, next: next}
		if s < e {
			x.look(&l, text[s:e])
			if l.locs == nil && !l.name && strings.Contains(text[s:e], `\n`) {
				out = append(out, x.escapedLines(text, s, e, next)...)
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// escapedLines cuts [s, e) of text at its JSON-escaped line breaks.
func (x *Index) escapedLines(text string, s, e, next int) []line {
	var out []line
	for at := s; at < e; {
		k := strings.Index(text[at:e], `\n`)
		end, nx := e, next
		if k >= 0 {
			end, nx = at+k, at+k+2
		}
		ps, pe := trimRange(text, at, end)
		l := line{start: ps, end: pe, next: nx}
		if ps < pe {
			x.lookCanon(&l, canonical(jsonUnescape(text[ps:pe])))
		}
		out = append(out, l)
		at = nx
	}
	return out
}

// trimRange is [s, e) without the white space at its ends.
func trimRange(text string, s, e int) (int, int) {
	for s < e && isSpace(text[s]) {
		s++
	}
	for e > s && isSpace(text[e-1]) {
		e--
	}
	return s, e
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// look fills in where the index holds one line.
func (x *Index) look(l *line, raw string) {
	c := canonical(raw)
	x.lookCanon(l, c)
	if l.locs == nil && strings.IndexByte(c, '[') >= 0 {
		if c2 := csiRemnant(c); c2 != c {
			x.lookCanon(l, c2)
		}
	}
	if !l.name && len(x.names) > 0 {
		if n := treeName(raw); n != "" && x.names[hashOf(n)] {
			l.name = true
		}
	}
}

func (x *Index) lookCanon(l *line, c string) {
	l.canon = c
	if c == "" {
		return
	}
	if locs := x.lines[hashOf(c)]; locs != nil {
		l.locs = locs
	}
}

// run is a run of lines matching consecutive lines of one file.
type run struct {
	file              int
	first, last       int // indices in the lines
	fileFirst, fileAt int // the file's line index of the first and the last
	weight            int
}

// spans finds the stretches of text that came from the index's files and
// listing, in order, without overlaps.
func (x *Index) spans(text string) []span {
	lines := x.splitLines(text)
	var cands []run
	active := map[int]run{}
	for i := range lines {
		l := &lines[i]
		if l.start == l.end || l.canon == "" {
			continue // a blank line (or one of hazards only) joins runs
		}
		if len(l.locs) == 0 {
			// Most lines of a host's text: every run ends here.
			for _, r := range active {
				cands = append(cands, r)
			}
			clear(active)
			continue
		}
		next := make(map[int]run, len(l.locs))
		w := weight(l.canon)
		for _, lc := range l.locs {
			f := int(lc.file)
			if _, done := next[f]; done {
				continue
			}
			if r, ok := active[f]; ok && int(lc.line) == r.fileAt+1 {
				r.last, r.fileAt, r.weight = i, int(lc.line), r.weight+w
				next[f] = r
			}
		}
		for _, lc := range l.locs {
			f := int(lc.file)
			if _, done := next[f]; !done {
				next[f] = run{file: f, first: i, last: i, fileFirst: int(lc.line), fileAt: int(lc.line), weight: w}
			}
		}
		for f, r := range active {
			if _, ok := next[f]; !ok {
				cands = append(cands, r)
			}
		}
		active = next
	}
	for _, r := range active {
		cands = append(cands, r)
	}
	// The heaviest runs first; at equal weight the one that covers more of
	// its file (the file itself, not a copy of most of it), then file order.
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.weight != b.weight {
			return a.weight > b.weight
		}
		fa, fb := len(x.Files[a.file].Lines), len(x.Files[b.file].Lines)
		if fa != fb {
			return fa < fb
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.first < b.first
	})
	taken := make([]bool, len(lines))
	var out []span
	for _, r := range cands {
		if r.weight < MinWeight {
			continue
		}
		free := true
		for k := r.first; k <= r.last; k++ {
			if taken[k] {
				free = false
				break
			}
		}
		if !free {
			continue
		}
		for k := r.first; k <= r.last; k++ {
			taken[k] = true
		}
		f := &x.Files[r.file]
		kind := f.Kind
		if kind == wire.KindSkillLoaded && r.fileAt < f.FrontMatter {
			kind = wire.KindSkillsListing // only its front matter: an entry of a listing
		}
		out = append(out, span{Start: lines[r.first].start, End: lineEnd(text, lines[r.last]), file: r.file, kind: kind,
			head: r.fileFirst == 0, tail: r.fileAt == len(f.Lines)-1})
	}
	out = append(out, x.valueSpans(text, lines, taken)...)
	out = append(out, x.listingSpans(text, lines, taken)...)
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// lineEnd is where a span that ends with l ends: after its line break when
// the break follows the content at once.
func lineEnd(text string, l line) int {
	if l.next > l.end && l.next <= len(text) && text[l.next-1] == '\n' && strings.TrimSpace(text[l.end:l.next]) == "" {
		return l.next
	}
	return l.end
}

// valueSpans finds a SKILL.md's description quoted on a line of a skill
// listing: the line's value after "key:", "- name:" or between a tag pair.
func (x *Index) valueSpans(text string, lines []line, taken []bool) []span {
	if len(x.values) == 0 {
		return nil
	}
	var out []span
	for i, l := range lines {
		if taken[i] || l.start == l.end {
			continue
		}
		for _, v := range valueRanges(text, l.start, l.end) {
			c := canonical(text[v[0]:v[1]])
			if locs := x.values[hashOf(c)]; locs != nil {
				out = append(out, span{Start: v[0], End: v[1], file: int(locs[0].file), kind: wire.KindSkillsListing})
				taken[i] = true
				break
			}
		}
	}
	return out
}

// valueRanges are the stretches of [s, e) that may be a quoted value: after
// the first ": " (a "key: value" or "- name: value" line), and between an
// opening tag at the line's start and a closing tag at its end.
func valueRanges(text string, s, e int) [][2]int {
	var out [][2]int
	ln := text[s:e]
	if k := strings.Index(ln, ": "); k > 0 && k < 80 {
		a, b := trimRange(text, s+k+2, e)
		if a < b {
			out = append(out, [2]int{a, b})
		}
	}
	if strings.HasPrefix(ln, "<") {
		if gt := strings.IndexByte(ln, '>'); gt > 0 {
			if lt := strings.LastIndex(ln, "</"); lt > gt && strings.HasSuffix(ln, ">") {
				a, b := trimRange(text, s+gt+1, s+lt)
				if a < b {
					out = append(out, [2]int{a, b})
				}
			}
		}
	}
	return out
}

// listingSpans finds runs of lines that are each an entry name of the
// workspace: a listing of it.
func (x *Index) listingSpans(text string, lines []line, taken []bool) []span {
	if len(x.names) == 0 {
		return nil
	}
	need := min(MinListing, len(x.names))
	var out []span
	flush := func(first, last int, distinct map[string]bool) {
		if first >= 0 && len(distinct) >= need {
			out = append(out, span{Start: lines[first].start, End: lineEnd(text, lines[last]), file: -1, kind: wire.KindCwdListing})
		}
	}
	first, last := -1, -1
	distinct := map[string]bool{}
	for i, l := range lines {
		if l.start == l.end {
			continue
		}
		if l.name && !taken[i] {
			if first < 0 {
				first = i
				distinct = map[string]bool{}
			}
			last = i
			distinct[treeName(text[l.start:l.end])] = true
			continue
		}
		flush(first, last, distinct)
		first = -1
	}
	flush(first, last, distinct)
	return out
}
