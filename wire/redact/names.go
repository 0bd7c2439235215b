package redact

import (
	"strings"
	"unicode"
)

// Names that say a value is a credential: the names of headers, cookies and
// URL or form parameters, and the member names of any JSON document.

// secretWords make a header, cookie or parameter name secret wherever they
// stand in it (x-api-key, x-amz-security-token, proxy-authorization,
// set-cookie, x-goog-signature, ...).
// "cred" and "pass" cover names like X-Custom-Creds and X-User-Pass.
var secretWords = []string{"key", "token", "auth", "secret", "cookie", "session", "signature", "cred", "pass", "pwd"}

// secretNames are credential names the words miss, and well-known ones
// named outright so that no change of the words can drop them.
var secretNames = map[string]bool{
	"sig":                  true, // Azure shared access signatures
	"dpop":                 true, // OAuth proof of possession
	"x-amz-security-token": true,
	"x-amz-signature":      true,
	"x-amz-credential":     true,
}

// SecretName reports whether a header, cookie, URL query or form parameter
// of this name (any case) carries a credential. It is broad on purpose: these
// names are few and plain, and a rate-limit header masked by mistake costs
// nothing.
func SecretName(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	if secretNames[n] {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// memberWords, as the last word of a member name, make its string value a
// credential.
var memberWords = map[string]bool{
	"token": true, "secret": true, "password": true, "passwd": true, "passphrase": true,
	"credential": true, "credentials": true, "cookie": true, "authorization": true,
	"auth": true, "oauth": true, "bearer": true, "apikey": true,
}

// memberHints are the words one of which every name SecretMember accepts
// holds (any case): a name, or a document (mayNameSecret), without one is
// not looked at further.
var memberHints = []string{"key", "token", "secret", "pass", "credential", "cookie", "auth", "bearer"}

// keyQualifiers are the words before "key" that make it a credential
// (api_key, secret_key, x-api-key) rather than a cache or idempotency key.
var keyQualifiers = map[string]bool{
	"api": true, "secret": true, "private": true, "access": true, "client": true,
	"auth": true, "signing": true, "session": true, "master": true, "subscription": true,
}

// SecretMember reports whether the string value of a JSON member of this
// name, anywhere in a document, is a credential. It is narrower than
// SecretName, because request bodies are full of names that merely contain
// one of its words (max_tokens, author, prompt_cache_key, the signature of a
// thinking block): the name's last word must name a credential (access_token,
// clientSecret, password, x-api-key), and "key" counts only after a word that
// makes it one.
func SecretMember(name string) bool {
	lower := strings.ToLower(name)
	hinted := false
	for _, w := range memberHints {
		if strings.Contains(lower, w) {
			hinted = true
			break
		}
	}
	if !hinted {
		return false // the common case, without splitting
	}
	words := splitWords(name)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	if last == "key" {
		return len(words) > 1 && keyQualifiers[words[len(words)-2]]
	}
	if memberWords[last] {
		return true
	}
	// Words run together: accesstoken, clientsecret, apikey, privatekey.
	for _, suffix := range []string{"token", "secret", "password", "passwd"} {
		if strings.HasSuffix(last, suffix) {
			return true
		}
	}
	if head, ok := strings.CutSuffix(last, "key"); ok && keyQualifiers[head] {
		return true
	}
	return false
}

// splitWords splits a name into lower-case words at anything but letters
// and digits and where camel case starts a word (apiKey, APIKey, api_key and
// x-api-key all give api, key).
func splitWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := cur[len(cur)-1]
			// apiKey: a capital after a small letter; APIKey: the last
			// capital of a run when a small letter follows it.
			if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
				(unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
