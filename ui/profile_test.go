package ui

import (
	"io"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

func TestProgramProfileDetectsOnce(t *testing.T) {
	forced := colorprofile.ANSI
	if p := programProfile(Options{Profile: &forced}); p == nil || *p != colorprofile.ANSI {
		t.Fatalf("a forced profile must win, got %v", p)
	}
	p := programProfile(Options{})
	if p == nil || *p != lipgloss.Writer.Profile {
		t.Fatalf("standard output must reuse the profile detected at start (%v), got %v", lipgloss.Writer.Profile, p)
	}
	if p := programProfile(Options{Output: io.Discard}); p != nil {
		t.Fatalf("another output is Bubble Tea's to detect, got %v", *p)
	}
}
