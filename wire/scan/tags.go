package scan

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// UntrustedPrefix starts the name of every untrusted_* envelope
// (untrusted_agents_md, untrusted_cwd_listing, ...). Any name with this prefix
// and at least one more character is a reserved envelope name.
const UntrustedPrefix = "untrusted_"

// EnvelopeNames are the reserved envelope tag names besides the untrusted_*
// family, canonical lower-case. A tag of one of these names inside untrusted
// text could close or forge an envelope.
var EnvelopeNames = []string{
	"kimi-skill-loaded",
	"skill-loaded",
	"system-reminder",
	"instructions",
	"user_instructions",
	"environment_context",
	"skills_instructions",
	"skill",
	"permissions instructions",
}

// AuthorityNames are the tag names of markers a host honours as carrying its
// authority, canonical lower-case: the hosts' own, and the role and turn
// markers of other models' chat templates (Llama 2's <<SYS>>, which counts
// only with its doubled brackets; Gemma's <start_of_turn> and
// <end_of_turn>; the <function_calls> and <function_results> of Claude's
// earlier tool format).
var AuthorityNames = []string{
	"system",
	"system-reminder",
	"kimi-skill-loaded",
	"skill-loaded",
	"instructions",
	"developer",
	"sys",
	"start_of_turn",
	"end_of_turn",
	"function_calls",
	"function_results",
}

// MarkerNames are the names of role markers written in square brackets
// ([INST], [/INST], [SYSTEM_PROMPT]: Llama 2's and Mistral's templates),
// canonical lower-case. Each is an authority marker.
var MarkerNames = []string{
	"inst",
	"system_prompt",
	"available_tools",
	"tool_calls",
	"tool_results",
}

// SpecialTokenNames are the names of ChatML-style special tokens written
// <|name|>, canonical lower-case. Each is an authority marker: it forges a
// role or message boundary.
var SpecialTokenNames = []string{
	"im_start", "im_end", "im_sep",
	"system", "user", "assistant", "developer", "tool",
	"endoftext", "endofprompt",
	"start", "end", "message", "channel", "return", "call", "constrain",
	"begin_of_text", "end_of_text", "start_header_id", "end_header_id", "eot_id", "eom_id",
}

// TagHit is one tag of a reserved name found in a text.
type TagHit struct {
	Offset int // byte offset of the opening bracket
	Len    int // bytes, up to and including the closing bracket
	// Name is the canonical lower-case tag name ("untrusted_agents_md",
	// "system", "permissions instructions"); for a special token, the name
	// between the bars ("im_start"); for a square-bracket marker, the name
	// between the brackets ("inst").
	Name string
	// Closing is set for a closing tag (</name>, [/INST]).
	Closing bool
	// Confusable is set when a look-alike stands for an ASCII character of
	// the tag: a bracket, slash or bar, a fullwidth or mathematical letter,
	// a Cyrillic or Greek homoglyph, a letter with an accent or a combining
	// mark drawn on it.
	Confusable bool
	// Obfuscated is set when invisible, bidi, tag, variation-selector or
	// control code points were skipped inside the tag.
	Obfuscated bool
	// Envelope is set for a known envelope name; Authority for an authority
	// marker (both for system-reminder, kimi-skill-loaded, skill-loaded and
	// INSTRUCTIONS).
	Envelope  bool
	Authority bool
	// Token is set for a ChatML-style special token <|name|>.
	Token bool
	// Double is set for a tag opened with two brackets (<<SYS>>).
	Double bool
	// Square is set for a role marker in square brackets ([INST]).
	Square bool
}

// IsEnvelopeName reports whether the canonical lower-case name is a reserved
// envelope name.
func IsEnvelopeName(name string) bool {
	if len(name) > len(UntrustedPrefix) && strings.HasPrefix(name, UntrustedPrefix) {
		return true
	}
	for _, n := range EnvelopeNames {
		if n == name {
			return true
		}
	}
	return false
}

// IsAuthorityName reports whether the canonical lower-case name is an
// authority marker (AuthorityNames, or MarkerNames in square brackets).
func IsAuthorityName(name string) bool {
	return slices.Contains(AuthorityNames, name) || slices.Contains(MarkerNames, name)
}

// lookupName finds the name b in list and returns the list's string.
func lookupName(b []byte, list []string) (string, bool) {
	for _, n := range list {
		if string(b) == n {
			return n, true
		}
	}
	return "", false
}

// ignorable reports whether r is a code point a tokenizer or a reader
// may not see: invisible, bidi, tag, variation selector, or a control that
// is not whitespace.
func ignorable(r rune) bool {
	if r < 0x20 {
		return !spaceRune(r)
	}
	if r < 0x7f {
		return false
	}
	return r <= 0x9f || IsInvisible(r) || IsBidi(r) || IsTagChar(r) || IsVariationSelector(r)
}

// spaceRune reports whether r is whitespace.
func spaceRune(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	}
	return r > 0x7f && unicode.IsSpace(r) && r != 0x85
}

// maxName caps the length of a tag name; longer names are not reserved.
const maxName = 96

// maxAttrs caps how far an opening tag's attributes are followed to find
// its closing bracket.
const maxAttrs = 4096

// FindReservedTags finds every opening or closing tag of a reserved name in
// s: the known envelopes (untrusted_* with any suffix, kimi-skill-loaded,
// system-reminder, INSTRUCTIONS, user_instructions, environment_context,
// skills_instructions, skill, permissions instructions), the authority
// markers (system, system-reminder, kimi-skill-loaded, INSTRUCTIONS,
// developer, <<SYS>>, start_of_turn, end_of_turn, function_calls,
// function_results), ChatML-style special tokens (<|im_start|>, <|system|>,
// <|endoftext|>, ...) and role markers in square brackets ([INST],
// [/INST], [SYSTEM_PROMPT], ...).
//
// Names match in any case, with whitespace between the brackets, the slash and
// the name; invisible and control code points anywhere inside the tag are
// skipped (Obfuscated). Look-alikes are folded (Confusable): brackets
// (fullwidth, guillemets, angle ornaments, CJK and mathematical angle
// brackets, ≺ ≻, ᐸ ᐳ), slashes (∕ ⁄ ⧸ ╱ ノ, ...), bars, and the letters of
// the name (fullwidth and mathematical letters and ligatures through NFKD,
// Cyrillic and Greek homoglyphs, accents; combining marks inside the tag are
// skipped). Guillemets, which quote prose (« bonjour »), make a tag only
// written tight: «system», not « system ». A square bracket right after a
// letter, digit, underscore or closing bracket indexes something
// (params[tool_calls]) and opens no marker. An opening tag may carry
// attributes up to its closing bracket. Entity-escaped forms
// (&lt;/untrusted_agents_md>) are not tags and are not found. Hits are in
// order and do not overlap.
func FindReservedTags(s string) []TagHit { return findTags(s, false) }

// FindReservedTagStarts finds every opening bracket that starts a reserved
// tag, whether or not a closing bracket follows: the bracket (or two, as in
// <<SYS>>), optional whitespace and invisible code points, an optional
// slash, and a reserved name that no further name character follows (the
// end of s ends a name); for a special token, <|name with or without its
// second bar. Len runs from the bracket to the end of the name (past the
// token's second bar), so hits do not overlap and a tag inside another's
// quoted attribute is found too. Names, folding and flags are those of
// FindReservedTags.
//
// It finds every tag FindReservedTags finds, at the same offset, and every
// opener that text appended after s could close (unclosed, with an open
// quote, with an opening bracket in its attributes), as long as that text
// does not continue the name itself (it starts with neither a name
// character nor whitespace and a name, as an envelope closer "\n</name>"
// does): the openers an escaper must neutralise before s goes into an
// envelope. The opening brackets of a hit are the code points inside it
// for which IsOpener holds.
func FindReservedTagStarts(s string) []TagHit { return findTags(s, true) }

// bracketKind is what an opening bracket opens.
type bracketKind uint8

const (
	noBracket     bracketKind = iota
	angleBracket              // '<' or a look-alike: a tag or a special token
	quoteBracket              // a guillemet: a tag written tight
	squareBracket             // '[': a role marker such as [INST]
)

// nameLead marks the bytes that can start an opening bracket: '<', '[' and
// the first bytes of the UTF-8 encodings of the look-alikes.
var nameLead = func() (t [256]bool) {
	t['<'], t['['] = true, true
	for _, r := range append([]rune{guillemetOpen, 0xFF3B}, angleOpeners...) {
		var b [4]byte
		utf8.EncodeRune(b[:], r)
		t[b[0]] = true
	}
	return t
}()

// findTags is FindReservedTags, or FindReservedTagStarts when head is set.
func findTags(s string, head bool) []TagHit {
	var out []TagHit
	for i := 0; i < len(s); {
		if !nameLead[s[i]] {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		kind, conf := openBracket(r)
		if kind == noBracket {
			i += n
			continue
		}
		if h, ok := matchTag(s, i, n, kind, conf, head); ok {
			out = append(out, h)
			i += h.Len
			continue
		}
		i += n
	}
	return out
}

// tagScanner walks a candidate tag.
type tagScanner struct {
	s          string
	p          int
	confusable bool
	obfuscated bool
}

// peek decodes the rune at the position.
func (t *tagScanner) peek() (rune, int) {
	if t.p >= len(t.s) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(t.s[t.p:])
}

// skipIgnorable skips invisible and control code points, and combining
// marks.
func (t *tagScanner) skipIgnorable() {
	for {
		r, n := t.peek()
		switch {
		case n == 0:
			return
		case ignorable(r):
			t.obfuscated = true
		case isMark(r):
			t.confusable = true
		default:
			return
		}
		t.p += n
	}
}

// skipSpace skips whitespace, ignorable code points and combining marks,
// and reports whether any whitespace was seen.
func (t *tagScanner) skipSpace() bool {
	space := false
	for {
		r, n := t.peek()
		switch {
		case n == 0:
			return space
		case spaceRune(r):
			space = true
		case ignorable(r):
			t.obfuscated = true
		case isMark(r):
			t.confusable = true
		default:
			return space
		}
		t.p += n
	}
}

// name reads a tag name, folding case and look-alikes and skipping
// ignorable code points and combining marks inside it.
func (t *tagScanner) name(buf []byte) []byte {
	for {
		start := t.p
		t.skipIgnorable()
		out, n, conf, ok := foldName(buf, t.s[t.p:])
		if !ok || len(out) > maxName {
			t.p = start // trailing ignorables belong to what follows
			t.skipIgnorable()
			return buf
		}
		t.confusable = t.confusable || conf
		buf = out
		t.p += n
	}
}

// closeBracket consumes a closing bracket if one is next (of a
// square-bracket marker if square is set).
func (t *tagScanner) closeBracket(square bool) bool {
	r, n := t.peek()
	if ok, conf := closeBracket(r, square); ok {
		t.confusable = t.confusable || conf
		t.p += n
		return true
	}
	return false
}

// closeDouble consumes the second closing bracket of a tag opened with two
// (<<SYS>>), if it is there.
func (t *tagScanner) closeDouble(double bool) {
	if double {
		save := t.p
		t.skipIgnorable()
		if !t.closeBracket(false) {
			t.p = save
		}
	}
}

// moreName reports whether the text s after a name continues it: the name
// was cut at maxName and is not the one read.
func moreName(s string) bool {
	var b [8]byte
	_, _, _, ok := foldName(b[:0], s)
	return ok
}

// wordByte reports whether c, right before a square bracket, makes the
// bracket an index (a[0], params[tool_calls], x[0][1]) rather than a marker.
func wordByte(c byte) bool {
	_, name := asciiName(rune(c))
	return name && c != '-' && c != '.' && c != ':' || c == ']' || c == ')'
}

// matchTag tries to read a reserved tag whose opening bracket (n bytes, of
// the given kind) is at start. With head set, it stops after the name (see
// FindReservedTagStarts).
func matchTag(s string, start, n int, kind bracketKind, conf, head bool) (TagHit, bool) {
	if kind == squareBracket {
		return matchMarker(s, start, n, conf, head)
	}
	t := &tagScanner{s: s, p: start + n, confusable: conf}
	// A guillemet quotes prose: it makes a tag only with no whitespace
	// inside.
	tight := kind == quoteBracket
	// A doubled opener (<<SYS>>), both brackets of one kind: the tag then
	// reads as the one that starts at the second bracket, but for <<SYS>>
	// itself.
	t.skipIgnorable()
	double := false
	if r, rn := t.peek(); rn > 0 {
		if k, dconf := openBracket(r); k == kind {
			double = true
			t.confusable = t.confusable || dconf
			t.p += rn
		}
	}
	if t.skipSpace() && tight {
		return TagHit{}, false
	}
	var buf [maxName]byte

	// <|name|>
	if r, rn := t.peek(); rn > 0 {
		if ok, bconf := barRune(r); ok {
			t.p += rn
			t.confusable = t.confusable || bconf
			name, ok := lookupName(t.name(buf[:0]), SpecialTokenNames)
			if !ok {
				return TagHit{}, false
			}
			r, rn = t.peek()
			switch ok, bconf = barRune(r); {
			case ok:
				t.p += rn
				t.confusable = t.confusable || bconf
			case !head || moreName(s[t.p:]):
				return TagHit{}, false
			}
			if !head {
				if t.skipSpace() && tight || !t.closeBracket(false) {
					return TagHit{}, false
				}
				t.closeDouble(double)
			}
			return TagHit{Offset: start, Len: t.p - start, Name: name, Confusable: t.confusable,
				Obfuscated: t.obfuscated, Authority: true, Token: true, Double: double}, true
		}
	}

	closing := false
	if r, rn := t.peek(); rn > 0 {
		if ok, sconf := slashRune(r); ok {
			closing = true
			t.confusable = t.confusable || sconf
			t.p += rn
			if t.skipSpace() && tight {
				return TagHit{}, false
			}
		}
	}
	nb := t.name(buf[:0])
	if len(nb) == 0 {
		return TagHit{}, false
	}
	var name string
	if string(nb) == "permissions" {
		save, saveObf, saveConf := t.p, t.obfuscated, t.confusable
		if t.skipSpace() {
			if rest := t.name(buf[:0]); string(rest) == "instructions" {
				nb = []byte("permissions instructions")
			} else {
				t.p, t.obfuscated, t.confusable = save, saveObf, saveConf
			}
		} else {
			t.p, t.obfuscated, t.confusable = save, saveObf, saveConf
		}
	}
	// Look the name up without allocating: most tags are not reserved.
	envName, env := lookupName(nb, EnvelopeNames)
	authName, auth := lookupName(nb, AuthorityNames)
	switch {
	case env:
		name = envName
	case auth && (authName != "sys" || double): // <SYS> alone is no marker
		name = authName
	case len(nb) > len(UntrustedPrefix) && string(nb[:len(UntrustedPrefix)]) == UntrustedPrefix:
		name, env, auth = string(nb), true, false
	default:
		return TagHit{}, false
	}
	hit := func() (TagHit, bool) {
		return TagHit{Offset: start, Len: t.p - start, Name: name, Closing: closing,
			Confusable: t.confusable, Obfuscated: t.obfuscated, Envelope: env, Authority: auth, Double: double}, true
	}
	if head {
		if moreName(s[t.p:]) {
			return TagHit{}, false
		}
		return hit()
	}
	space := t.skipSpace()
	if space && tight {
		return TagHit{}, false
	}
	if t.closeBracket(false) {
		t.closeDouble(double)
		return hit()
	}
	if r, rn := t.peek(); rn > 0 {
		if ok, sconf := slashRune(r); ok { // self-closing <name/>
			save := t.p
			t.p += rn
			if !t.skipSpace() || !tight {
				if t.closeBracket(false) {
					t.confusable = t.confusable || sconf
					t.closeDouble(double)
					return hit()
				}
			}
			t.p = save
		}
	}
	if !space {
		return TagHit{}, false
	}
	// Attributes, up to the closing bracket; quoted values may hold anything
	// but an opening bracket outside quotes ends the search.
	limit := min(len(s), t.p+maxAttrs)
	var quote rune
	for t.p < limit {
		r, rn := utf8.DecodeRuneInString(s[t.p:])
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		default:
			if k, _ := openBracket(r); k == angleBracket || k == quoteBracket {
				return TagHit{}, false
			}
			if ok, cconf := closeBracket(r, false); ok {
				t.p += rn
				t.confusable = t.confusable || cconf
				t.closeDouble(double)
				return hit()
			}
		}
		t.p += rn
	}
	return TagHit{}, false
}

// matchMarker tries to read a role marker in square brackets ([INST],
// [/INST]) whose opening bracket (n bytes) is at start. With head set, it
// stops after the name.
func matchMarker(s string, start, n int, conf, head bool) (TagHit, bool) {
	if start > 0 && wordByte(s[start-1]) {
		return TagHit{}, false
	}
	t := &tagScanner{s: s, p: start + n, confusable: conf}
	t.skipSpace()
	closing := false
	if r, rn := t.peek(); rn > 0 {
		if ok, sconf := slashRune(r); ok {
			closing = true
			t.confusable = t.confusable || sconf
			t.p += rn
			t.skipSpace()
		}
	}
	var buf [maxName]byte
	name, ok := lookupName(t.name(buf[:0]), MarkerNames)
	if !ok {
		return TagHit{}, false
	}
	if head {
		if moreName(s[t.p:]) {
			return TagHit{}, false
		}
	} else if t.skipSpace(); !t.closeBracket(true) {
		return TagHit{}, false
	}
	return TagHit{Offset: start, Len: t.p - start, Name: name, Closing: closing, Confusable: t.confusable,
		Obfuscated: t.obfuscated, Authority: true, Square: true}, true
}

// InCodeSpan reports whether [start, end) of s sits inside a Markdown inline
// code span on its line: a run of backticks opens before start and a run of
// the same length closes it after end, on the same line. Host prose names a
// tag that way ("wrapped in `<untrusted_context>` tags"): a mention, not
// markup.
func InCodeSpan(s string, start, end int) bool {
	if start < 0 || end > len(s) || start > end {
		return false
	}
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	le := len(s)
	if k := strings.IndexByte(s[end:], '\n'); k >= 0 {
		le = end + k
	}
	open, openAt := 0, 0 // length of the open span's run (0: none), and where it ends
	for i := ls; i < le; {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < le && s[j] == '`' {
			j++
		}
		switch {
		case open == 0:
			if i >= end {
				return false
			}
			open, openAt = j-i, j
		case j-i == open:
			if openAt <= start && i >= end {
				return true
			}
			if i >= end {
				return false
			}
			open = 0
		}
		i = j
	}
	return false
}
