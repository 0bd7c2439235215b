package ui

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
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

var (
	oscTitle    = regexp.MustCompile("\x1b\\]([0-2]);([^\x07\x1b]*)(?:\x07|\x1b\\\\)")
	titleStack  = regexp.MustCompile("\x1b\\[2[23];0t")
	hostileName = "PWNED \x1b]0;evil\x07 \u202e"
)

// TestUIRunRestoresTheWindowTitle checks what the program writes about the
// window title: it saves the terminal's title first (CSI 22;0t), sets only
// the constant title or nothing, and restores the saved title last (CSI
// 23;0t), after Bubble Tea's closing empty title. No payload text reaches
// the title.
func TestUIRunRestoresTheWindowTitle(t *testing.T) {
	req := testReq(hostileName, 1, wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text",
		Text: "hello \x1b]2;PWNED\x07 \x1b]0;PWNED\x1b\\ there"})
	out := runUntil(t, Options{Requests: []wire.Request{req}, Title: hostileName, Theme: themes.Dark}, "TRUSTED PREFIX")
	if !strings.HasPrefix(out, pushTitle) {
		t.Fatalf("the output does not start by saving the title: %q", out[:min(len(out), 40)])
	}
	if !strings.HasSuffix(out, popTitle) {
		t.Fatalf("the output does not end by restoring the title: %q", out[max(0, len(out)-60):])
	}
	if stack := titleStack.FindAllString(out, -1); len(stack) != 2 {
		t.Fatalf("title stack sequences %q, want one push and one pop", stack)
	}
	titles := oscTitle.FindAllStringSubmatch(out, -1)
	if len(titles) == 0 {
		t.Fatal("the program never set the window title")
	}
	for _, m := range titles {
		if m[1] != "2" || (m[2] != Title && m[2] != "") {
			t.Errorf("OSC %s title %q: only %q (or the closing empty title) may be set", m[1], m[2], Title)
		}
	}
	if last := titles[len(titles)-1]; last[2] != "" || strings.LastIndex(out, last[0]) > strings.LastIndex(out, popTitle) {
		t.Errorf("the restoring pop does not come after the closing title: last title %q", last[0])
	}
}
