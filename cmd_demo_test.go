package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/encode"
)

// TestDemoReportAgreesWithCheck: the demo's report without a terminal lists
// volatile-in-prefix for the legacy request (its system prompt carries the
// time), as `check` does on the same request, and not for the isolated one.
func TestDemoReportAgreesWithCheck(t *testing.T) {
	code, out, errs := runCLI(t, "", "demo")
	if code != 0 || errs != "" {
		t.Fatalf("demo: exit %d, stderr %q", code, errs)
	}
	left, right := demoColumns(t, out)
	if !strings.Contains(left, audit.RuleVolatileInPrefix) {
		t.Errorf("the legacy column lists no %s:\n%s", audit.RuleVolatileInPrefix, left)
	}
	if strings.Contains(right, audit.RuleVolatileInPrefix) {
		t.Errorf("the isolated column lists %s: its prefix holds no time", audit.RuleVolatileInPrefix)
	}

	legacy, _, err := demoRequests()
	if err != nil {
		t.Fatal(err)
	}
	body, err := encode.Encode(legacy, wire.FormatAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "legacy.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "check", "--json", path)
	if code != 1 || !strings.Contains(out, `"rule": "`+audit.RuleVolatileInPrefix+`"`) {
		t.Errorf("check on the demo's legacy request: exit %d, stderr %q, no %s in:\n%s", code, errs, audit.RuleVolatileInPrefix, out)
	}
}

// demoColumns splits the demo report into its legacy and isolated columns,
// side by side (split at the gap) or stacked.
func demoColumns(t *testing.T, out string) (legacy, isolated string) {
	t.Helper()
	const gap = " │ "
	l, i := strings.Index(out, "LEGACY (before the fix)"), strings.Index(out, "ISOLATED (the fix)")
	if l < 0 || i < 0 {
		t.Fatalf("the report lacks its two columns:\n%s", out)
	}
	if i > l && !strings.Contains(out[l:i], "\n") {
		var lb, rb strings.Builder
		for _, line := range strings.Split(out[l:], "\n") {
			a, b, _ := strings.Cut(line, gap)
			lb.WriteString(a + "\n")
			rb.WriteString(b + "\n")
		}
		return lb.String(), rb.String()
	}
	return out[l:i], out[i:]
}
