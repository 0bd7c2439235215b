package provenance

import (
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// memoKey is a text already matched: segments repeat across a session's
// requests, so each distinct text is matched once.
type memoKey struct {
	hash uint64
	n    int
}

// judged reports whether a segment's trust is for provenance to decide:
// the host's and the user's text, and text a layout judged untrusted
// without knowing whose it is (kind other). Tool schemas, calls and
// results, the model's output and the host's notes are left as they are.
func judged(s *wire.Segment) bool {
	switch s.Kind {
	case wire.KindToolSchema, wire.KindToolCall, wire.KindToolResult, wire.KindAssistant, wire.KindHostNote:
		return false
	}
	switch s.Trust {
	case wire.Trusted, wire.TrustUser:
		return true
	case wire.Untrusted:
		// Text a layout judged the workspace's (or untrusted for want of
		// knowing whose): provenance labels it and finds the host's bytes
		// a framing took with it.
		return s.Kind == wire.KindOther || s.Label == "" || s.Kind.WorkspaceDerived()
	}
	return false
}

// refined reports whether s is a layout's workspace segment, whose text
// around the files provenance found stays untrusted except where a whole
// file's run bounds it (refine).
func refined(s *wire.Segment) bool {
	return s.Trust == wire.Untrusted && s.Kind != wire.KindOther && s.Kind.WorkspaceDerived()
}

// spansOf is x.spans(text), memoised by the text's hash.
func (x *Index) spansOf(text string, hash uint64) []span {
	k := memoKey{hash, len(text)}
	x.mu.Lock()
	sp, ok := x.memo[k]
	x.mu.Unlock()
	if ok {
		return sp
	}
	sp = x.spans(text)
	x.mu.Lock()
	if len(x.memo) > 1<<16 {
		clear(x.memo)
	}
	x.memo[k] = sp
	x.mu.Unlock()
	return sp
}

// Apply cuts every span of r's segments that came from an indexed file into
// a segment of its own: a workspace file's text untrusted, a HOME file's
// trust user, kind by the file (Kind; entry names a cwd-listing), labelled
// by its path. What is around a span keeps its segment's meaning, except
// that text a layout judged untrusted only for want of knowing whose it was
// (kind other, next to a stray tag) is the host's (or, in a message, the
// user's) once the workspace's bytes are known. Joining a part's segments
// still gives its text back. r's segments are not written: a request with
// a span gets new ones.
func (x *Index) Apply(r wire.Request, in *wire.Interner) wire.Request {
	if x.Empty() {
		return r
	}
	var found map[int][]span
	for i := range r.Segments {
		s := &r.Segments[i]
		if !judged(s) {
			continue
		}
		if sp := x.spansOf(s.Text, s.Hash); len(sp) > 0 {
			if found == nil {
				found = map[int][]span{}
			}
			found[i] = sp
		}
	}
	if found == nil {
		return r
	}
	// IDs in use in each part, so that new ones are unique.
	used := map[string]bool{}
	for i := range r.Segments {
		used[r.Segments[i].ID] = true
	}
	segs := make([]wire.Segment, 0, len(r.Segments)+2*len(found))
	var bps []int
	for i, s := range r.Segments {
		sp := found[i]
		if sp == nil {
			segs = append(segs, s)
			if r.Breakpoint(i) {
				bps = append(bps, len(segs)-1)
			}
			continue
		}
		segs = append(segs, x.cut(s, sp, in, used)...)
		if r.Breakpoint(i) {
			bps = append(bps, len(segs)-1)
		}
	}
	r.Segments = segs
	r.Breakpoints = bps
	return r
}

// cut cuts one segment at its spans.
func (x *Index) cut(s wire.Segment, sp []span, in *wire.Interner, used map[string]bool) []wire.Segment {
	var out []wire.Segment
	rest := s
	if s.Trust == wire.Untrusted && s.Kind == wire.KindOther {
		// The workspace's bytes are the spans: the rest is the host's.
		rest.Trust, rest.Kind = wire.Trusted, wire.KindHostRules
		if s.Channel == wire.ChannelMessages {
			rest.Trust, rest.Kind = wire.TrustUser, wire.KindUserInput
		}
	}
	restN := 0
	sp = widen(s.Text, sp)
	if refined(&s) {
		return x.refine(s, sp, in, used)
	}
	whole := len(sp) == 1 && sp[0].Start == 0 && sp[0].End == len(s.Text)
	add := func(seg wire.Segment, a, b int, name string) {
		seg.Text, seg.Hash = in.Intern(s.Text[a:b])
		seg.Start = s.Start + a
		seg.ID = x.uniqueID(s, name, &restN, used)
		if seg.Trust == wire.Untrusted {
			seg.Escapes = classify.Escapes(seg.Text)
		} else {
			seg.Escapes = nil
		}
		out = append(out, seg)
	}
	at := 0
	for _, p := range sp {
		if p.Start > at {
			add(rest, at, p.Start, "")
		}
		seg := s
		seg.Kind = p.kind
		seg.Trust = wire.Untrusted
		if p.file >= 0 {
			f := &x.Files[p.file]
			seg.Label = f.Path
			if f.Source == Home {
				seg.Trust = wire.TrustUser
			}
		} else {
			seg.Label = "workspace listing"
		}
		if whole { // the whole segment: it keeps its ID
			seg.Escapes = nil
			if seg.Trust == wire.Untrusted {
				seg.Escapes = classify.Escapes(seg.Text)
			}
			return []wire.Segment{seg}
		}
		add(seg, p.Start, p.End, string(p.kind))
		at = p.End
	}
	if at < len(s.Text) {
		add(rest, at, len(s.Text), "")
	}
	return out
}

// uniqueID names a piece of segment s: the span's kind after the part's ID
// ("<part>/agents-md", "#2" for a later one), the text around spans the
// segment's own ID for its first piece and "<id>~2", ... for the others.
func (x *Index) uniqueID(s wire.Segment, name string, restN *int, used map[string]bool) string {
	var base string
	if name == "" {
		*restN++
		if *restN == 1 && s.ID != s.Part {
			return s.ID // the segment's own ID stays with its first piece
		}
		base = s.ID
		if s.ID == s.Part {
			base = s.Part + "/" + strconv.Itoa(*restN-1)
			if !used[base] {
				used[base] = true
				return base
			}
		}
	} else {
		base = s.Part + "/" + name
		if !used[base] {
			used[base] = true
			return base
		}
	}
	for n := 2; ; n++ {
		id := base + "#" + strconv.Itoa(n)
		if name == "" && s.ID != s.Part {
			id = base + "~" + strconv.Itoa(n)
		}
		if !used[id] {
			used[id] = true
			return id
		}
	}
}

// widen gives the white space between a span and its neighbours (or the
// text's ends) to the span: a piece of white space alone says nothing.
func widen(text string, sp []span) []span {
	out := make([]span, len(sp))
	copy(out, sp)
	for i := range out {
		lo := 0
		if i > 0 {
			lo = out[i-1].End
		}
		if blank(text[lo:out[i].Start]) {
			out[i].Start = lo
		}
		hi := len(text)
		if i+1 < len(out) {
			hi = out[i+1].Start
		}
		if blank(text[out[i].End:hi]) {
			out[i].End = hi
		}
	}
	return out
}

func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

// AssumedNote is what a request says when nothing decided the trust of
// its system text: no framing of a known layout was found in it and no
// provenance was available, so the system text is the host's by
// assumption.
const AssumedNote = "layout not recognised: trust of the system text is assumed; pass --workspace DIR or capture with record"

// Assumed reports whether the trust of r's system text is assumed: r has
// system-channel text (system, developer, instructions) and no segment of
// it was cut, enveloped or given a workspace kind by a layout. A request
// judged by an Index is never assumed: the index decided.
func Assumed(r *wire.Request) bool {
	system := false
	for i := range r.Segments {
		s := &r.Segments[i]
		switch {
		case s.Kind == wire.KindToolSchema || s.Kind == wire.KindToolCall || s.Kind == wire.KindToolResult:
			continue
		case s.ID != s.Part || s.Envelope != "" || s.Kind.WorkspaceDerived():
			return false
		case s.Channel == wire.ChannelSystem && s.Trust == wire.Trusted && !blank(s.Text):
			system = true
		}
	}
	return system
}

// refine cuts a layout's workspace segment s at the spans provenance found
// in it: each span is labelled by its file; text before a span that starts
// at its file's first line, or after one that ends at its file's last, is
// not the file's and is the host's (a sentence a framing without a closer
// took along); any other text stays as the layout judged it. A segment with
// nothing to give back is only labelled.
func (x *Index) refine(s wire.Segment, sp []span, in *wire.Interner, used map[string]bool) []wire.Segment {
	host := s
	host.Trust, host.Kind, host.Envelope, host.Label = wire.Trusted, wire.KindHostRules, s.Envelope, ""
	if s.Channel == wire.ChannelMessages {
		host.Kind = wire.KindOther
	}
	type cutPiece struct {
		a, b int
		seg  wire.Segment
		name string
	}
	var pieces []cutPiece
	at := 0
	for i, p := range sp {
		if p.Start > at {
			gap := s // as the layout judged it
			if i > 0 && sp[i-1].tail || p.head {
				gap = host
			}
			pieces = append(pieces, cutPiece{at, p.Start, gap, ""})
		}
		seg := s
		seg.Kind = p.kind
		if p.file >= 0 {
			f := &x.Files[p.file]
			seg.Label = f.Path
			if f.Source == Home {
				seg.Trust = wire.TrustUser
			}
		}
		pieces = append(pieces, cutPiece{p.Start, p.End, seg, string(p.kind)})
		at = p.End
	}
	if at < len(s.Text) {
		gap := s
		if len(sp) > 0 && sp[len(sp)-1].tail {
			gap = host
		}
		pieces = append(pieces, cutPiece{at, len(s.Text), gap, ""})
	}
	gives := false
	for _, p := range pieces {
		gives = gives || p.seg.Trust == wire.Trusted
	}
	if !gives {
		// Nothing is the host's: the layout's segment stands, labelled
		// by the file when one file is all provenance found in it and
		// the host's label does not already name it (cline's "## rules"
		// heading for .clinerules/rules.md); a skill's label stays.
		file := sp[0].file
		for _, p := range sp {
			if p.file != file {
				file = -1
			}
		}
		if file >= 0 && !strings.HasPrefix(s.Label, "skill ") && !strings.HasSuffix(s.Label, x.Files[file].Path) {
			s.Label = x.Files[file].Path
		}
		if file >= 0 && x.Files[file].Source == Home {
			s.Trust, s.Escapes = wire.TrustUser, nil
		}
		return []wire.Segment{s}
	}
	if len(pieces) == 1 {
		seg := pieces[0].seg
		seg.Escapes = nil
		if seg.Trust == wire.Untrusted {
			seg.Escapes = classify.Escapes(seg.Text)
		}
		return []wire.Segment{seg}
	}
	var out []wire.Segment
	restN := 0
	for k, p := range pieces {
		seg := p.seg
		seg.Text, seg.Hash = in.Intern(s.Text[p.a:p.b])
		seg.Start = s.Start + p.a
		name := p.name
		if k == 0 {
			seg.ID = s.ID // the segment's own ID stays with its first piece
			restN = 1
		} else {
			if name == "" {
				name = string(seg.Kind)
			}
			seg.ID = x.uniqueID(s, name, &restN, used)
		}
		seg.Escapes = nil
		if seg.Trust == wire.Untrusted {
			seg.Escapes = classify.Escapes(seg.Text)
		}
		out = append(out, seg)
	}
	return out
}
