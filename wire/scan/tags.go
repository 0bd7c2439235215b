package scan

import (
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
	"system-reminder",
	"instructions",
	"user_instructions",
	"environment_context",
	"skills_instructions",
	"skill",
	"permissions instructions",
}

// AuthorityNames are the tag names of markers a host honours as carrying its
// authority, canonical lower-case.
var AuthorityNames = []string{
	"system",
	"system-reminder",
	"kimi-skill-loaded",
	"instructions",
	"developer",
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
	// between the bars ("im_start").
	Name string
	// Closing is set for a closing tag (</name>).
	Closing bool
	// Confusable is set when a look-alike bracket, slash, bar or fullwidth
	// letter stands for the ASCII one.
	Confusable bool
	// Obfuscated is set when invisible, bidi, tag, variation-selector or
	// control code points were skipped inside the tag.
	Obfuscated bool
	// Envelope is set for a known envelope name; Authority for an authority
	// marker (both for system-reminder, kimi-skill-loaded and INSTRUCTIONS).
	Envelope  bool
	Authority bool
	// Token is set for a ChatML-style special token <|name|>.
	Token bool
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
// authority marker.
func IsAuthorityName(name string) bool {
	for _, n := range AuthorityNames {
		if n == name {
			return true
		}
	}
	return false
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

// nameLead marks the bytes that can start an opening bracket: '<' and the
// first bytes of the UTF-8 encodings of the look-alike brackets.
var nameLead = func() (t [256]bool) {
	t['<'] = true
	for _, r := range []rune{0xFF1C, 0xFE64, 0x2039, 0x27E8, 0x3008, 0x02C2, 0x2329} {
		var b [4]byte
		utf8.EncodeRune(b[:], r)
		t[b[0]] = true
	}
	return t
}()

// openBracket reports whether r opens a tag, and whether it is a look-alike.
func openBracket(r rune) (ok, confusable bool) {
	switch r {
	case '<':
		return true, false
	case 0xFF1C, 0xFE64, 0x2039, 0x27E8, 0x3008, 0x02C2, 0x2329:
		return true, true
	}
	return false, false
}

// closeBracket reports whether r closes a tag, and whether it is a look-alike.
func closeBracket(r rune) (ok, confusable bool) {
	switch r {
	case '>':
		return true, false
	case 0xFF1E, 0xFE65, 0x203A, 0x27E9, 0x3009, 0x02C3, 0x232A:
		return true, true
	}
	return false, false
}

// slashRune reports whether r is a solidus, and whether it is a look-alike.
func slashRune(r rune) (ok, confusable bool) {
	switch r {
	case '/':
		return true, false
	case 0xFF0F, 0x2215, 0x2044:
		return true, true
	}
	return false, false
}

// barRune reports whether r is a vertical bar, and whether it is a look-alike.
func barRune(r rune) (ok, confusable bool) {
	switch r {
	case '|':
		return true, false
	case 0xFF5C:
		return true, true
	}
	return false, false
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

// NameRune folds r to the lower-case ASCII character of a tag name, and
// says whether it was a fullwidth look-alike. ok is false when r cannot be
// part of a name.
func NameRune(r rune) (c byte, confusable, ok bool) {
	if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
		r -= 0xFF01 - 0x21
		confusable = true
	}
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == ':':
		return byte(r), confusable, true
	case r >= 'A' && r <= 'Z':
		return byte(r + 'a' - 'A'), confusable, true
	}
	return 0, false, false
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
// developer) and ChatML-style special tokens (<|im_start|>, <|system|>,
// <|endoftext|>, ...).
//
// Names match in any case, with whitespace between the brackets, the slash and
// the name; invisible and control code points anywhere inside the tag are
// skipped (Obfuscated), and look-alike brackets, slashes, bars and fullwidth
// letters are folded (Confusable). An opening tag may carry attributes up to
// its closing bracket. Entity-escaped forms (&lt;/untrusted_agents_md>) are
// not tags and are not found. Hits are in order and do not overlap.
func FindReservedTags(s string) []TagHit { return findTags(s, false) }

// FindReservedTagStarts finds every opening bracket that starts a reserved
// tag, whether or not a closing bracket follows: the bracket, optional
// whitespace and invisible code points, an optional slash, and a reserved
// name that no further name character follows (the end of s ends a name);
// for a special token, <|name with or without its second bar. Len runs from
// the bracket to the end of the name (past the token's second bar), so hits
// do not overlap and a tag inside another's quoted attribute is found too.
// Names, folding and flags are those of FindReservedTags.
//
// It finds every tag FindReservedTags finds, at the same offset, and every
// opener that text appended after s could close (unclosed, with an open
// quote, with an opening bracket in its attributes), as long as that text
// does not continue the name itself (it starts with neither a name
// character nor whitespace and a name, as an envelope closer "\n</name>"
// does): the openers an escaper must neutralise before s goes into an
// envelope.
func FindReservedTagStarts(s string) []TagHit { return findTags(s, true) }

// findTags is FindReservedTags, or FindReservedTagStarts when head is set.
func findTags(s string, head bool) []TagHit {
	var out []TagHit
	for i := 0; i < len(s); {
		if !nameLead[s[i]] {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		ok, conf := openBracket(r)
		if !ok {
			i += n
			continue
		}
		if h, ok := matchTag(s, i, n, conf, head); ok {
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

// skipIgnorable skips invisible and control code points.
func (t *tagScanner) skipIgnorable() {
	for {
		r, n := t.peek()
		if n == 0 || !ignorable(r) {
			return
		}
		t.obfuscated = true
		t.p += n
	}
}

// skipSpace skips whitespace and ignorable code points and reports whether
// any whitespace was seen.
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
		default:
			return space
		}
		t.p += n
	}
}

// name reads a tag name, folding case and look-alikes and skipping
// ignorable code points inside it.
func (t *tagScanner) name(buf []byte) []byte {
	for {
		start := t.p
		t.skipIgnorable()
		r, n := t.peek()
		c, conf, ok := NameRune(r)
		if n == 0 || !ok || len(buf) >= maxName {
			t.p = start // trailing ignorables belong to what follows
			t.skipIgnorable()
			return buf
		}
		t.confusable = t.confusable || conf
		buf = append(buf, c)
		t.p += n
	}
}

// closeBracket consumes a closing bracket if one is next.
func (t *tagScanner) closeBracket() bool {
	r, n := t.peek()
	if ok, conf := closeBracket(r); ok {
		t.confusable = t.confusable || conf
		t.p += n
		return true
	}
	return false
}

// moreName reports whether the rune r (n bytes, 0 at the end) after a
// name continues it: the name was cut at maxName and is not the one read.
func moreName(r rune, n int) bool {
	_, _, ok := NameRune(r)
	return n > 0 && ok
}

// matchTag tries to read a reserved tag whose opening bracket (n bytes) is
// at start. With head set, it stops after the name (see
// FindReservedTagStarts).
func matchTag(s string, start, n int, conf, head bool) (TagHit, bool) {
	t := &tagScanner{s: s, p: start + n, confusable: conf}
	t.skipSpace()
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
			case !head || moreName(r, rn):
				return TagHit{}, false
			}
			if !head {
				t.skipSpace()
				if !t.closeBracket() {
					return TagHit{}, false
				}
			}
			return TagHit{Offset: start, Len: t.p - start, Name: name, Confusable: t.confusable,
				Obfuscated: t.obfuscated, Authority: true, Token: true}, true
		}
	}

	closing := false
	if r, rn := t.peek(); rn > 0 {
		if ok, sconf := slashRune(r); ok {
			closing = true
			t.confusable = t.confusable || sconf
			t.p += rn
			t.skipSpace()
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
	case auth:
		name = authName
	case len(nb) > len(UntrustedPrefix) && string(nb[:len(UntrustedPrefix)]) == UntrustedPrefix:
		name, env = string(nb), true
	default:
		return TagHit{}, false
	}
	hit := func() (TagHit, bool) {
		return TagHit{Offset: start, Len: t.p - start, Name: name, Closing: closing,
			Confusable: t.confusable, Obfuscated: t.obfuscated, Envelope: env, Authority: auth}, true
	}
	if head {
		if moreName(t.peek()) {
			return TagHit{}, false
		}
		return hit()
	}
	space := t.skipSpace()
	if t.closeBracket() {
		return hit()
	}
	if r, rn := t.peek(); rn > 0 {
		if ok, sconf := slashRune(r); ok { // self-closing <name/>
			save := t.p
			t.p += rn
			t.skipSpace()
			if t.closeBracket() {
				t.confusable = t.confusable || sconf
				return hit()
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
			if ok, _ := openBracket(r); ok {
				return TagHit{}, false
			}
			if ok, cconf := closeBracket(r); ok {
				t.p += rn
				t.confusable = t.confusable || cconf
				return hit()
			}
		}
		t.p += rn
	}
	return TagHit{}, false
}
