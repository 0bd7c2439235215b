//go:build unix

package act

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteRefusesAPipe: a named pipe is refused at once (no wait on a
// reader), the error naming it.
func TestWriteRefusesAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, _, err := Write(fifo, nil, true, writeString("x")); err == nil || !strings.Contains(err.Error(), fifo) {
		t.Errorf("a named pipe: %v", err)
	}
}
