package redact

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Credentials in what a capture writes: each secret value becomes a hint
// that tells keys apart without giving them away (Bearer sk-…a1b2), where
// Mask, for what wirelens shows, tells nothing.

// Hint is the marker a credential becomes in a capture: its scheme
// ("Bearer ", "Basic ") and a short vendor prefix ("sk-", "ghp_") kept, then
// "…" and its last 4 characters. A value shorter than 16 characters keeps no
// tail, so that little of a short secret is shown.
//
// A first word is kept as a scheme only when it is a known one: any other
// word may be the secret's own start. For schemes whose credential is a
// user name and password (Basic: the tail of its base64 decodes to the
// password's last characters) or a set of parameters (Digest, AWS4-HMAC-SHA256),
// only the scheme is kept: "Basic …".
func Hint(v string) string {
	scheme := ""
	if i := strings.IndexByte(v, ' '); i > 0 {
		switch tailed, known := authSchemes[strings.ToLower(v[:i])]; {
		case !known:
		case !tailed:
			return v[:i+1] + "…"
		default:
			scheme, v = v[:i+1], strings.TrimLeft(v[i+1:], " ")
		}
	}
	prefix := ""
	if i := strings.IndexAny(v, "-_"); i > 0 && i <= 4 && isLetters(v[:i]) {
		prefix = v[:i+1]
	}
	tail := ""
	if utf8.RuneCountInString(v) >= 16 {
		r := []rune(v)
		tail = string(r[len(r)-4:])
	}
	return scheme + prefix + "…" + tail
}

// authSchemes are the Authorization schemes a hint keeps (HTTP's
// authentication scheme registry and common vendor ones), each with whether
// the credential after it may show its tail: a token may, a user name and
// password or a set of signed parameters may not.
var authSchemes = map[string]bool{
	"bearer": true, "token": true, "key": true, "apikey": true, "api-key": true, "dpop": true,
	"oauth": true, "mac": true, "hawk": true, "sso-key": true, "privatetoken": true,
	"basic": false, "digest": false, "negotiate": false, "ntlm": false, "kerberos": false, "hoba": false,
	"mutual": false, "scram-sha-1": false, "scram-sha-256": false, "vapid": false, "concealed": false,
	"aws4-hmac-sha256": false, "goog4-hmac-sha256": false, "sharedkey": false, "sharedkeylite": false,
}

func isLetters(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// Header returns the value a capture records for a header: a hint (Hint)
// when the name says it is secret (SecretName), each cookie's value hinted
// for Cookie and Set-Cookie, and any credential-shaped value masked in the
// others (Text).
func Header(name, value string) string {
	switch n := strings.ToLower(strings.TrimSpace(name)); {
	case n == "cookie":
		return Cookies(value, "; ")
	case n == "set-cookie":
		// name=value; Path=/; HttpOnly: only the first pair is the cookie.
		first, rest, _ := strings.Cut(value, ";")
		if rest != "" {
			return Cookies(first, "; ") + ";" + rest
		}
		return Cookies(first, "; ")
	case SecretName(n):
		return Hint(value)
	}
	return Text(value)
}

// Cookies hints the value of each name=value pair of a Cookie header.
func Cookies(v, sep string) string {
	pairs := strings.Split(v, ";")
	for i, p := range pairs {
		p = strings.TrimSpace(p)
		if name, val, ok := strings.Cut(p, "="); ok {
			p = name + "=" + Hint(val)
		} else if p != "" {
			p = Hint(p)
		}
		pairs[i] = p
	}
	return strings.Join(pairs, sep)
}

// URLHint masks a URL for a capture: the user:pass@ of its authority, and
// the value of each query parameter whose name is secret (SecretName: key,
// api_key, token, sig, ...) becomes its hint (Hint, escaped for a query);
// credential-shaped values elsewhere are masked (Text).
func URLHint(u string) string {
	head, rest, ok := cutUserinfo(u)
	if !ok {
		return Text(u)
	}
	path, query, hasQuery := strings.Cut(rest, "?")
	if !hasQuery {
		return MaskSecrets(head + path)
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	pieces := strings.Split(query, "&")
	for j, p := range pieces {
		name, val, ok := strings.Cut(p, "=")
		if !ok || val == "" {
			continue
		}
		plain, err := url.QueryUnescape(name)
		if err != nil {
			plain = name
		}
		if SecretName(plain) {
			v, err := url.QueryUnescape(val)
			if err != nil {
				v = val
			}
			pieces[j] = name + "=" + url.QueryEscape(Hint(v))
		}
	}
	out := head + path + "?" + strings.Join(pieces, "&")
	if hasFragment {
		out += "#" + maskParams(fragment)
	}
	return MaskSecrets(out)
}
