package redact

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// TestSecretName: every credential header and parameter the issue names is
// secret, in any case; ordinary headers are not.
func TestSecretName(t *testing.T) {
	for _, n := range []string{"Authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key",
		"Cookie", "set-cookie", "x-amz-security-token", "X-Amz-Security-Token", "X-Amz-Signature", "X-Amz-Credential",
		"key", "api_key", "apikey", "token", "access_token", "sig", "signature", "x-auth-token", "client_secret",
		"sessionid", "password", "passwd", "DPoP", "x-csrf-token"} {
		if !SecretName(n) {
			t.Errorf("%q is not secret", n)
		}
	}
	for _, n := range []string{"content-type", "accept", "user-agent", "anthropic-version", "anthropic-beta", "alt",
		"beta", "x-request-id", "host", "content-length", "partner", "model"} {
		if SecretName(n) {
			t.Errorf("%q is secret", n)
		}
	}
}

// TestSecretMember: credential member names anywhere in a document, but not
// the body members that merely contain a word of them.
func TestSecretMember(t *testing.T) {
	for _, n := range []string{"api_key", "apiKey", "APIKey", "apikey", "x-api-key", "access_token", "accessToken",
		"refresh_token", "id_token", "token", "client_secret", "clientSecret", "secret", "password", "passwd",
		"Authorization", "auth", "cookie", "credentials", "secret_access_key", "aws_secret_access_key", "private_key",
		"privatekey", "sessionToken", "bearer"} {
		if !SecretMember(n) {
			t.Errorf("%q is not secret", n)
		}
	}
	for _, n := range []string{"max_tokens", "max_output_tokens", "input_tokens", "cache_read_input_tokens", "budget_tokens",
		"author", "authors", "prompt_cache_key", "idempotency_key", "key", "monkey", "signature", "token_count",
		"token_type", "session_id", "access_key_id", "keys", "text", "name", "value", ""} {
		if SecretMember(n) {
			t.Errorf("%q is secret", n)
		}
	}
}

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://api.anthropic.com/v1/messages?beta=true", "https://api.anthropic.com/v1/messages?beta=true"},
		{"https://user:pass@api.openai.com/v1/chat/completions", "https://[redacted]@api.openai.com/v1/chat/completions"},
		{"https://ghp_token@github.com/a/b.git", "https://[redacted]@github.com/a/b.git"},
		{"https://h/m:generateContent?alt=sse&key=AIzaSyX", "https://h/m:generateContent?alt=sse&key=[redacted]"},
		{"https://h/p?API_KEY=a&apikey=b&token=c&access_token=d&sig=e&q=f", "https://h/p?API_KEY=[redacted]&apikey=[redacted]&token=[redacted]&access_token=[redacted]&sig=[redacted]&q=f"},
		{"https://b.s3.amazonaws.com/o?X-Amz-Credential=A%2Fb&X-Amz-Signature=ff&X-Amz-Security-Token=t&X-Amz-Date=20260101",
			"https://b.s3.amazonaws.com/o?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Security-Token=[redacted]&X-Amz-Date=20260101"},
		{"https://h/p?api%5Fkey=x", "https://h/p?api%5Fkey=[redacted]"},
		{"https://h/cb#access_token=x&state=s", "https://h/cb#access_token=[redacted]&state=s"},
		{"https://h/p?key=", "https://h/p?key="},
		{"https://h/@user?x=1", "https://h/@user?x=1"},
		{"https://h/v1/sk-ant-api03-0123456789abcdefghijkl/x", "https://h/v1/" + Mask + "/x"},
		{"not a url", "not a url"},
		{"", ""},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTextShapes: credentials are found by their shape in any text; what
// looks like them but is ordinary text, a hash or an id stays.
func TestTextShapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"key sk-ant-api03-AbCdEf0123456789AbCdEf0123456789 here", "key " + Mask + " here"},
		{"sk-proj-AbCdEf0123456789AbCdEf0123456789", Mask},
		{"OPENAI_API_KEY=sk-AbCdEf0123456789AbCdEf0123456789AbCdEf0123456789", "OPENAI_API_KEY=" + Mask},
		{"AKIAIOSFODNN7EXAMPLE", Mask},
		{"id ASIAIOSFODNN7EXAMPLE.", "id " + Mask + "."},
		{"ghp_" + strings.Repeat("a1", 18), Mask},
		{"github_pat_11ABCDEFG0123456789_abcdefghijklmnop", Mask},
		{"xoxb-1234-5678-abcdefghij", Mask},
		{"AIzaSyA-1234567890abcdefghijklmnopqrstu", Mask},
		{"Authorization: Bearer abcdef0123456789xyz", "Authorization: Bearer " + Mask},
		{"authorization: bearer abcdef0123456789xyz", "authorization: bearer " + Mask},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", Mask},
		{"ya29.a0AfH6SMBabcdefghijklmnop", Mask},
		{"glpat-abcdefghij0123456789", Mask},
		{"sk_live_abcdefghij0123456789", Mask},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nafter", Mask + "\nafter"},
		{"-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA", Mask},
		{"see https://u:p@h/x?token=abc.", "see https://[redacted]@h/x?token=[redacted]."},
		{"(https://h/x?key=abc)", "(https://h/x?key=[redacted])"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, s := range []string{
		"Use scikit-learn; ask-me-anything-about-everything-today; task-force",
		"sk-this-is-only-a-long-slug-of-words",
		"The bearer of bad news; Bearer authentication is described in RFC 6750.",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"commit 5e7cf0a8d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6",
		"550e8400-e29b-41d4-a716-446655440000",
		"EqQBCkYIBRgCIkB3", "toolu_01A", "msg_01", "req_011CV", "AKIA lowercase akiaiosfodnn7example",
		"https://api.anthropic.com/v1/messages?beta=true",
		"What is 2+2?", "",
	} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q: ordinary text was masked", s, got)
		}
	}
	for _, s := range wiretest.Strings(t) {
		if got := Text(s); got != s {
			t.Errorf("Text masked a corpus string: %.80q -> %.80q", s, got)
		}
	}
}

// TestJSON: every way a recording carries a credential, masked after
// decoding, the rest kept byte for byte.
func TestJSON(t *testing.T) {
	m := `"` + Mask + `"`
	for _, c := range []struct{ name, in, want string }{
		{"name then value", `{"name": "Authorization", "value": "Bearer x"}`, `{"name": "Authorization", "value": ` + m + `}`},
		{"value then name", `{"value": "k", "name": "x-api-key"}`, `{"value": ` + m + `, "name": "x-api-key"}`},
		{"a comment between", `{"name": "Authorization", "comment": "sdk", "value": "k"}`, `{"name": "Authorization", "comment": "sdk", "value": ` + m + `}`},
		{"escaped name", `{"name": "\u0061uthorization", "value": "k"}`, `{"name": "\u0061uthorization", "value": ` + m + `}`},
		{"duplicate name", `{"name": "accept", "name": "cookie", "value": "k"}`, `{"name": "accept", "name": "cookie", "value": ` + m + `}`},
		{"value not a string", `{"name": "x-api-key", "value": {"a": [1, "k"]}}`, `{"name": "x-api-key", "value": ` + m + `}`},
		{"ordinary header", `{"name": "accept", "value": "json"}`, `{"name": "accept", "value": "json"}`},
		{"ordinary header, URL value", `{"name": "referer", "value": "https://u:p@h/"}`, `{"name": "referer", "value": "https://[redacted]@h/"}`},
		{"query string", `{"queryString": [{"name": "alt", "value": "sse"}, {"name": "key", "value": "AIza"}]}`,
			`{"queryString": [{"name": "alt", "value": "sse"}, {"name": "key", "value": ` + m + `}]}`},
		{"form params", `{"params": [{"name": "client_secret", "value": "s", "contentType": "text/plain"}]}`,
			`{"params": [{"name": "client_secret", "value": ` + m + `, "contentType": "text/plain"}]}`},
		{"cookies", `{"cookies": [{"name": "theme", "value": "dark", "path": "/"}, {"value": "v"}]}`,
			`{"cookies": [{"name": "theme", "value": ` + m + `, "path": "/"}, {"value": ` + m + `}]}`},
		{"cookie strings", `{"Cookies": ["a=b", "c=d"]}`, `{"Cookies": [` + m + `, ` + m + `]}`},
		{"header map", `{"headers": {"x-api-key": "k", "X-Amz-Security-Token": ["a", "b"], "content-type": "json"}}`,
			`{"headers": {"x-api-key": ` + m + `, "X-Amz-Security-Token": ` + m + `, "content-type": "json"}}`},
		{"header map, escaped name", `{"headers": {"\u0078-api-key": "k"}}`, `{"headers": {"\u0078-api-key": ` + m + `}}`},
		{"secret member", `{"api_key": "k", "max_tokens": 10, "author": "me", "prompt_cache_key": "c", "password": 1}`,
			`{"api_key": ` + m + `, "max_tokens": 10, "author": "me", "prompt_cache_key": "c", "password": 1}`},
		{"url", `{"url": "https://u:p@h/m?key=k&alt=sse"}`, `{"url": "https://[redacted]@h/m?key=[redacted]&alt=sse"}`},
		{"shape in text", `["my key is sk-ant-api03-AbCdEf0123456789AbCdEf0123456789"]`, `["my key is ` + Mask + `"]`},
		{"JSON in a string", `{"text": "{\"headers\": {\"authorization\": \"k\"}, \"n\": 1}"}`,
			`{"text": "{\"headers\": {\"authorization\": ` + `\"` + Mask + `\"` + `}, \"n\": 1}"}`},
		{"escapes kept where nothing is masked", "{\"a\": \"\\u003c\\/x\\u003e\", \"b\": [1e3, true, null]}\n", "{\"a\": \"\\u003c\\/x\\u003e\", \"b\": [1e3, true, null]}\n"},
		{"a stream", `{"token": "t"} {"token": "u"}`, `{"token": ` + m + `} {"token": ` + m + `}`},
	} {
		got, err := JSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "  ", "{", `{"a": }`, `[1, 2`, "not json"} {
		if _, err := JSON([]byte(bad)); err == nil {
			t.Errorf("JSON(%q) did not fail", bad)
		}
	}
	// Bytes that are not JSON are masked as text.
	if got := string(Body([]byte("Authorization: Bearer abcdef0123456789xyz {"))); got != "Authorization: Bearer "+Mask+" {" {
		t.Errorf("Body on text: %q", got)
	}
}

// TestJSONKeepsFixtures: the payload fixtures and sessions hold no
// credential, and come back byte for byte.
func TestJSONKeepsFixtures(t *testing.T) {
	for _, dir := range []string{"payloads", "sessions", "check", "cache"} {
		files, err := os.ReadDir(wiretest.Testdata(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw := wiretest.Read(t, dir, f.Name())
			if out := Body(raw); string(out) != string(raw) {
				t.Errorf("%s/%s changed", dir, f.Name())
			}
		}
	}
}

// TestJSONLeaks: the leaky recordings lose every credential and stay valid
// JSON: the HAR exports whole, the trace line by line.
func TestJSONLeaks(t *testing.T) {
	l := wiretest.WriteLeaks(t)
	var docs []string
	for _, path := range []string{l.HAR, l.Broken, l.Trace} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(path) == ".har" {
			docs = append(docs, string(raw))
			continue
		}
		docs = append(docs, strings.Split(strings.TrimSpace(string(raw)), "\n")...)
	}
	for i, doc := range docs {
		out, err := JSON([]byte(doc))
		if err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
		if strings.Contains(strings.ToLower(string(out)), wiretest.LeakMarker) {
			t.Errorf("document %d: a credential is left:\n%s", i+1, out)
		}
		if !jsontext.Value(out).IsValid() {
			t.Errorf("document %d: not valid JSON after masking", i+1)
		}
	}
}

// jsonSeeds wraps the hostile corpora in the places the rewriter looks:
// header pairs, header maps, cookies, URLs, JSON inside strings.
func jsonSeeds(tb testing.TB) [][]byte {
	quote := func(s string) string {
		q, _ := jsontext.AppendQuote(nil, s)
		return string(q)
	}
	seeds := [][]byte{
		wiretest.Read(tb, "payloads", "capture.har"),
		wiretest.Read(tb, "payloads", "anthropic-messages.json"),
		[]byte(`{"name": "\u0061uthorization", "comment": "", "value": "k"}`),
	}
	for _, line := range strings.Split(string(wiretest.Read(tb, "payloads", "claude-trace.jsonl")), "\n") {
		seeds = append(seeds, []byte(line))
	}
	for i, s := range wiretest.Strings(tb) {
		q := quote(s)
		switch i % 4 {
		case 0:
			seeds = append(seeds, []byte(`{"headers": [{"value": `+q+`, "name": `+q+`}], "url": "https://u:p@h/?key=`+s+`"}`))
		case 1:
			seeds = append(seeds, []byte(`{"headers": {`+q+`: `+q+`}, "cookies": [{"name": `+q+`, "value": 1}]}`))
		case 2:
			seeds = append(seeds, []byte(`{"text": `+quote(`{"api_key": `+q+`}`)+`, "v": [`+q+`]}`))
		default:
			seeds = append(seeds, []byte(q))
		}
	}
	for _, b := range wiretest.RawBytes(tb) {
		seeds = append(seeds, append(append([]byte(`{"name": "x-api-key", "value": "`), b...), `"}`...))
	}
	return seeds
}

// FuzzJSON: the rewriter never panics; on valid JSON its output is valid
// JSON and masking it again changes nothing; on anything else it fails.
func FuzzJSON(f *testing.F) {
	for _, s := range jsonSeeds(f) {
		f.Add(s)
	}
	lax := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := JSON(in)
		_ = Body(in)
		if jsontext.Value(in).IsValid(lax...) {
			if err != nil {
				t.Fatalf("valid JSON failed: %v", err)
			}
			if !jsontext.Value(out).IsValid(lax...) {
				t.Fatalf("output is not JSON:\n in %q\nout %q", in, out)
			}
			if jsontext.Value(in).IsValid() && !jsontext.Value(out).IsValid() {
				t.Fatalf("output of strict JSON is not strict JSON:\n in %q\nout %q", in, out)
			}
		}
		if err != nil {
			return
		}
		again, err := JSON(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("masking twice differs (%v):\n once %q\ntwice %q", err, out, again)
		}
	})
}

// BenchmarkJSON masks a HAR export whose entries carry credentials.
func BenchmarkJSON(b *testing.B) {
	raw, err := os.ReadFile(wiretest.WriteLeaks(b).HAR)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := JSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// hasUpper agrees with unicode.IsUpper rune by rune, on ASCII words of
// every alignment and on text that is not ASCII.
func TestHasUpper(t *testing.T) {
	cases := []string{"", "abc", "abcdefghijklmnopqrstuvwxyz0123456789@[`{", "Z", "A", "@", "[", "é", "É", "ÿ", "\u212a", "\xff", "abcdefgÉ", "abcdefghÉ"}
	for i := range 20 {
		cases = append(cases, strings.Repeat("x", i)+"Q"+strings.Repeat("y", 7), strings.Repeat("-", i)+"@[")
	}
	for _, c := range cases {
		if got, want := hasUpper([]byte(c)), bytes.IndexFunc([]byte(c), unicode.IsUpper) >= 0; got != want {
			t.Errorf("hasUpper(%q) = %t, want %t", c, got, want)
		}
	}
}

// TestMembersMasksAnEscapedName: a member name spelled with \u escapes is
// a secret's name all the same; the quick look for hint words read the raw
// bytes and let the body through unwalked.
func TestMembersMasksAnEscapedName(t *testing.T) {
	doc := []byte(`{"model":"m","p\u0061ssword":"hunter2-correct-horse"}`)
	out := Members(doc)
	if bytes.Contains(out, []byte("hunter2-correct-horse")) {
		t.Fatalf("the value of an escaped password member is kept: %s", out)
	}
}
