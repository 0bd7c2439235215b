//go:build unix

package wire

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// createGuarded runs CreateOutput with a guard, so that an open that
// blocks on a named pipe fails instead of hanging the test run.
func createGuarded(t *testing.T, path string, appendTo bool) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, err := CreateOutput(path, appendTo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("CreateOutput(%s) still blocks after 5 s", path)
		return nil
	}
}

// An output is opened without following a link (the link's target keeps
// its bytes), a named pipe is refused at once instead of waiting for a
// reader, a device or a directory is refused, and so is a file with other
// hard links; a new file is created 0600 and an existing one is narrowed
// to 0600.
func TestCreateOutputRefusesWhatIsNotItsOwnFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "capture.jsonl.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard")
	if err := os.Link(target, hard); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		why  string
	}{
		{link, "is a symbolic link"}, {dangling, "is a symbolic link"}, {fifo, "named pipe"},
		{"/dev/null", "character device"}, {dir, "directory"}, {hard, "hard link"},
	} {
		for _, appendTo := range []bool{false, true} {
			err := createGuarded(t, c.path, appendTo)
			if err == nil || !strings.Contains(err.Error(), c.why) {
				t.Errorf("CreateOutput(%s, append %v): %v, want an error saying %q", c.path, appendTo, err, c.why)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a dangling link's target was created")
	}

	old := syscall.Umask(0)
	defer syscall.Umask(old)
	fresh := filepath.Join(dir, "new.jsonl")
	if err := createGuarded(t, fresh, true); err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(dir, "wide.jsonl")
	if err := os.WriteFile(wide, []byte("x\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(wide, 0o666)
	if err := createGuarded(t, wide, true); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fresh, wide} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", p, st.Mode().Perm(), err)
		}
	}
	if b, _ := os.ReadFile(wide); string(b) != "x\n" {
		t.Errorf("appending truncated the file: %q", b)
	}
}
