package capture

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/redact"
)

// The recorder's remembered masks write what redact.Header writes, the
// first time and every time after, keep no credential in clear, and stay
// bounded.
func TestHeaderMasksWriteWhatRedactWrites(t *testing.T) {
	secret := "sk-ant-api03-" + strings.Repeat("Zq7x", 20)
	h := http.Header{
		"Authorization":  {"Bearer " + secret},
		"X-Api-Key":      {secret},
		"Cookie":         {"session=" + secret + "; theme=dark"},
		"User-Agent":     {"claude-cli/2.0 (external, cli)"},
		"X-Custom-Creds": {"hunter2hunter2"},
		"Accept":         {"application/json", "text/event-stream"},
		"X-Note":         {"key " + secret},
	}
	var want, plain bytes.Buffer
	(*headerMasks)(nil).headers(&plain, h)
	for _, k := range []string{"Accept", "Authorization", "Cookie", "User-Agent", "X-Api-Key", "X-Custom-Creds", "X-Note"} {
		vals := make([]string, 0, len(h[k]))
		for _, v := range h[k] {
			vals = append(vals, redact.Header(k, v))
		}
		fmt.Fprintf(&want, "%s=%s\n", strings.ToLower(k), strings.Join(vals, ", "))
	}
	m := newHeaderMasks()
	for round := range 3 {
		var b bytes.Buffer
		m.headers(&b, h)
		if b.String() != plain.String() {
			t.Fatalf("round %d: remembered masks wrote\n%s\nredact.Header writes\n%s", round, b.String(), plain.String())
		}
		if strings.Contains(b.String(), secret) || strings.Contains(b.String(), "hunter2") {
			t.Fatalf("round %d: a credential was written in clear: %s", round, b.String())
		}
	}
	// Each of the 8 values was masked once, then answered from memory.
	if m.hits != 16 || len(m.m) != 8 {
		t.Errorf("%d hits and %d values remembered, want 16 and 8", m.hits, len(m.m))
	}
	for _, v := range m.m {
		if strings.Contains(v, secret) || strings.Contains(v, "hunter2") {
			t.Errorf("a remembered value holds the credential: %q", v)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(want.String()), "\n") {
		k, v, _ := strings.Cut(line, "=")
		if !strings.Contains(plain.String(), fmt.Sprintf("%q:%q", k, v)) {
			t.Errorf("header %s: want %q in %s", k, v, plain.String())
		}
	}
	// Bounded: past maxMasks values it starts again.
	for i := range maxMasks + 10 {
		m.mask("X-Request-Id", fmt.Sprint(i))
	}
	if len(m.m) > maxMasks {
		t.Errorf("%d values remembered, the bound is %d", len(m.m), maxMasks)
	}
}
