package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tmux tests run the scripts of .ci on one binary, built once for all
// of them (each script would build its own otherwise).
var tmuxBin struct {
	once      sync.Once
	dir, path string
	err       error
	out       []byte
}

// TestMain removes the tmux tests' binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if tmuxBin.dir != "" {
		os.RemoveAll(tmuxBin.dir)
	}
	os.Exit(code)
}

// runTmuxScript runs .ci/<script> (label names it in a skip) on the built
// binary; skipped, saying why, in -short mode and without tmux or go.
func runTmuxScript(t *testing.T, label, script string) {
	t.Helper()
	if testing.Short() {
		t.Skip(label + ": skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip(label + ": tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(label + ": the go command is not on PATH to build the binary")
	}
	tmuxBin.once.Do(func() {
		if tmuxBin.dir, tmuxBin.err = os.MkdirTemp("", "wirelens-tmux-"); tmuxBin.err != nil {
			return
		}
		tmuxBin.path = filepath.Join(tmuxBin.dir, "wirelens")
		build := exec.Command("go", "build", "-o", tmuxBin.path, ".")
		build.Dir = ".."
		tmuxBin.out, tmuxBin.err = build.CombinedOutput()
	})
	if tmuxBin.err != nil {
		t.Fatalf("building the binary: %v\n%s", tmuxBin.err, tmuxBin.out)
	}
	path := filepath.Join("..", ".ci", script)
	out, err := exec.Command("bash", path, tmuxBin.path).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, out)
	}
	t.Logf("%s", out)
}

// TestUITmux drives the built binary in a real terminal (tmux) with
// .ci/tmux-test.sh. CI installs nothing: without tmux it is skipped, saying
// why.
func TestUITmux(t *testing.T) { runTmuxScript(t, "tmux test", "tmux-test.sh") }

// TestUITmuxActions drives the built binary in a real terminal (tmux) at
// 80x24 with .ci/tmux-actions-test.sh: y sets the clipboard through OSC 52
// (tmux keeps it as a buffer) with the demo's AGENTS.md as shown, hazards
// visible and nothing raw; o and e run $PAGER and $EDITOR on a temporary
// file holding the same text, gone after; a missing pager is said in the
// status line; w writes the request to the file named on its prompt and
// asks before writing over it. Without tmux it is skipped, saying why.
func TestUITmuxActions(t *testing.T) { runTmuxScript(t, "tmux actions test", "tmux-actions-test.sh") }

// TestUITmuxKeys drives the built binary in a real terminal (tmux) at 80x24
// with .ci/tmux-keys-test.sh: the Response view of a recorded exchange and
// of one without a response, long lines cut and scrolled sideways (W, l),
// a pane zoomed and back (z), the mouse left to the terminal and taken
// back (M, read from tmux's own flag), and ] and [ through the demo's
// findings, saying when they start again. Without tmux it is skipped,
// saying why.
func TestUITmuxKeys(t *testing.T) { runTmuxScript(t, "tmux keys test", "tmux-keys-test.sh") }

// TestUITmuxNav drives the built binary in a real terminal (tmux) at 80x24
// with .ci/tmux-nav-test.sh: `view -` with the terminal on standard input
// exits 2 at once, the demo tells its story with no key pressed, the help
// scrolls to every key, the search and filter lines open empty and esc
// clears them, and a terminal too small says so. Without tmux it is
// skipped, saying why.
func TestUITmuxNav(t *testing.T) { runTmuxScript(t, "tmux nav test", "tmux-nav-test.sh") }

// TestUITmuxWidth drives the built binary in a real terminal (tmux) with
// .ci/tmux-width-test.sh: a model name, tool name and message padded with
// U+0600, ZWJ sequences or skin-tone modifiers never run into the pane
// beside them, and nothing of them stays behind. Without tmux it is
// skipped, saying why.
func TestUITmuxWidth(t *testing.T) { runTmuxScript(t, "tmux width test", "tmux-width-test.sh") }
