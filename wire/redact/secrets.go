package redact

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Secrets in the text of a payload: what secret-in-context reports and what
// --redact masks.

// Secret is a credential found in a text: [Start, End) are the byte offsets
// of the secret itself (not of the name or the "Bearer " before it).
type Secret struct {
	// Rule is the id of the rule that found it: a gitleaks rule id
	// ("anthropic-api-key", "generic-api-key", "private-key") or a shape of
	// this package ("sk-key", "bearer-token", ...).
	Rule string
	// Kind is the rule id read as words ("anthropic api key").
	Kind       string
	Start, End int
}

// Masked is the secret's masked form, safe to print: at most its first four
// characters (a provider's prefix such as "sk-a", "AKIA" or "ghp_" when it
// has one; fewer for a short secret, none for a private key block), then
// "…" and its length: "sk-a…(108 chars)".
func (s Secret) Masked(text string) string {
	v := text[s.Start:s.End]
	n := utf8.RuneCountInString(v)
	show := min(4, n/8)
	if strings.HasPrefix(v, "-----") {
		show = 0
	}
	head := ""
	for i := range v {
		if show == 0 {
			head = v[:i]
			break
		}
		show--
	}
	// Only printable ASCII of the head is shown.
	for i := 0; i < len(head); i++ {
		if head[i] < 0x21 || head[i] > 0x7e {
			head = head[:i]
			break
		}
	}
	return head + "…(" + strconv.Itoa(n) + " chars)"
}

// FindSecrets returns the secrets in s, by offset; where two overlap, a
// provider's rule wins over a generic one, else the one that starts first
// (the longer at the same start) is kept. It applies
// gitleaks' rules and the shapes of this package (which add the plain
// "sk-" keys of Moonshot, DeepSeek and other OpenAI-compatible providers and
// bearer tokens).
func FindSecrets(s string) []Secret {
	if s == "" {
		return nil
	}
	found := leakFind(s, nil)
	for _, c := range shapeCuts(s) {
		found = append(found, Secret{Rule: c.name, Kind: kindOfRule(c.name), Start: c.start, End: c.end})
	}
	if len(found) == 0 {
		return nil
	}
	// A generic rule's finding gives way to a named one over the same bytes.
	found = slices.DeleteFunc(found, func(g Secret) bool {
		if !strings.HasPrefix(g.Rule, "generic") {
			return false
		}
		return slices.ContainsFunc(found, func(n Secret) bool {
			return !strings.HasPrefix(n.Rule, "generic") && n.Start < g.End && g.Start < n.End
		})
	})
	slices.SortStableFunc(found, func(a, b Secret) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	out := found[:0]
	end := -1
	for _, f := range found {
		if f.Start < end {
			continue
		}
		out = append(out, f)
		end = f.End
	}
	return out
}

// MaskSecrets replaces every secret FindSecrets finds in s with Mask.
func MaskSecrets(s string) string {
	secrets := FindSecrets(s)
	if len(secrets) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for _, f := range secrets {
		b.WriteString(s[at:f.Start])
		b.WriteString(Mask)
		at = f.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// Blank hides each secret of text behind asterisks of its byte length,
// after at most its first four characters (the head of its masked form), so
// that every offset into the text still holds: for excerpts and views that
// point into the text by offset. Line feeds inside a secret (a private key
// block) are kept.
func Blank(text string, secrets []Secret) string {
	if len(secrets) == 0 {
		return text
	}
	b := []byte(text)
	for _, sec := range secrets {
		keep := min(4, (sec.End-sec.Start)/8)
		if strings.HasPrefix(text[sec.Start:], "-----") {
			keep = 0
		}
		for i := sec.Start; i < sec.End; i++ {
			if keep > 0 && b[i] < 0x80 {
				keep--
				continue
			}
			keep = 0
			if b[i] != '\n' {
				b[i] = '*'
			}
		}
	}
	return string(b)
}
