package redact

import (
	"strings"
	"testing"
)

// TestHint: a credential becomes its scheme, a short vendor prefix and its
// last 4 characters; a short value shows no tail.
func TestHint(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer sk-proj-abcdefghijklmnop1234a1b2":  "Bearer sk-…a1b2",
		"sk-ant-api03-abcdefghijklmnopq9z8y":       "sk-…9z8y",
		"AIzaSyA1234567890abcdefghijklmnopqrstu":   "…rstu",
		"ghp_abcdefghijklmnopqrstuvwxyz0123456789": "ghp_…6789",
		"Basic dXNlcjpwYXNzd29yZA==":               "Basic …", // no part of a password
		"short":                                    "…",
		"Bearer tiny":                              "Bearer …",
	} {
		if got := Hint(in); got != want {
			t.Errorf("Hint(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHeaderAndURLHint: secret headers, cookies and query parameters become
// hints; other headers keep their value, with key shapes masked.
func TestHeaderAndURLHint(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"X-Goog-Api-Key", "AIzaSyA1234567890abcdefghijklmnopqrstu", "…rstu"},
		{"Api-Key", "0123456789abcdef0123456789abcdef", "…cdef"},
		{"Cookie", "a=0123456789abcdefXYZW; b=1", "a=…XYZW; b=…"},
		{"Set-Cookie", "sid=0123456789abcdefQRST; Path=/; HttpOnly", "sid=…QRST; Path=/; HttpOnly"},
		{"Content-Type", "application/json", "application/json"},
		{"X-Debug", "key sk-proj-abcdefghijklmnop1234a1b2 leaked", "key " + Mask + " leaked"},
	} {
		if got := Header(c.name, c.value); got != c.want {
			t.Errorf("Header(%s, %q) = %q, want %q", c.name, c.value, got, c.want)
		}
	}
	u := URLHint("https://user:pw@generativelanguage.googleapis.com/v1beta/models/g:generateContent?key=AIzaSyA1234567890abcdefghijklmnopqrstu&alt=sse")
	if strings.Contains(u, "AIzaSy") || strings.Contains(u, "pw@") || !strings.Contains(u, "key=%E2%80%A6rstu&alt=sse") {
		t.Errorf("URLHint: %q", u)
	}
}
