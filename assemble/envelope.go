package assemble

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire/scan"
)

// EscapeMode is how envelope bodies are escaped.
type EscapeMode string

// Escape modes (--escape).
const (
	// EscapeEntities turns every &, < and > of a body into an entity, and
	// every look-alike of < and > (the brackets wire's tag finder folds:
	// fullwidth, guillemets, angle ornaments, ...) into a numeric reference.
	EscapeEntities EscapeMode = "entities"
	// EscapeTargeted neutralises only the brackets that open a reserved tag
	// (an envelope or authority marker, in any case, with whitespace or
	// invisibles inside, with look-alike brackets, slashes or letters; a
	// role marker such as [INST]), leaving code samples readable.
	EscapeTargeted EscapeMode = "targeted"
)

// MaxBodyBytes caps the source text of one envelope body; the rest is
// replaced by the truncation note.
const MaxBodyBytes = 96 << 10

// MaxAttrBytes caps one escaped attribute value (the rest is replaced by the
// truncation note), so that an opener with its two long values (a skill's
// name and directory) stays well inside the 4 KiB a reader of the wire
// follows an opening tag's attributes for (wire's tag finder): a longer
// opener would not be read as the envelope's.
const MaxAttrBytes = 1024

// Escape rules written to the log.
const (
	RuleStripped = "stripped" // a hazard removed by the sanitiser
	// RuleReplaced: an invalid UTF-8 byte replaced with U+FFFD, or a line
	// break or tab in an attribute value replaced with a space.
	RuleReplaced  = "replaced"
	RuleEntity    = "entity"    // a character replaced by an entity
	RuleTruncated = "truncated" // the end of a body cut
)

// Escape is one change made to untrusted text on its way into an envelope.
type Escape struct {
	Rule string
	// Fragment names the envelope ("untrusted_agents_md /repo/AGENTS.md").
	Fragment string
	// Attr names the attribute of the envelope's opener whose value was
	// changed; "" for a change in the body.
	Attr string
	// SourceOffset is the byte offset of the change in the source text (the
	// payload as collected, or the attribute's value); Offset is its byte
	// offset in the envelope body (or in the attribute's escaped value).
	SourceOffset int
	Offset       int
	// Original is what was there, Replacement what stands there now.
	Original    string
	Replacement string
}

// Sanitise removes the hazards wire.scan.Hazards finds (C0 and C1 controls but
// tab, newline and carriage return, DEL, terminal escape sequences, bidi
// controls, tag characters outside emoji flags, invisible characters, runs of
// variation selectors), repeating until nothing changes, so that removing one
// cannot leave another behind. Invalid UTF-8 bytes become U+FFFD. The log
// gives each change's offset in src; its Offset is the offset in the result.
func Sanitise(src string) (string, []Escape) {
	t, log, _ := sanitiseWithOffsets(src)
	return t, log
}

// sanitiseWithOffsets is Sanitise that also returns, for each byte offset of
// the result (and its end), the offset in src it came from.
func sanitiseWithOffsets(src string) (string, []Escape, []int) {
	if !scan.HasHazards(src) {
		return src, nil, nil
	}
	cur := src
	orig := make([]int, len(src)+1)
	for i := range orig {
		orig[i] = i
	}
	var log []Escape
	for {
		hz := scan.Hazards(cur)
		if len(hz) == 0 {
			break
		}
		var b strings.Builder
		b.Grow(len(cur))
		next := make([]int, 0, len(cur)+1)
		// pos maps each offset of cur to the offset of the next text, so
		// that earlier log entries keep pointing at the right place.
		pos := make([]int, len(cur)+1)
		last := 0
		keep := func(to int) {
			for i := last; i < to; i++ {
				pos[i] = b.Len() + (i - last)
				next = append(next, orig[i])
			}
			b.WriteString(cur[last:to])
		}
		for _, h := range hz {
			keep(h.Offset)
			at := b.Len()
			for i := h.Offset; i < h.Offset+h.Len; i++ {
				pos[i] = at
			}
			e := Escape{Rule: RuleStripped, SourceOffset: orig[h.Offset], Offset: at,
				Original: cur[h.Offset : h.Offset+h.Len]}
			if h.Class == scan.HazardInvalid {
				e.Rule, e.Replacement = RuleReplaced, "\uFFFD"
				for range len(e.Replacement) {
					next = append(next, orig[h.Offset])
				}
				b.WriteString(e.Replacement)
			}
			log = append(log, e)
			last = h.Offset + h.Len
		}
		keep(len(cur))
		pos[len(cur)] = b.Len()
		next = append(next, orig[len(cur)])
		for i := range log[:len(log)-len(hz)] {
			log[i].Offset = pos[log[i].Offset]
		}
		cur, orig = b.String(), next
	}
	return cur, log, orig
}

// EscapeBody sanitises src, then escapes it for an envelope body in the given
// mode, capping it at MaxBodyBytes of source. The log records every change
// with its offsets in src and in the result; fragment names the envelope in
// the log.
func EscapeBody(src string, mode EscapeMode, fragment string) (string, []Escape) {
	var cut int
	if len(src) > MaxBodyBytes {
		keep := MaxBodyBytes
		for keep > 0 && !utf8.RuneStart(src[keep]) {
			keep--
		}
		cut = len(src) - keep
		src = src[:keep]
	}
	t, strip, orig := sanitiseWithOffsets(src)
	srcOff := func(i int) int {
		if orig == nil {
			return i
		}
		return orig[i]
	}
	// tpos maps offsets of the sanitised text t to offsets of the output.
	var b strings.Builder
	b.Grow(len(t) + len(t)/8)
	tpos := make([]int, 0, len(t)+1)
	var log []Escape
	if mode == EscapeEntities {
		log = make([]Escape, 0, strings.Count(t, "<")+strings.Count(t, ">")+strings.Count(t, "&"))
	}
	copyTo := func(from, to int) {
		for i := from; i < to; i++ {
			tpos = append(tpos, b.Len()+(i-from))
		}
		b.WriteString(t[from:to])
	}
	replace := func(at, n int, with string) {
		tpos = append(tpos, b.Len())
		for i := 1; i < n; i++ {
			tpos = append(tpos, b.Len())
		}
		log = append(log, Escape{Rule: RuleEntity, Fragment: fragment, SourceOffset: srcOff(at),
			Offset: b.Len(), Original: t[at : at+n], Replacement: with})
		b.WriteString(with)
	}
	// Every reserved tag loses its opening brackets: '<' becomes &lt;, a
	// look-alike or the '[' of a role marker a numeric reference (in both
	// modes, so that no envelope or authority tag survives, whatever its
	// brackets; both brackets of a doubled <<SYS>>). Openers without their
	// closing bracket count too: the envelope's own closer, or a quote or
	// line after the body, could complete them.
	hits := scan.FindReservedTagStarts(t)
	last, next := 0, 0
	for i := 0; i < len(t); {
		if next < len(hits) && hits[next].Offset == i {
			end := i + hits[next].Len
			next++
			for j := i; j < end; {
				r, n := utf8.DecodeRuneInString(t[j:])
				if scan.IsOpener(r) {
					copyTo(last, j)
					replace(j, n, bracketRef(r))
					last = j + n
				}
				j += n
			}
			i = end
			continue
		}
		if mode == EscapeTargeted {
			i++
			continue
		}
		var with string
		switch c := t[i]; {
		case c == '&':
			with = "&amp;"
		case c == '<':
			with = "&lt;"
		case c == '>':
			with = "&gt;"
		case c >= utf8.RuneSelf:
			// Look-alike brackets, openers and closers alike.
			r, n := utf8.DecodeRuneInString(t[i:])
			if scan.IsBracketLookalike(r) {
				copyTo(last, i)
				replace(i, n, bracketRef(r))
				last = i + n
			}
			i += n
			continue
		default:
			i++
			continue
		}
		copyTo(last, i)
		replace(i, 1, with)
		i++
		last = i
	}
	copyTo(last, len(t))
	tpos = append(tpos, b.Len())
	for i := range strip {
		strip[i].Fragment = fragment
		strip[i].Offset = tpos[strip[i].Offset]
	}
	log = mergeLogs(strip, log)
	if cut > 0 {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		note := TruncationNote(int64(cut))
		log = append(log, Escape{Rule: RuleTruncated, Fragment: fragment, SourceOffset: len(src),
			Offset: b.Len(), Original: fmt.Sprintf("(%d bytes)", cut), Replacement: note})
		b.WriteString(note)
		b.WriteByte('\n')
	}
	return b.String(), log
}

// bracketRef is the character reference that neutralises an opening or
// look-alike bracket: &lt; for '<', a numeric reference for the others.
func bracketRef(r rune) string {
	if r == '<' {
		return "&lt;"
	}
	return fmt.Sprintf("&#x%X;", r)
}

// mergeLogs merges two logs sorted by output offset (stripped first on ties:
// a removal happened before the escape that follows it).
func mergeLogs(a, b []Escape) []Escape {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]Escape, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].Offset <= b[j].Offset {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// EscapeAttr makes an attribute value safe inside double quotes: sanitised,
// then &, <, > and " as entities, and line breaks and tabs as spaces.
func EscapeAttr(v string) string {
	out, _ := EscapeAttrLog(v, "", "")
	return out
}

// EscapeAttrLog is EscapeAttr with the log of its changes: each names the
// fragment and the attribute, with its offsets in v and in the result.
func EscapeAttrLog(v, fragment, attr string) (string, []Escape) {
	t, strip, orig := sanitiseWithOffsets(v)
	var b strings.Builder
	b.Grow(len(t) + 8)
	tpos := make([]int, 0, len(t)+1)
	var log []Escape
	last := 0
	for i := 0; i < len(t); i++ {
		var with, rule string
		n := 1
		switch t[i] {
		case '&':
			with, rule = "&amp;", RuleEntity
		case '<':
			with, rule = "&lt;", RuleEntity
		case '>':
			with, rule = "&gt;", RuleEntity
		case '"':
			with, rule = "&quot;", RuleEntity
		case '\r', '\n', '\t':
			with, rule = " ", RuleReplaced
			// CR LF is one line break, if it was one in v too (not
			// two halves joined by the removal of a hazard between).
			if t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n' && (orig == nil || orig[i+1] == orig[i]+1) {
				n = 2
			}
		default:
			continue
		}
		for j := last; j < i; j++ {
			tpos = append(tpos, b.Len()+(j-last))
		}
		b.WriteString(t[last:i])
		for range n {
			tpos = append(tpos, b.Len())
		}
		src := i
		if orig != nil {
			src = orig[i]
		}
		log = append(log, Escape{Rule: rule, Fragment: fragment, Attr: attr, SourceOffset: src,
			Offset: b.Len(), Original: t[i : i+n], Replacement: with})
		b.WriteString(with)
		i += n - 1
		last = i + 1
	}
	for j := last; j < len(t); j++ {
		tpos = append(tpos, b.Len()+(j-last))
	}
	b.WriteString(t[last:])
	tpos = append(tpos, b.Len())
	for i := range strip {
		strip[i].Fragment, strip[i].Attr = fragment, attr
		strip[i].Offset = tpos[strip[i].Offset]
	}
	out, log := b.String(), mergeLogs(strip, log)
	if len(out) <= MaxAttrBytes {
		return out, log
	}
	// Cut at the last whole unit (a rune copied, or the start of a
	// replacement) that leaves room for the note.
	room := MaxAttrBytes - len(TruncationNote(int64(len(v))))
	k := 0
	for j := 1; j < len(t); j++ {
		if tpos[j] > room {
			break
		}
		if utf8.RuneStart(t[j]) && tpos[j] != tpos[j-1] {
			k = j
		}
	}
	srcCut := k
	if orig != nil {
		srcCut = orig[k]
	}
	kept := log[:0]
	for _, e := range log {
		if e.SourceOffset < srcCut {
			kept = append(kept, e)
		}
	}
	note := TruncationNote(int64(len(v) - srcCut))
	kept = append(kept, Escape{Rule: RuleTruncated, Fragment: fragment, Attr: attr, SourceOffset: srcCut,
		Offset: tpos[k], Original: fmt.Sprintf("(%d bytes)", len(v)-srcCut), Replacement: note})
	return out[:tpos[k]] + note, kept
}

// Envelope is one untrusted body wrapped in its tags.
type Envelope struct {
	Name string // the tag name: untrusted_agents_md, kimi-skill-loaded, ...
	// Frag names the envelope in the log and in refresh reports; stable
	// across builds ("untrusted_agents_md /repo/AGENTS.md").
	Frag  string
	Attrs [][2]string // attributes in order (values unescaped)
	// Preamble is host text placed after the opener, before the body
	// (trusted; not escaped).
	Preamble string
	Source   string   // the untrusted text as collected
	Body     string   // the escaped body
	Log      []Escape // the escape log; offsets in Source and Body
	// AttrLog logs the changes to the attribute values (each entry names
	// its attribute; offsets in the value and in its escaped form).
	AttrLog []Escape
	// BodyStart is the byte offset of Body inside the text written by Write.
	BodyStart int
}

// Fragment is how the log names the envelope.
func (e *Envelope) Fragment() string {
	if e.Frag != "" {
		return e.Frag
	}
	return e.Name
}

// NewEnvelope escapes source for an envelope named name; frag names it in
// the log ("" for the tag name).
func NewEnvelope(name, frag string, attrs [][2]string, preamble, source string, mode EscapeMode) *Envelope {
	e := &Envelope{Name: name, Frag: frag, Attrs: attrs, Preamble: preamble, Source: source}
	e.Body, e.Log = EscapeBody(source, mode, e.Fragment())
	for _, a := range attrs {
		_, log := EscapeAttrLog(a[1], e.Fragment(), a[0])
		e.AttrLog = append(e.AttrLog, log...)
	}
	return e
}

// Write appends the envelope to b: the opener on its own line, the body
// (ending with a newline), the closer on its own line, no newline after it.
// It sets BodyStart relative to base (the offset of b's start in the part).
func (e *Envelope) Write(b *strings.Builder, base int) {
	b.WriteByte('<')
	b.WriteString(e.Name)
	for _, a := range e.Attrs {
		b.WriteByte(' ')
		b.WriteString(a[0])
		b.WriteString(`="`)
		b.WriteString(EscapeAttr(a[1]))
		b.WriteByte('"')
	}
	b.WriteString(">\n")
	b.WriteString(e.Preamble)
	e.BodyStart = base + b.Len()
	b.WriteString(e.Body)
	if e.Body != "" && !strings.HasSuffix(e.Body, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("</")
	b.WriteString(e.Name)
	b.WriteByte('>')
}
