package ui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUITmuxNav drives the built binary in a real terminal (tmux) at 80x24
// with .ci/tmux-nav-test.sh: `view -` with the terminal on standard input
// exits 2 at once, the demo tells its story with no key pressed, the help
// scrolls to every key, the search and filter lines open empty and esc
// clears them, and a terminal too small says so. Without tmux it is
// skipped, saying why.
func TestUITmuxNav(t *testing.T) {
	if testing.Short() {
		t.Skip("tmux nav test: skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux nav test: tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("tmux nav test: the go command is not on PATH to build the binary")
	}
	script := filepath.Join("..", ".ci", "tmux-nav-test.sh")
	out, err := exec.Command("bash", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
