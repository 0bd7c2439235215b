package ui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUITmuxWidth drives the built binary in a real terminal (tmux) with
// .ci/tmux-width-test.sh: a model name, tool name and message padded with
// U+0600, ZWJ sequences or skin-tone modifiers never run into the pane
// beside them, and nothing of them stays behind. Without tmux it is
// skipped, saying why.
func TestUITmuxWidth(t *testing.T) {
	if testing.Short() {
		t.Skip("tmux width test: skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux width test: tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("tmux width test: the go command is not on PATH to build the binary")
	}
	script := filepath.Join("..", ".ci", "tmux-width-test.sh")
	out, err := exec.Command("bash", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
