package ui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUITmuxKeys drives the built binary in a real terminal (tmux) at 80x24
// with .ci/tmux-keys-test.sh: the Response view of a recorded exchange and
// of one without a response, long lines cut and scrolled sideways (W, l),
// a pane zoomed and back (z), the mouse left to the terminal and taken
// back (M, read from tmux's own flag), and ] and [ through the demo's
// findings, saying when they start again. Without tmux it is skipped,
// saying why.
func TestUITmuxKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("tmux keys test: skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux keys test: tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("tmux keys test: the go command is not on PATH to build the binary")
	}
	script := filepath.Join("..", ".ci", "tmux-keys-test.sh")
	out, err := exec.Command("bash", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
