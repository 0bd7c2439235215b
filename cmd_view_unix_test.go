//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
)

// hangGuard is how long a test waits for what must happen at once before
// it fails instead of hanging.
const hangGuard = 20 * time.Second

// fifo makes a named pipe in a temporary directory. When the test ends it
// opens the pipe for writing without waiting, which lets a reader still
// waiting to open it go on (and close it).
func fifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	t.Cleanup(func() {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	return path
}

// screenWriter feeds the viewer's output into a terminal emulator.
type screenWriter struct {
	mu  sync.Mutex
	emu *vt.Emulator
}

func (w *screenWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := bytes.ReplaceAll(p, []byte("\r\n"), []byte("\n"))
	if _, err := w.emu.Write(bytes.ReplaceAll(q, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *screenWriter) screen() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emu.String()
}

// writeHanging opens path for writing and writes one request line, then
// more than the 8 KB the decoder looks at before it decodes, without the
// line's end: the reader gets the request, and its next read waits. The
// writer stays open until the test ends.
func writeHanging(t *testing.T, path string) {
	t.Helper()
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	line := `{"model":"claude-sonnet-4-5","max_tokens":16,"system":"You are a coding agent.","messages":[{"role":"user","content":"hello"}]}` + "\n"
	if _, err := w.WriteString(line + strings.Repeat(" ", 9000)); err != nil {
		t.Fatal(err)
	}
}

// viewFIFO runs the view command's viewer on a FIFO in process, keys
// coming from a pipe, until it shows want; then it presses q and returns
// what the viewer returned, failing the test if it does not return.
func viewFIFO(t *testing.T, path, want string) (error, string) {
	t.Helper()
	emu := vt.NewEmulator(100, 30)
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	out := &screenWriter{emu: emu}
	keys, press := io.Pipe()
	defer press.Close()
	prof := colorprofile.ASCII
	var stderr bytes.Buffer
	app := &App{Theme: "mono", Stdout: io.Discard, Stderr: &stderr, In: wire.NewInterner()}
	done := make(chan error, 1)
	go func() {
		done <- viewInputs(context.Background(), app, []string{path},
			ui.Options{Input: keys, Output: out, Width: 100, Height: 30, Profile: &prof})
	}()
	for deadline := time.Now().Add(hangGuard); !strings.Contains(out.screen(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the viewer never showed %q:\n%s", want, out.screen())
		}
	}
	go func() { _, _ = press.Write([]byte("q")) }()
	select {
	case err := <-done:
		return err, stderr.String()
	case <-time.After(hangGuard):
		t.Fatalf("the view command did not return after q while its input waits:\n%s", out.screen())
	}
	return nil, ""
}

// TestViewQuitsWhileAFIFOWaitsForAWriter opens the viewer on a FIFO no one
// writes to: opening it waits for ever, and q still ends the command, with
// no input error.
func TestViewQuitsWhileAFIFOWaitsForAWriter(t *testing.T) {
	path := fifo(t)
	err, stderr := viewFIFO(t, path, "loading")
	if err != nil || stderr != "" {
		t.Fatalf("view returned %v, standard error %q", err, stderr)
	}
}

// TestViewQuitsWhileAFIFOReadWaits opens the viewer on a FIFO whose writer
// sent one request and keeps it open: the viewer shows the request, its
// next read waits, and q still ends the command.
func TestViewQuitsWhileAFIFOReadWaits(t *testing.T) {
	path := fifo(t)
	writeHanging(t, path)
	err, stderr := viewFIFO(t, path, "1 request")
	if err != nil || stderr != "" {
		t.Fatalf("view returned %v, standard error %q", err, stderr)
	}
}

// TestDecodeContextClosesAWaitingFIFO ends the context of a decoder whose
// read of a FIFO waits: the FIFO is closed, and the decoder returns.
func TestDecodeContextClosesAWaitingFIFO(t *testing.T) {
	path := fifo(t)
	writeHanging(t, path)
	app := &App{In: wire.NewInterner()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		n := 0
		app.decodeContext(ctx, path, func(r wire.Request, err error) bool {
			if n++; n == 1 {
				close(first)
			}
			return true
		})
	}()
	select {
	case <-first:
	case <-time.After(hangGuard):
		t.Fatal("the first request never arrived")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatal("the decoder still waits on the FIFO after its context ended")
	}
}
