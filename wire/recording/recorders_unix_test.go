//go:build unix

package recording

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// TestFindFilesPassesOverPipesAndDevices: a named pipe or a link to
// /dev/zero named like a recording is no recording; looking at it neither
// blocks nor reads without end, and the real recording beside it is listed.
func TestFindFilesPassesOverPipesAndDevices(t *testing.T) {
	root := t.TempDir()
	sess := filepath.Join(root, "-home-dev-repo")
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	claude := wiretest.Read(t, "recordings", "claude-code", "-home-dev-repo", "5f0c2a6e-1b7d-4c3e-9f10-2a3b4c5d6e7f.jsonl")
	if err := os.WriteFile(filepath.Join(sess, "s.jsonl"), claude, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(sess, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(sess, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	type result struct {
		files     []File
		err       error
		pipe, dev wire.Format
	}
	done := make(chan result, 1)
	go func() {
		var r result
		r.files, r.err = FindFiles(root, wire.FormatAuto)
		r.pipe, r.dev = DetectFile(fifo), DetectFile(zero)
		done <- r
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("FindFiles or DetectFile blocked on a named pipe or a device")
	}
	if r.err != nil || len(r.files) != 1 || r.files[0].Rel != filepath.Join("-home-dev-repo", "s.jsonl") {
		t.Errorf("listed %+v, %v; want the one recording", r.files, r.err)
	}
	if r.pipe != "" || r.dev != "" {
		t.Errorf("DetectFile: pipe %q, /dev/zero %q", r.pipe, r.dev)
	}
}
