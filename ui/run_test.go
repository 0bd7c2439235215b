package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/wirelens/wirelens/themes"
)

// runGuard is how long a test waits for Run to return before it fails
// instead of hanging.
const runGuard = 20 * time.Second

// syncBuffer is a bytes.Buffer the program and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runUntil runs the program with keys from a pipe until its output holds
// want, presses q, and returns the whole output once Run has returned.
func runUntil(t *testing.T, opts Options, want string) string {
	t.Helper()
	out := &syncBuffer{}
	keys, press := io.Pipe()
	defer press.Close()
	prof := colorprofile.ASCII
	opts.Input, opts.Output, opts.Width, opts.Height, opts.Profile = keys, out, 100, 30, &prof
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), opts) }()
	for deadline := time.Now().Add(runGuard); !strings.Contains(out.String(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the program never wrote %q", want)
		}
	}
	go func() { _, _ = press.Write([]byte("q")) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(runGuard):
		t.Fatal("Run did not return after q")
	}
	return out.String()
}

// TestUIRunQuitsWhileTheStreamWaits quits while the stream has delivered
// nothing and never will: Run returns.
func TestUIRunQuitsWhileTheStreamWaits(t *testing.T) {
	never := make(chan Item)
	runUntil(t, Options{Stream: never, Theme: themes.Mono}, "loading")
}
