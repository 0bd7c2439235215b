package redact

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// A hint never gives away part of a secret: nothing of a Basic (or other
// user:password) credential, whose base64 tail decodes to the password's
// last characters, and a value's first word is a scheme only when it is a
// known one (x-api-key: "Hunter2Secret! ..." kept its first word in clear).
func TestHintRevealsNoPartOfTheSecret(t *testing.T) {
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct-horse-123"))
	for in, want := range map[string]string{
		basic:                "Basic …",
		"basic " + basic[6:]: "basic …",
		"Digest username=\"a\", response=\"0123456789abcdef0123\"": "Digest …",
		"Hunter2Secret! and the rest of it":                        "…f it",
		"Bearer sk-proj-abcdefghijklmnop1234a1b2":                  "Bearer sk-…a1b2",
		"Token abcdefghijklmnopqrst9876":                           "Token …9876",
		"Hunter2 x":                                                "…",
	} {
		got := Hint(in)
		if got != want {
			t.Errorf("Hint(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(got, "Hunter2") || strings.Contains(got, "MTIz") {
			t.Errorf("Hint(%q) = %q keeps part of the secret", in, got)
		}
	}
}

// Headers named like credentials are secret, whatever else their name says.
func TestSecretNameCredentialLike(t *testing.T) {
	for _, n := range []string{"X-Custom-Creds", "X-User-Pass", "X-Pwd", "X-Session-Id", "X-Auth-Context", "X-Secret", "Cookie2", "X-Vendor-Key", "X-Token"} {
		if !SecretName(n) {
			t.Errorf("SecretName(%q) is false", n)
		}
	}
	for _, n := range []string{"Content-Type", "Accept", "User-Agent", "Anthropic-Version", "X-Stainless-Os"} {
		if SecretName(n) {
			t.Errorf("SecretName(%q) is true", n)
		}
	}
}

// Members masks the string values of credential-named members only, in the
// document and in JSON held in its strings (tool-call arguments), and
// leaves everything else, prose with a key-shaped word included, as it was.
func TestMembersMasksCredentialNamedValues(t *testing.T) {
	doc := `{"model":"m","api_key":"TESTSECRET1","max_tokens":5,"prompt_cache_key":"c1",` +
		`"metadata":{"apiKey":"TESTSECRET2","password":"TESTSECRET3","user_id":"u"},` +
		`"tools":[{"name":"login","input_schema":{"properties":{"password":{"type":"string"}}}}],` +
		`"messages":[{"role":"assistant","content":[{"type":"tool_use","input":{"client_secret":"TESTSECRET4"}}]},` +
		`{"role":"user","content":"my key is sk-proj-abcdefghijklmnop1234a1b2"}],` +
		`"calls":[{"function":{"arguments":"{\"access_token\":\"TESTSECRET5\",\"q\":1}"}}]}`
	out := string(Members([]byte(doc)))
	if strings.Contains(out, "TESTSECRET") {
		t.Errorf("a credential-named member kept its value: %s", out)
	}
	for _, keep := range []string{`"max_tokens":5`, `"prompt_cache_key":"c1"`, `"user_id":"u"`, `"password":{"type":"string"}`, "sk-proj-abcdefghijklmnop1234a1b2", `\"q\":1`} {
		if !strings.Contains(out, keep) {
			t.Errorf("lost %s: %s", keep, out)
		}
	}
	if plain := `{"model":"m","messages":[]}`; string(Members([]byte(plain))) != plain {
		t.Errorf("a body with nothing to mask changed")
	}
}

// Share masks what a name says is secret whatever the value's shape, and
// what MaskSecrets masks; text with nothing of the kind is unchanged.
func TestShare(t *testing.T) {
	for in, want := range map[string]string{
		"DB_PASSWORD=correct&horse&battery\nok":                            "DB_PASSWORD=" + Mask + "\nok",
		`{"user":"bob","password":"Xk9&mQ2#vL"}`:                           `{"user":"bob","password":"` + Mask + `"}`,
		`{"password":"Xk9\u0026mQ2#vL"}`:                                   `{"password":"` + Mask + `"}`,
		`config: "api_key": "a&b&c", "n": 1`:                               `config: "api_key": "` + Mask + `", "n": 1`,
		"export GITHUB_TOKEN=abc&def":                                      "export GITHUB_TOKEN=" + Mask,
		"nothing here, max_tokens 5":                                       "nothing here, max_tokens 5",
		"claude-sk-ant-api03-" + strings.Repeat("Hq4Rt8Wz2N", 9) + "b5cAA": "claude-" + Mask,
	} {
		if got := Share(in); got != want {
			t.Errorf("Share(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzMembers: the members mask keeps valid JSON valid (strict stays
// strict), is the same masked twice, and Share never fails on any text.
func FuzzMembers(f *testing.F) {
	for _, s := range jsonSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte(`{"password":"a&b","x":{"apiKey":"k","n":"{\"token\":\"t\"}"}}`))
	lax := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := Members(in)
		_ = Share(string(in))
		if !jsontext.Value(in).IsValid(lax...) {
			return
		}
		if !jsontext.Value(out).IsValid(lax...) || (jsontext.Value(in).IsValid() && !jsontext.Value(out).IsValid()) {
			t.Fatalf("output is not JSON:\n in %q\nout %q", in, out)
		}
		if again := Members(out); string(again) != string(out) {
			t.Fatalf("masking twice differs:\n once %q\ntwice %q", out, again)
		}
	})
}
