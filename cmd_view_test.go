package main

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
)

// TestViewDemoOptions checks what the demo opens: the legacy request with
// workspace text in its system prompt, the isolated one without, both
// marked for the diff, the tour on.
func TestViewDemoOptions(t *testing.T) {
	opts, err := viewDemoOptions(&App{Theme: "mono"})
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Requests) != 2 || !opts.Tour || len(opts.Marks) != 2 {
		t.Fatalf("demo options: %d requests, tour %v, marks %v", len(opts.Requests), opts.Tour, opts.Marks)
	}
	untrustedInSystem := func(r wire.Request) int {
		n := 0
		for _, s := range r.Segments {
			if s.Channel == wire.ChannelSystem && s.Trust == wire.Untrusted {
				n++
			}
		}
		return n
	}
	if untrustedInSystem(opts.Requests[0]) == 0 || untrustedInSystem(opts.Requests[1]) != 0 {
		t.Fatalf("legacy has %d untrusted system segments, isolated %d",
			untrustedInSystem(opts.Requests[0]), untrustedInSystem(opts.Requests[1]))
	}
	m := ui.New(opts)
	m.Update(nil)
	screen := m.Render()
	if !strings.Contains(screen, "Guided tour") || !strings.Contains(screen, "[UNTRUSTED]") || strings.ContainsRune(screen, 0x1b) {
		t.Fatalf("demo first screen:\n%s", screen)
	}
	t.Log("\n" + screen)
}
