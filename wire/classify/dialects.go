package classify

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
	"github.com/wirelens/wirelens/wire/scan"
)

// This file recognises the envelopes of known agents' dialects at the top
// level of a text part and cuts the part at their boundaries.
//
// Rules (the classifier is a reader of hostile text, so every choice below
// errs towards keeping untrusted text untrusted):
//
//   - An opener counts only at the start of a line (after spaces or tabs),
//     written <name ...> with ASCII brackets; a closer </name> counts anywhere
//     but, in host text, inside an inline code span (`</name>`), where the
//     host's prose only names it.
//     Names match whatever their case; Segment.Envelope carries the canonical
//     name. Look-alike or obfuscated tags are the audit's business, not
//     structure.
//   - The body of an envelope starts after its opener (and the newline that
//     ends the opener's line) and ends where its closer starts.
//   - Only top-level envelopes are split: whatever sits inside a body, tags of
//     any name included, stays in that body, where the audit can see it.
//   - The closer of an envelope is the first closer of its name that is
//     followed, across whitespace only, by an opener of an untrusted
//     envelope or by the end of the text (as every closer of the layouts
//     is; a trusted opener does not count, since a body could forge one);
//     when no
//     such closer exists, it is the last closer of its name in the text. So
//     a breakout closer planted in a body, with text after it, does not end
//     the body. A body that closes and at once reopens an envelope is split
//     there, and everything after it is in the reopened (untrusted) body.
//   - An opener without any closer of its name is not split: its text stays
//     in the surrounding segment. An envelope with an empty body is not split
//     either (its tags stay in the surrounding segment).
//   - A stray tag left at the top level (an untrusted opener without a
//     closer, any closer that closes nothing) means workspace text may have
//     escaped its envelope: the surrounding segment, when it would be host
//     framing or the user's text, becomes untrusted (kind other) instead.

// dialect is what a recognised envelope means (a row of
// framing.Envelopes).
type dialect struct {
	name     string // canonical tag name, reported as Segment.Envelope
	kind     wire.Kind
	trust    wire.Trust
	hostOnly bool   // counts only in host-channel text
	after    string // counts only in a text that starts with this heading
	// row: the row of framing.Envelopes (nil for the others).
	row *framing.Envelope
	// line: the row of a Paired framing whose lines are this dialect's
	// tags (nil for a tag pair).
	line *framing.Framing
}

// numbered is a dialect numbered among the tags of one text (tagNames):
// its id is its index in knownDialects, lineDialects' come after them,
// then the other untrusted_* names of the text.
type numbered struct {
	dialect
	id int
}

// knownDialects are the rows of framing.Envelopes by lower-case name,
// numbered; dialectKeys their names; dialectsByLen the indexes of the names
// of each length (spacedNames those of two words); lineDialects the Paired rows of framing.Framings (Gemini
// CLI's "--- Context from: PATH ---"), numbered after them; otherIDs the
// first number after those; nameLead the first letters of the names (and
// of UntrustedPrefix), either case. indexEnvelopes makes them from the
// tables.
var (
	knownDialects []numbered
	dialectKeys   []string
	dialectsByLen [][]int
	lineDialects  []numbered
	spacedNames   []string
	otherIDs      int
	nameLead      [256]bool
)

func init() { indexEnvelopes() }

// indexEnvelopes indexes framing.Envelopes (again, after a row is added).
func indexEnvelopes() {
	byName := map[string]framing.Envelope{}
	for _, e := range framing.Envelopes {
		byName[strings.ToLower(e.Name)] = e
	}
	knownDialects, dialectKeys, dialectsByLen, nameLead, spacedNames = nil, slices.Sorted(maps.Keys(byName)), nil, [256]bool{}, nil
	for i, k := range dialectKeys {
		e := byName[k]
		knownDialects = append(knownDialects, numbered{dialect{name: e.Name, kind: e.Kind, trust: e.Trust, hostOnly: e.HostOnly, after: e.After, row: &e}, i})
		for len(dialectsByLen) <= len(k) {
			dialectsByLen = append(dialectsByLen, nil)
		}
		dialectsByLen[len(k)] = append(dialectsByLen[len(k)], i)
		nameLead[k[0]], nameLead[k[0]-'a'+'A'] = true, true
		if strings.IndexByte(k, ' ') >= 0 {
			spacedNames = append(spacedNames, k)
		}
	}
	nameLead[scan.UntrustedPrefix[0]], nameLead[scan.UntrustedPrefix[0]-'a'+'A'] = true, true
	lineDialects = nil
	for i := range framing.Framings {
		if f := &framing.Framings[i]; f.Paired {
			tr := f.Trust
			if tr == "" {
				tr = wire.Untrusted
			}
			lineDialects = append(lineDialects, numbered{dialect{name: f.Name, kind: f.Kind, trust: tr, line: f}, len(knownDialects) + len(lineDialects)})
		}
	}
	otherIDs = len(knownDialects) + len(lineDialects)
}

// headFringe heads the isolated layout's time fringe (wirelens build's own).
const headFringe = "# Current time (fringe)"

// tagScope says which context-bound envelopes a text may carry (an
// envelope's After heading is looked for in the text itself).
type tagScope struct {
	// host: the text is host-channel text (system or developer), the only
	// place a HostOnly envelope (<permissions instructions>) counts; in a
	// user message it would lift the user's text to host rules.
	host bool
}

// dialectTag is one recognised tag (or Gemini context line) in a text.
type dialectTag struct {
	start, end int // the tag's bytes
	closer     bool
	def        *numbered
}

// labelIn is the label of an opener of text (its path attribute, else its
// name attribute, or a Gemini context block's path), read again from its
// bytes when needed rather than kept in every tag; "" for a closer.
func (t *dialectTag) labelIn(text string) string {
	if t.closer {
		return ""
	}
	if f := t.def.line; f != nil {
		return strings.TrimSpace(text[t.start+len(f.Prefix) : t.end-len(f.Suffix)])
	}
	// '<', the name (nothing between them in an opener), then the
	// attributes up to the '>'.
	j := t.start + 1
	for j < t.end && text[j] < utf8.RuneSelf && nameFold[text[j]] != 0 {
		j++
	}
	if sp := strings.IndexByte(t.def.name, ' '); sp >= 0 {
		j += len(t.def.name) - sp // the second word of a name of two
	}
	if j >= t.end-1 {
		return ""
	}
	attrs := text[j : t.end-1]
	if label := attrValue(attrs, "path"); label != "" {
		return label
	}
	return attrValue(attrs, "name")
}

// scanTags finds the openers and closers of known envelopes in text, in
// order.
func scanTags(text string, sc tagScope) []dialectTag { return scanTagsInto(nil, text, sc) }

// scanTagsInto is scanTags appending to tags (empty, with room to reuse).
func scanTagsInto(tags []dialectTag, text string, sc tagScope) []dialectTag {
	var names tagNames
	if n := strings.Count(text, "<"); n > 64 && cap(tags) < n {
		// Many: room for them at once (no more than one a 16 bytes), not
		// grown and copied a quarter at a time.
		tags = make([]dialectTag, 0, min(n, len(text)/16+1))
	}
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if t, ok := parseTag(text, i, sc, &names); ok {
			// In host text, a closer inside an inline code span is the
			// host's prose naming the tag ("`</untrusted_context>`"), not
			// structure.
			if !(sc.host && t.closer && scan.InCodeSpan(text, t.start, t.end)) {
				tags = append(tags, t)
			}
			i = t.end
			continue
		}
		i++
	}
	n := len(tags)
	for i := range lineDialects {
		// scanLineTags' own search is the test: a Contains first would
		// scan the text twice where a row's line is there.
		tags = scanLineTags(text, tags, &lineDialects[i])
	}
	if len(tags) > n+1 || n > 0 && len(tags) > n {
		slices.SortFunc(tags, func(a, b dialectTag) int { return a.start - b.start })
	}
	return tags
}

// atLineStart reports whether only spaces or tabs precede i on its line.
func atLineStart(text string, i int) bool {
	for k := i - 1; k >= 0; k-- {
		switch text[k] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		}
		return false
	}
	return true
}

// nameFold folds an ASCII character of a tag name as scan.NameRune folds
// it; 0 for one that cannot be part of a name.
var nameFold = func() (t [utf8.RuneSelf]byte) {
	for r := range rune(utf8.RuneSelf) {
		if c, _, ok := scan.NameRune(r); ok {
			t[r] = c
		}
	}
	return t
}()

// tagNames finds the meanings of the tag names of one text, numbering the
// untrusted_* names that are not known dialects in the order they come.
type tagNames struct {
	other map[string]*numbered
}

// lookup finds the meaning of an ASCII tag name (in any case): a known
// envelope, or another reserved untrusted_* name (IsEnvelopeName); nil for
// any other name.
func (nm *tagNames) lookup(name string) *numbered {
	if len(name) < len(dialectsByLen) {
		for _, k := range dialectsByLen[len(name)] {
			// Names start with a letter: key[0] is name[0] lower-cased.
			if key := dialectKeys[k]; key == name || key[0] == name[0]|0x20 && strings.EqualFold(key, name) {
				return &knownDialects[k]
			}
		}
	}
	if len(name) <= len(scan.UntrustedPrefix) || !strings.EqualFold(name[:len(scan.UntrustedPrefix)], scan.UntrustedPrefix) {
		return nil
	}
	low := strings.ToLower(name)
	if !scan.IsEnvelopeName(low) {
		return nil
	}
	if d := nm.other[low]; d != nil {
		return d
	}
	if nm.other == nil {
		nm.other = map[string]*numbered{}
	}
	d := &numbered{dialect{name: low, kind: wire.KindOther, trust: wire.Untrusted}, otherIDs + len(nm.other)}
	nm.other[low] = d
	return d
}

// parseTag reads a known envelope tag starting at text[i] == '<'.
func parseTag(text string, i int, sc tagScope, names *tagNames) (dialectTag, bool) {
	j := i + 1
	closer := false
	if j < len(text) && text[j] == '/' {
		closer = true
		j++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
	}
	if j >= len(text) || !nameLead[text[j]] || !closer && !atLineStart(text, i) {
		return dialectTag{}, false
	}
	// The name, of the characters the reserved-tag finder folds to a
	// name's (ASCII only: a fullwidth letter is not structure), at most 64.
	ns := j
	for j < len(text) && text[j] < utf8.RuneSelf && nameFold[text[j]] != 0 {
		j++
	}
	if j == ns || j-ns > 64 {
		return dialectTag{}, false
	}
	// A name of two words (Codex's <permissions instructions>).
	for _, k := range spacedNames {
		if sp := strings.IndexByte(k, ' '); j-ns == sp && len(text)-ns >= len(k) && strings.EqualFold(text[ns:ns+len(k)], k) {
			j = ns + len(k)
			break
		}
	}
	def := names.lookup(text[ns:j])
	if def == nil || def.after != "" && !startsWithHeading(text, def.after) && !aloneHeading(text, def.row) || def.hostOnly && !sc.host {
		return dialectTag{}, false
	}
	if closer {
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != '>' {
			return dialectTag{}, false
		}
		return dialectTag{start: i, end: j + 1, closer: true, def: def}, true
	}
	if j >= len(text) {
		return dialectTag{}, false
	}
	if text[j] == '>' {
		return dialectTag{start: i, end: j + 1, def: def}, true
	}
	if text[j] != ' ' && text[j] != '\t' {
		return dialectTag{}, false
	}
	// Attributes, up to the '>' on the same line, outside quotes.
	var quote byte
	for k := j; k < len(text); k++ {
		c := text[k]
		switch {
		case c == '\n':
			return dialectTag{}, false
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			if text[k-1] == '/' {
				return dialectTag{}, false // self-closing: no body
			}
			return dialectTag{start: i, end: k + 1, def: def}, true
		}
	}
	return dialectTag{}, false
}

// attrValue returns the value of attribute key in attrs (key="v", key='v' or
// key=v), with character references decoded, or "".
func attrValue(attrs, key string) string {
	for i := 0; i < len(attrs); {
		for i < len(attrs) && (attrs[i] == ' ' || attrs[i] == '\t') {
			i++
		}
		ks := i
		for i < len(attrs) && attrs[i] != '=' && attrs[i] != ' ' && attrs[i] != '\t' {
			i++
		}
		k := attrs[ks:i]
		if i >= len(attrs) || attrs[i] != '=' {
			if i == ks {
				i++
			}
			continue
		}
		i++
		var v string
		if i < len(attrs) && (attrs[i] == '"' || attrs[i] == '\'') {
			q := attrs[i]
			e := strings.IndexByte(attrs[i+1:], q)
			if e < 0 {
				v, i = attrs[i+1:], len(attrs)
			} else {
				v, i = attrs[i+1:i+1+e], i+2+e
			}
		} else {
			vs := i
			for i < len(attrs) && attrs[i] != ' ' && attrs[i] != '\t' {
				i++
			}
			v = attrs[vs:i]
		}
		if strings.EqualFold(k, key) {
			return unescape(v)
		}
	}
	return ""
}

// unescape decodes the character references of s.
func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '&' {
			if e, n := entityAt(s, i); n > 0 && e.Original != "" {
				b.WriteString(e.Original)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// hasLineTags reports whether text may hold a line of a Paired framing.
func hasLineTags(text string) bool {
	for i := range lineDialects {
		if f := lineDialects[i].line; strings.Contains(text, f.Prefix) || strings.Contains(text, f.Close) {
			return true
		}
	}
	return false
}

// scanLineTags adds the lines of the Paired framing of def to tags: a line
// of its Prefix (an opener) or its Close (a closer), then the path, then
// its Suffix (blanks after it allowed).
func scanLineTags(text string, tags []dialectTag, def *numbered) []dialectTag {
	f := def.line
	for _, key := range []string{f.Prefix, f.Close} {
		closer := key == f.Close
		for pos := 0; pos < len(text); {
			k := strings.Index(text[pos:], key)
			if k < 0 {
				break
			}
			k += pos
			pos = k + len(key)
			if k > 0 && text[k-1] != '\n' {
				continue
			}
			line := strings.TrimRight(LineAt(text, k), " \t\r")
			if len(line) < len(key)+len(f.Suffix) || !strings.HasSuffix(line, f.Suffix) {
				continue
			}
			tags = append(tags, dialectTag{start: k, end: k + len(line), closer: closer, def: def})
			pos = k + len(line)
		}
	}
	return tags
}

// envelope is one top-level envelope found in a text.
type envelope struct {
	open, close dialectTag
	bodyStart   int
	bodyEnd     int
}

// findEnvelopes pairs the tags into top-level envelopes (see the rules at
// the top of this file). It also returns the offsets of stray top-level tags:
// openers of untrusted envelopes without a closer, and closers of any
// envelope that close nothing at the top level.
func findEnvelopes(text string, tags []dialectTag) (envs []envelope, stray []int) {
	n := len(tags)
	// Backward pass: for each opener, the index of its closer.
	closeFor := make([]int, n)
	ids := otherIDs
	for _, t := range tags {
		ids = max(ids, t.def.id+1)
	}
	// By dialect id, 1 + the index of: the last closer of a name (last),
	// the first boundary closer of a name after the current index
	// (boundary); 0 for none.
	var room [64]int
	marks := room[:0]
	if 2*ids <= len(room) {
		marks = room[:2*ids]
	} else {
		marks = make([]int, 2*ids)
	}
	last, boundary := marks[:ids], marks[ids:]
	for j := n - 1; j >= 0; j-- {
		t := &tags[j]
		id := t.def.id
		if t.closer {
			if last[id] == 0 {
				last[id] = j + 1
			}
			// A boundary closer is followed, across whitespace only, by an
			// opener of an untrusted envelope or by the end of the text. (Not
			// by a trusted opener: a body could forge a trusted envelope.)
			// Gemini CLI's context blocks sit in its own wrapper tags
			// (</extension_context>, <project_context>, ...), which count
			// as whitespace after one: a body that forges them with a closer
			// only reopens another untrusted block.
			gap := isBlank
			if f := t.def.line; f != nil && len(f.Wraps) > 0 {
				gap = func(s string) bool { return onlyWraps(s, f.Wraps) }
			}
			if j+1 < n && !tags[j+1].closer && tags[j+1].def.trust == wire.Untrusted && gap(text[t.end:tags[j+1].start]) ||
				j+1 == n && gap(text[t.end:]) {
				boundary[id] = j + 1
			}
			continue
		}
		if b := boundary[id]; b > 0 {
			closeFor[j] = b - 1
		} else {
			closeFor[j] = last[id] - 1
		}
	}
	pos := 0
	for i := 0; i < n; i++ {
		t := tags[i]
		if t.start < pos {
			continue // inside a body
		}
		c := -1
		if !t.closer {
			c = closeFor[i]
		}
		if c < 0 {
			if t.closer || t.def.trust == wire.Untrusted {
				stray = append(stray, t.start)
			}
			continue
		}
		bs := t.end
		if strings.HasPrefix(text[bs:], "\r\n") {
			bs += 2
		} else if strings.HasPrefix(text[bs:], "\n") {
			bs++
		}
		be := tags[c].start
		pos = tags[c].end
		i = c
		if be > bs {
			envs = append(envs, envelope{open: t, close: tags[c], bodyStart: bs, bodyEnd: be})
		}
	}
	return envs, stray
}

// onlyWraps reports whether every line of s is blank or one of wraps.
func onlyWraps(s string, wraps []string) bool {
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line != "" && !slices.Contains(wraps, line) {
			return false
		}
	}
	return true
}

// isBlank reports whether s is only whitespace.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return false
	}
	return true
}

// startsWithHeading reports whether text starts (after blank lines) with a
// heading that only the host writes.
func startsWithHeading(text, heading string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	return strings.HasPrefix(t, heading)
}

// isTimeFringe reports whether text is the isolated layout's time fringe:
// the heading and one short line stating the time.
func isTimeFringe(text string) bool {
	if len(text) > 512 || !strings.HasPrefix(text, headFringe+"\n") || strings.IndexByte(text, '<') >= 0 {
		return false
	}
	rest := strings.TrimRight(text[len(headFringe)+1:], "\n")
	return rest != "" && strings.IndexByte(rest, '\n') < 0 && hasYear(rest)
}

// aloneHeading reports whether text starts (after blank lines) with the
// AfterAlone heading line of envelope row r.
func aloneHeading(text string, r *framing.Envelope) bool {
	if r == nil || r.AfterAlone == "" {
		return false
	}
	t := strings.TrimLeft(text, " \t\r\n")
	return strings.TrimRight(LineAt(t, 0), " \t\r") == r.AfterAlone
}

// headingRest is the rest of the line of the last heading in s (an
// envelope row's After: Codex's "# AGENTS.md instructions for DIR"), or "".
func headingRest(s, heading string) string {
	k := strings.LastIndex(s, heading)
	if k < 0 {
		return ""
	}
	return strings.TrimSpace(LineAt(s, k+len(heading)))
}

// userUntilPieces cuts the body pc at its first line until (an envelope
// row's UserUntil): the text before it is the user's (trust user, labelled
// label: only the user's own file comes first, so no workspace text can
// have forged the line), the line and the blank lines around it the
// host's, the rest the workspace's (pc). Without the line the body is pc
// whole.
func userUntilPieces(text string, pc piece, until, label string) []piece {
	body := text[pc.start:pc.end]
	k := lineWith(body, 0, until)
	if k <= 0 || strings.TrimRight(LineAt(body, k), "\r\n") != until {
		return []piece{pc}
	}
	user := strings.TrimRight(body[:k], "\r\n")
	if user == "" {
		return []piece{pc}
	}
	userEnd := len(user) + 1 // its last line's newline
	sepEnd := lineEnd(body, k)
	for sepEnd < len(body) && (body[sepEnd] == '\n' || body[sepEnd] == '\r') {
		sepEnd++
	}
	out := []piece{
		{start: pc.start, end: pc.start + userEnd, kind: pc.kind, trust: wire.TrustUser, envelope: pc.envelope, label: label, name: string(pc.kind)},
		{start: pc.start + userEnd, end: pc.start + sepEnd, kind: wire.KindHostRules, trust: wire.Trusted, envelope: pc.envelope, name: string(wire.KindHostRules)},
	}
	if sepEnd < len(body) {
		pc.start += sepEnd
		out = append(out, pc)
	}
	return out
}

// filePieces cuts the body pc of an envelope whose row holds files of tag
// (framing.Envelope.Files): each file's text a piece of pc's kind and
// trust labelled with its path attribute, the tag lines and what lies
// between the files the host's. nil when the body holds no file.
func filePieces(text string, pc piece, tag string) []piece {
	body := text[pc.start:pc.end]
	open, closer := "<"+tag+" ", "</"+tag+">"
	var out []piece
	host := 0
	add := func(p piece) {
		if p.end > p.start {
			out = append(out, p)
		}
	}
	for at := lineTrimmedWith(body, 0, open); at >= 0; {
		next := lineTrimmedWith(body, lineEnd(body, at), open)
		stop := len(body)
		if next >= 0 {
			stop = next
		}
		in, end := lineEnd(body, at), stop
		if c := lastLineTrimmedWith(body[:stop], in, closer); c >= 0 {
			end = c
		}
		attrs := strings.TrimSuffix(strings.TrimSpace(LineAt(body, at))[len(open)-1:], ">")
		add(piece{start: pc.start + host, end: pc.start + in, kind: wire.KindHostRules, trust: wire.Trusted, envelope: pc.envelope, name: string(wire.KindHostRules)})
		f := pc
		f.start, f.end, f.label = pc.start+in, pc.start+end, attrValue(attrs, "path")
		add(f)
		host = end
		if next < 0 {
			break
		}
		at = next
	}
	if out == nil {
		return nil
	}
	add(piece{start: pc.start + host, end: pc.end, kind: wire.KindHostRules, trust: wire.Trusted, envelope: pc.envelope, name: string(wire.KindHostRules)})
	return out
}

// childText is the text of the first <key>...</key> child of an envelope's
// body (its first 4 KB), or "".
func childText(body, key string) string {
	if len(body) > 4096 {
		body = body[:4096]
	}
	k := strings.Index(body, "<"+key+">")
	if k < 0 {
		return ""
	}
	rest := body[k+len(key)+2:]
	e := strings.Index(rest, "</"+key+">")
	if e < 0 || e > 512 {
		return ""
	}
	return strings.TrimSpace(unescape(rest[:e]))
}

// lineWith is the offset of the first line at or after from that starts
// with prefix, or -1.
func lineWith(s string, from int, prefix string) int {
	for from <= len(s) {
		k := strings.Index(s[from:], prefix)
		if k < 0 {
			return -1
		}
		k += from
		if k == 0 || s[k-1] == '\n' {
			return k
		}
		from = k + 1
	}
	return -1
}

// lastLineWith is the offset of the last line after from that is prefix
// (followed by the end of the line), or -1.
func lastLineWith(s string, from int, prefix string) int {
	for end := len(s); end > from; {
		k := strings.LastIndex(s[from:end], prefix)
		if k < 0 {
			return -1
		}
		k += from
		rest := strings.TrimRight(LineAt(s, k)[len(prefix):], " \t\r")
		if (k == 0 || s[k-1] == '\n') && rest == "" {
			return k
		}
		end = k
	}
	return -1
}

// lastLineTrimmedWith is the offset of the start of the last line after
// from whose text, after leading blanks, starts with prefix, or -1.
func lastLineTrimmedWith(s string, from int, prefix string) int {
	for end := len(s); end > from; {
		k := strings.LastIndex(s[from:end], prefix)
		if k < 0 {
			return -1
		}
		k += from
		ls := k
		for ls > 0 && (s[ls-1] == ' ' || s[ls-1] == '\t') {
			ls--
		}
		if ls == 0 || s[ls-1] == '\n' {
			if ls < from {
				return -1
			}
			return ls
		}
		end = k
	}
	return -1
}

// LineAt is the rest of the line starting at k, without its newline.
func LineAt(s string, k int) string {
	if e := strings.IndexByte(s[k:], '\n'); e >= 0 {
		return s[k : k+e]
	}
	return s[k:]
}

// tagBufs holds the tag arrays of texts already cut, for the next text:
// the tags are read while a text is cut and kept by nothing after
// (envelopes hold copies), so a text full of tags does not allocate and
// clear an array as large as its tags every time.
var tagBufs sync.Pool

// maxPooledTags is the largest tag array kept for reuse.
const maxPooledTags = 1 << 18

func getTags() []dialectTag {
	if b, ok := tagBufs.Get().(*[]dialectTag); ok {
		return (*b)[:0]
	}
	return nil
}

func putTags(tags []dialectTag) {
	if cap(tags) == 0 || cap(tags) > maxPooledTags {
		return
	}
	tags = tags[:0]
	tagBufs.Put(&tags)
}
