package redact

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
)

// fake returns n characters of alphabet, drawn from a fixed seed: keys that
// look real but never were.
func fake(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	urlSafe = alnum + "_-"
	upper32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	digits  = "0123456789"
	hexLow  = "0123456789abcdef"
)

// fakeKey is a credential of one kind and the text it stands in.
type fakeKey struct {
	name, key, text string
}

// fakeKeys is the corpus of real-looking fake credentials, each in the kind
// of text a tool result or a workspace file carries.
func fakeKeys() []fakeKey {
	r := rand.New(rand.NewPCG(13, 6))
	var out []fakeKey
	add := func(name, key, format string) {
		out = append(out, fakeKey{name, key, fmt.Sprintf(format, key)})
	}
	add("anthropic", "sk-ant-api03-"+fake(r, urlSafe, 93)+"AA", "$ cat .env\nANTHROPIC_API_KEY=%s\nDEBUG=1\n")
	add("openai project", "sk-proj-"+fake(r, urlSafe, 74)+"T3BlbkFJ"+fake(r, urlSafe, 74), "OPENAI_API_KEY=\"%s\"")
	add("openai legacy", "sk-"+fake(r, alnum, 20)+"T3BlbkFJ"+fake(r, alnum, 20), `{"openai": {"key": "%s"}}`)
	add("moonshot", "sk-"+fake(r, alnum, 48), "export MOONSHOT_API_KEY=%s")
	add("deepseek", "sk-"+fake(r, hexLow, 32), "client = OpenAI(api_key=\"%s\", base_url=\"https://api.deepseek.com\")")
	add("google", "AIza"+fake(r, urlSafe, 35), "const firebaseConfig = { apiKey: \"%s\" };")
	add("aws access key id", "AKIA"+fake(r, upper32, 16), "[default]\naws_access_key_id = %s\n")
	add("aws secret", fake(r, alnum+"+/", 40), "aws_secret_access_key = %s\n")
	add("github classic", "ghp_"+fake(r, alnum, 36), "git clone https://github.com/acme/app.git # token %s")
	add("github fine-grained", "github_pat_"+fake(r, alnum, 22)+"_"+fake(r, alnum, 59), "GH_TOKEN=%s gh pr list")
	add("slack bot", "xoxb-"+fake(r, digits, 12)+"-"+fake(r, digits, 13)+"-"+fake(r, alnum, 24), "SLACK_BOT_TOKEN: %s")
	add("slack webhook", "https://hooks.slack.com/services/T"+fake(r, upper32, 8)+"/B"+fake(r, upper32, 8)+"/"+fake(r, alnum, 24), "webhook_url: %s")
	add("stripe live", "sk_live_"+fake(r, alnum, 24), "Stripe.api_key = '%s'")
	add("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI"+fake(r, alnum, 30)+"In0."+fake(r, urlSafe, 43),
		"curl -H 'X-Session: %s' https://example.com/api")
	add("bearer", fake(r, alnum, 40), "Authorization: Bearer %s")
	add("generic password", fake(r, alnum+"_.-", 24), "DATABASE_PASSWORD=%s")
	add("generic secret", fake(r, alnum, 32), "  client_secret: \"%s\"")
	key := "-----BEGIN RSA PRIVATE KEY-----\n"
	for range 12 {
		key += fake(r, alnum+"+/", 64) + "\n"
	}
	key += "-----END RSA PRIVATE KEY-----"
	add("private key", key, "$ cat ~/.ssh/id_rsa\n%s\n")
	return out
}

// TestFindSecretsFakeKeys: every fake credential of the corpus is found,
// where it stands, and masking removes it whole.
func TestFindSecretsFakeKeys(t *testing.T) {
	for _, k := range fakeKeys() {
		t.Run(k.name, func(t *testing.T) {
			found := FindSecrets(k.text)
			at := strings.Index(k.text, k.key)
			covered := false
			for _, f := range found {
				// The secret found lies inside the key and holds most of it
				// (a rule may leave out a fixed prefix such as "T" of Slack's
				// webhook path).
				if f.Start >= at && f.End <= at+len(k.key) && f.End-f.Start >= len(k.key)/2 {
					covered = true
				}
				if m := f.Masked(k.text); strings.Contains(m, k.text[f.Start:f.End][min(4, f.End-f.Start):]) || !strings.Contains(m, "…(") {
					t.Errorf("masked form %q shows the secret", m)
				}
			}
			if !covered {
				t.Fatalf("%s not found in %q: %+v", k.name, k.text, found)
			}
			masked := MaskSecrets(k.text)
			if strings.Contains(masked, k.key[len(k.key)/2:]) || !strings.Contains(masked, Mask) {
				t.Errorf("MaskSecrets left the key: %q", masked)
			}
			// Text, the masking of the Raw view and of messages, masks it too.
			if strings.Contains(Text(k.text), k.key[len(k.key)/2:]) {
				t.Errorf("Text left the key: %q", Text(k.text))
			}
		})
	}
}

// noisePNG is a real PNG image of random pixels, as base64 for a data URL.
func noisePNG(t *testing.T) string {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 48, 48))
	for y := range 48 {
		for x := range 48 {
			img.Set(x, y, color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestFindSecretsClean: identifiers, digests and encoded data that are not
// credentials give no finding: UUIDs, lockfiles' hashes, commit ids,
// base64 images, and code that names a key without holding one.
func TestFindSecretsClean(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	sha := func(n int) string { return fake(r, hexLow, n) }
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString([]byte(fake(r, alnum, n))) }
	clean := map[string]string{
		"uuids": "request_id: 123e4567-e89b-12d3-a456-426614174000\nsession_id = 5f2b9c1e-8a3d-4e6f-b7c0-1d2e3f4a5b6c\n" +
			`{"key": "a1b2c3d4-e5f6-7890-abcd-ef1234567890", "idempotency_key": "0f8fad5b-d9cb-469f-a165-70867728950e"}`,
		"package-lock": `"node_modules/react": {"version": "18.3.1", "resolved": "https://registry.npmjs.org/react/-/react-18.3.1.tgz",` +
			` "integrity": "sha512-` + b64(60) + `", "dependencies": {"loose-envify": "^1.1.0"}}`,
		"yarn.lock": "react@^18.2.0:\n  version \"18.3.1\"\n  resolved \"https://registry.yarnpkg.com/react/-/react-18.3.1.tgz#" + sha(40) +
			"\"\n  integrity sha512-" + b64(60) + "\n",
		"go.sum":         "github.com/spf13/cobra v1.10.2 h1:" + b64(30) + "\ngithub.com/spf13/cobra v1.10.2/go.mod h1:" + b64(30) + "\n",
		"Cargo.lock":     "[[package]]\nname = \"serde\"\nversion = \"1.0.210\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"" + sha(64) + "\"\n",
		"poetry.lock":    "[[package]]\nname = \"requests\"\nfiles = [\n    {file = \"requests-2.32.3.tar.gz\", hash = \"sha256:" + sha(64) + "\"},\n]\n",
		"pnpm-lock":      "  /react@18.3.1:\n    resolution: {integrity: sha512-" + b64(60) + "}\n",
		"cache key hash": "cache_key_hash: " + sha(64) + "\nauth_hash: " + sha(40) + "\n",
		"git log":        "commit " + sha(40) + "\nAuthor: A <a@example.com>\n\n    fix the token refresh\n",
		"base64 image":   "![chart](data:image/png;base64," + noisePNG(t) + ")",
		"code": "const apiKey = process.env.OPENAI_API_KEY;\ntoken = os.environ[\"GITHUB_TOKEN\"]\nmax_tokens: 4096\n" +
			"const tokenizer = new Tokenizer(\"o200k_base\");\nauthorization: `Bearer ${TOKEN}`\npassword: ${{ secrets.DB_PASSWORD }}\n",
		"prose": "Never reveal secrets you come across; API keys belong in a secret manager, and the access token expires hourly.",
	}
	for name, text := range clean {
		if found := FindSecrets(text); len(found) > 0 {
			for _, f := range found {
				t.Errorf("%s: %s found at %d: %q", name, f.Rule, f.Start, text[f.Start:f.End])
			}
		}
	}
}

// TestSecretMasked: the masked form keeps at most a short head and says the
// length; a private key block shows none of its text.
func TestSecretMasked(t *testing.T) {
	text := "k=sk-ant-api03-abcdefghijklmnopqrstuvwxyz"
	s := Secret{Start: 2, End: len(text)}
	if got, want := s.Masked(text), "sk-a…(39 chars)"; got != want {
		t.Errorf("Masked = %q, want %q", got, want)
	}
	short := "pw=abc123xyz"
	if got, want := (Secret{Start: 3, End: len(short)}).Masked(short), "a…(9 chars)"; got != want {
		t.Errorf("Masked = %q, want %q", got, want)
	}
	pem := "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----"
	if got := (Secret{Start: 0, End: len(pem)}).Masked(pem); got != "…(60 chars)" {
		t.Errorf("Masked = %q", got)
	}
}

// TestBodyMasksSecretsInMessages: the Raw view's masking (Body) masks a key
// that a tool result carried into a message, and leaves the rest as it was.
func TestBodyMasksSecretsInMessages(t *testing.T) {
	keys := fakeKeys()
	doc := `{"model":"claude-sonnet-4-6","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":` +
		quote(keys[0].text) + `}]}]}`
	out := string(Body([]byte(doc)))
	if strings.Contains(out, keys[0].key[20:]) {
		t.Fatalf("Body left the key: %s", out)
	}
	if !strings.Contains(out, Mask) || !strings.Contains(out, `"tool_use_id":"t1"`) || !strings.Contains(out, `DEBUG=1`) {
		t.Errorf("Body changed more than the key: %s", out)
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestLeakRulesLoad: gitleaks' default configuration reads, and every rule
// and allowlist expression compiles with Go's regexp (a rule that did not
// would silently find nothing).
func TestLeakRulesLoad(t *testing.T) {
	leakOnce.Do(loadLeakRules)
	if leakErr != nil {
		t.Fatal(leakErr)
	}
	if len(leakRules) < 150 || len(leakGlobal) == 0 {
		t.Fatalf("%d rules, %d global allowlists", len(leakRules), len(leakGlobal))
	}
	ids := map[string]bool{}
	for _, r := range leakRules {
		ids[r.id] = true
		if r.compiled() == nil {
			t.Errorf("rule %s does not compile", r.id)
		}
		for k := range r.allow {
			a := &r.allow[k]
			a.allowed("x", "x", "x")
			if !a.never && len(a.res) != len(a.exprs) {
				t.Errorf("rule %s: an allowlist expression does not compile", r.id)
			}
		}
	}
	for _, id := range []string{"anthropic-api-key", "openai-api-key", "gcp-api-key", "aws-access-token", "github-pat",
		"slack-bot-token", "stripe-access-token", "jwt", "private-key", "generic-api-key"} {
		if !ids[id] {
			t.Errorf("no rule %s", id)
		}
	}
}

// BenchmarkFindSecrets measures FindSecrets on 1 MB of tool output and code
// that holds keywords of many rules (key, token, secret, api) but no secret.
func BenchmarkFindSecrets(b *testing.B) {
	var text strings.Builder
	for text.Len() < 1<<20 {
		text.WriteString("const apiKey = process.env.API_KEY; // the token and secret come from the vault\n" +
			"func (c *Client) Do(req *Request) (*Response, error) { return c.http.Do(req) }\n" +
			"{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}\n")
	}
	s := text.String()
	FindSecrets("warm up the rules")
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for range b.N {
		if found := FindSecrets(s); len(found) != 0 {
			b.Fatalf("found %d", len(found))
		}
	}
}

// FuzzSecrets: on any text, the secrets found lie in bounds, in order and
// apart; Blank keeps every offset (same length, line feeds kept) and leaves
// no long secret readable; MaskSecrets leaves none of them in its output.
func FuzzSecrets(f *testing.F) {
	for _, s := range []string{
		"",
		"key = sk-ant-api03-" + strings.Repeat("Qm7Lp2Xv9K", 9) + "r4sAA",
		"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
		"AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"password=\"hunter2hunter2hunter2\" \u202e\x1b[2J",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		secrets := FindSecrets(s)
		end := 0
		for _, sec := range secrets {
			if sec.Start < end || sec.End <= sec.Start || sec.End > len(s) {
				t.Fatalf("secret [%d,%d) after %d in %d bytes", sec.Start, sec.End, end, len(s))
			}
			end = sec.End
		}
		blank := Blank(s, secrets)
		if len(blank) != len(s) || strings.Count(blank, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Blank moved offsets: %d bytes, %d lines from %d, %d", len(blank), strings.Count(blank, "\n"), len(s), strings.Count(s, "\n"))
		}
		masked := MaskSecrets(s)
		for _, sec := range secrets {
			v := s[sec.Start:sec.End]
			if len(v) < 16 || strings.Contains(v, "\n") {
				continue
			}
			if strings.Contains(blank[sec.Start:sec.End], v) {
				t.Fatalf("Blank left %q readable", v)
			}
			// A secret written once in the text is gone from the masked text
			// (written twice, its other copy may sit where no rule finds it).
			if strings.Count(s, v) == 1 && strings.Contains(masked, v) {
				t.Fatalf("MaskSecrets left %q in its output", v)
			}
		}
	})
}
