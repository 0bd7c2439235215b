package ui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUITmuxActions drives the built binary in a real terminal (tmux) at
// 80x24 with .ci/tmux-actions-test.sh: y sets the clipboard through OSC 52
// (tmux keeps it as a buffer) with the demo's AGENTS.md as shown, hazards
// visible and nothing raw; o and e run $PAGER and $EDITOR on a temporary
// file holding the same text, gone after; a missing pager is said in the
// status line; w writes the request to the file named on its prompt and
// asks before writing over it. Without tmux it is skipped, saying why.
func TestUITmuxActions(t *testing.T) {
	if testing.Short() {
		t.Skip("tmux actions test: skipped in -short mode (it builds and runs the binary)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux actions test: tmux is not installed here (apt-get install tmux to run it)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("tmux actions test: the go command is not on PATH to build the binary")
	}
	script := filepath.Join("..", ".ci", "tmux-actions-test.sh")
	out, err := exec.Command("bash", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
