package redact

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
)

// Credentials in text: URLs (their user:pass@ and key-like parameters) and
// values recognisable by their shape alone.

// Mask is what a masked JSON value, or a credential found in text, becomes.
const Mask = "[redacted by wirelens]"

// urlMask is what the userinfo and the key-like parameter values of a URL
// become: short, and still a URL to read.
const urlMask = "[redacted]"

// URL masks one URL: its userinfo (user:pass@ becomes [redacted]@), the
// values of its query and fragment parameters whose names are secret
// (SecretName: key, api_key, token, access_token, sig, X-Amz-Signature, ...)
// and any credential-shaped value in the rest. Everything else is kept as
// written, so a URL with nothing to mask comes back unchanged.
func URL(u string) string {
	return MaskSecrets(maskURL(u))
}

// Text masks every URL in s as URL does, and every value shaped like a
// credential (see shapes) wherever it stands. Ordinary prose, hashes and
// UUIDs are left alone.
func Text(s string) string {
	if strings.Contains(s, "://") {
		s = urlInText.ReplaceAllStringFunc(s, func(u string) string {
			core := urlCore(u)
			return maskURL(core) + u[len(core):]
		})
	}
	return MaskSecrets(s)
}

// urlInText is a URL inside text: a scheme, "://", and everything up to a
// space, a quote or an angle bracket.
var urlInText = regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>`]+")

// urlCore is u without the punctuation that ends the sentence around it: a
// full stop, or a bracket closing what the URL did not open.
func urlCore(u string) string {
	for u != "" {
		c := u[len(u)-1]
		if i := strings.IndexByte(")]}", c); i >= 0 {
			if strings.Count(u, "([{"[i:i+1]) >= strings.Count(u, string(c)) {
				break
			}
		} else if !strings.ContainsRune(".,;:!?'", rune(c)) {
			break
		}
		u = u[:len(u)-1]
	}
	return u
}

// maskURL masks the userinfo and the secret parameters of u.
func maskURL(u string) string {
	head, rest, ok := cutUserinfo(u)
	if !ok {
		return u
	}
	path, fragment, hasFragment := strings.Cut(rest, "#")
	path, query, hasQuery := strings.Cut(path, "?")
	out := head + path
	if hasQuery {
		out += "?" + maskParams(query)
	}
	if hasFragment {
		// OAuth's implicit flow returns #access_token=...
		out += "#" + maskParams(fragment)
	}
	return out
}

// cutUserinfo splits u after the "://" of its scheme, the user:pass@ of its
// authority masked: head is the scheme, "://" and "[redacted]@" when u had
// userinfo; rest is the host and what follows it. ok is false when u has no
// "://".
func cutUserinfo(u string) (head, rest string, ok bool) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", "", false
	}
	head, rest = u[:i+3], u[i+3:]
	authority := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		authority = rest[:end]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		head += urlMask + "@"
		rest = rest[at+1:]
	}
	return head, rest, true
}

// maskParams masks the values of the secret name=value pairs of a query or
// fragment. A fragment may hold a route with its own "?".
func maskParams(q string) string {
	if !strings.Contains(q, "=") {
		return q
	}
	var b strings.Builder
	for q != "" {
		piece := q
		sep := ""
		if i := strings.IndexAny(q, "&;?"); i >= 0 {
			piece, sep, q = q[:i], q[i:i+1], q[i+1:]
		} else {
			q = ""
		}
		if name, value, ok := strings.Cut(piece, "="); ok && value != "" {
			plain, err := url.QueryUnescape(name)
			if err != nil {
				plain = name
			}
			if SecretName(plain) {
				piece = name + "=" + urlMask
			}
		}
		b.WriteString(piece)
		b.WriteString(sep)
	}
	return b.String()
}

// A shape is a form of credential: a vendor prefix with a length, or a
// structure (a JWT, a PEM private key). Each is looked for only where its
// marker occurs, so text without one costs a few substring searches.
type shape struct {
	// name is the shape's rule id in a Secret ("sk-key", "bearer-token").
	name    string
	markers []string
	re      *regexp.Regexp
	// keep is the length of a match's head that stays visible ("Bearer ").
	keep func(match string) int
	// ok, when set, confirms a match (a key has a digit somewhere).
	ok func(match string) bool
	// at is re anchored (\A(?:re)), tried only where one of lits begins
	// (after a word boundary when boundary is set; startLits): an
	// expression with no single literal prefix (\b first, or
	// alternatives) is run by Go's regexp over the whole text at about
	// 50 ns a byte, and "sk-" or "_live_" occur in ordinary prose
	// ("task-", "is_live_"). Nil when re has no such literals.
	at       *regexp.Regexp
	lits     []litStart
	boundary bool
}

func init() {
	for i := range shapes {
		sh := &shapes[i]
		lits, boundary, ok := startLits(sh.re.String())
		if !ok {
			continue
		}
		sh.at = regexp.MustCompile(`\A(?:` + sh.re.String() + `)`)
		sh.lits, sh.boundary = lits, boundary
	}
}

// find returns the matches of sh.re in s, as FindAllStringIndex would: at
// each place where one of its literals begins, in order, the anchored
// expression is tried, and the search goes on from the end of a match.
func (sh *shape) find(s string) [][]int {
	if sh.at == nil {
		return sh.re.FindAllStringIndex(s, -1)
	}
	return anchoredAll(sh.at, s, litStarts(s, sh.lits), sh.boundary, nil, false)
}

// hasDigit reports whether s holds an ASCII digit: real keys are random,
// slugs and words are not.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// shapes are the credentials recognisable by their form alone: OpenAI,
// Anthropic, Moonshot and other sk- keys, AWS access key ids, GitHub, GitLab,
// Slack, Hugging Face and Stripe tokens, Google API keys and OAuth access
// tokens, bearer tokens, JWTs and PEM private keys.
var shapes = []shape{
	{name: "sk-key", markers: []string{"sk-"}, re: regexp.MustCompile(`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), ok: hasDigit},
	{name: "aws-access-key", markers: []string{"AKIA", "ASIA"}, re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{name: "github-token", markers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,}`)},
	{name: "github-fine-grained-pat", markers: []string{"github_pat_"}, re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}`)},
	{name: "gitlab-pat", markers: []string{"glpat-"}, re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`)},
	{name: "slack-token", markers: []string{"xox"}, re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), ok: hasDigit},
	{name: "huggingface-token", markers: []string{"hf_"}, re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`), ok: hasDigit},
	{name: "stripe-live-key", markers: []string{"_live_"}, re: regexp.MustCompile(`\b(?:sk|rk)_live_[A-Za-z0-9]{16,}`)},
	{name: "google-api-key", markers: []string{"AIza"}, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{name: "google-oauth-token", markers: []string{"ya29."}, re: regexp.MustCompile(`\bya29\.[0-9A-Za-z_-]{20,}`)},
	{name: "jwt", markers: []string{"eyJ"}, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)},
	{name: "bearer-token", markers: []string{"earer", "EARER"}, re: regexp.MustCompile(`\b(?i:bearer)\s+[A-Za-z0-9._~+/=-]{16,}`),
		keep: func(m string) int { return len(m) - len(strings.TrimLeft(m[len("bearer"):], " \t\r\n")) },
		ok:   func(m string) bool { return hasDigit(m) }},
	{name: "private-key", markers: []string{"PRIVATE KEY-----"}, re: regexp.MustCompile(`-----BEGIN[A-Z ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]*)`)},
}

// markers are the substrings of which text must hold one for Text to
// change it: "://" and the markers of the shapes.
var markers = func() [][]byte {
	m := [][]byte{[]byte("://")}
	for _, sh := range shapes {
		for _, mk := range sh.markers {
			m = append(m, []byte(mk))
		}
	}
	return m
}()

// mayHold reports whether Text could change s, without converting it: s
// holds a marker, or a keyword of one of gitleaks' rules.
func mayHold(s []byte) bool {
	for _, m := range markers {
		if bytes.Contains(s, m) {
			return true
		}
	}
	return leakMayHold(s)
}

// shapeCut is where a shape matched: the shape's name and the bytes of the
// credential.
type shapeCut struct {
	name       string
	start, end int
}

// shapeCuts returns every credential-shaped value in s.
func shapeCuts(s string) []shapeCut {
	var cuts []shapeCut
	for i := range shapes {
		sh := &shapes[i]
		found := false
		for _, m := range sh.markers {
			if strings.Contains(s, m) {
				found = true
				break
			}
		}
		if !found {
			continue
		}
		for _, loc := range sh.find(s) {
			m := s[loc[0]:loc[1]]
			if sh.ok != nil && !sh.ok(m) {
				continue
			}
			if sh.keep != nil {
				loc[0] += sh.keep(m)
			}
			cuts = append(cuts, shapeCut{sh.name, loc[0], loc[1]})
		}
	}
	return cuts
}
