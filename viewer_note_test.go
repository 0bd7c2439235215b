package main

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire/provenance"
)

// TestViewerSaysLayoutNotRecognised: the viewer's status line says once
// that the trust of a request's system text was assumed when no layout cut
// it and no provenance judged it, and says nothing of it when the
// workspace's index judged it (the file then an untrusted segment).
func TestViewerSaysLayoutNotRecognised(t *testing.T) {
	ws, req := provenanceFixture(t)
	for _, withIndex := range []bool{false, true} {
		app := &App{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Theme: "mono"}
		if withIndex {
			if err := app.loadProvenance(&provenanceFlags{workspace: ws, noHome: true}); err != nil {
				t.Fatal(err)
			}
		}
		l := app.Load([]string{req})
		if len(l.Errors) != 0 || len(l.Requests) != 1 {
			t.Fatalf("load: %v, %d requests", l.Errors, len(l.Requests))
		}
		m := ui.New(ui.Options{Title: req, Requests: l.Requests, Analysis: ui.DefaultAnalysis(), Theme: "mono"})
		drive := driveModel(m)
		drive(tea.WindowSizeMsg{Width: 240, Height: 30})
		screen := m.Render()
		got := strings.Count(screen, "layout not recognised")
		switch {
		case !withIndex && got != 1:
			t.Errorf("without an index the viewer says %d times that the layout was not recognised:\n%s", got, screen)
		case withIndex && got != 0:
			t.Errorf("judged by the workspace, the viewer still says the layout was not recognised:\n%s", screen)
		}
		if !withIndex && !strings.Contains(screen, "note: "+provenance.AssumedNote[:40]) {
			t.Errorf("the status line lacks the note:\n%s", screen)
		}
	}
}
