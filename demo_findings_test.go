package main

import (
	"regexp"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire/audit"
)

// TestDemoFindingsCountAsCheck: the demo's Findings view counts the
// findings of its four requests as check lists them (each distinct finding
// once: check on the same requests), not each request's again (it said 42).
func TestDemoFindingsCountAsCheck(t *testing.T) {
	opts, err := demoOptions(&App{Theme: "mono"})
	if err != nil {
		t.Fatal(err)
	}
	// check's dedupe (checkResult.audit) on the viewer's four requests.
	res, aud := &checkResult{}, audit.New()
	for i := range opts.Requests {
		res.audit(aud, &opts.Requests[i])
	}
	want, every := len(res.findings), res.total
	if want == 0 || want >= every {
		t.Fatalf("check keeps %d of the demo's %d findings: not a test of repeats", want, every)
	}
	m := ui.New(opts)
	drive := driveModel(m)
	drive(tea.WindowSizeMsg{Width: 160, Height: 48})
	drive(tea.KeyPressMsg{Code: tea.KeyEscape})
	drive(tea.KeyPressMsg{Code: '3', Text: "3"})
	got := regexp.MustCompile(`Findings · (\d+)`).FindStringSubmatch(m.Render())
	if got == nil || got[1] != strconv.Itoa(want) {
		t.Fatalf("the demo's Findings view counts %v, check %d (of %d in every request)", got, want, every)
	}
	t.Logf("demo: %d findings, %d counting every request's", want, every)
}
