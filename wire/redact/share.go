package redact

import (
	"bytes"
	"regexp"
	"strings"
)

// Share masks a string of a payload for an output meant to be shared
// (inspect --json --redact, report --redact): every secret MaskSecrets
// finds, and besides, what a name says is a credential whatever its value
// looks like (a password with & or # in it is no key shape): in JSON, the
// string value of every credential-named member (Members); in text, the
// value assigned to a credential-named word (DB_PASSWORD=..., "token":
// "...", api_key: ...). It is broader than what check reports: in a shared
// output a word masked by mistake costs little.
func Share(s string) string {
	if t := bytes.TrimSpace([]byte(s)); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		if m := Members(t); !bytes.Equal(m, t) {
			s = string(m)
		}
	}
	if credentialWord.MatchString(s) {
		s = maskAssignments(s)
	}
	return MaskSecrets(s)
}

// maskAssignments replaces the value of each assignment in s by Mask, the
// matches found in one pass with their groups (not each matched again).
func maskAssignments(s string) string {
	var b strings.Builder
	at := 0
	for _, g := range assignment.FindAllStringSubmatchIndex(s, -1) {
		v := strings.TrimRight(s[g[8]:g[1]], ",;)}]")
		if strings.HasPrefix(v, "[redacted") || v == "true" || v == "false" || v == "null" || strings.Trim(v, "0123456789.") == "" {
			continue // masked already (a JSON member), or a number or constant (max_tokens: 5)
		}
		b.WriteString(s[at:g[8]])
		b.WriteString(Mask)
		at = g[1]
	}
	if at == 0 {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

// credentialWord is a word that names a credential.
var credentialWord = regexp.MustCompile(`(?i)pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth`)

// assignment is a credential-named word (inside a longer name too:
// DB_PASSWORD, x-api-key, clientSecret), an optional closing quote, = or :,
// an optional opening quote, and the value up to white space or a quote.
var assignment = regexp.MustCompile(`(?i)([\w.-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|auth)[\w.-]*)(["']?[ \t]*[:=][ \t]*)(["']?)([^\s"'` + "`" + `]+)`)
