package ui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUITmux drives the built binary in a real terminal (tmux) with
// .ci/tmux-test.sh. CI installs nothing: without tmux it is skipped, saying
// why.
func TestUITmux(t *testing.T) {
	if testing.Short() {
		t.Skip("tmux test: skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux test: tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("tmux test: the go command is not on PATH to build the binary")
	}
	script := filepath.Join("..", ".ci", "tmux-test.sh")
	out, err := exec.Command("bash", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
