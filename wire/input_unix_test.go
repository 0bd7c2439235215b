//go:build unix

package wire

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openGuarded runs OpenInput with a guard, so that a regression that blocks
// on a named pipe fails instead of hanging the test run.
func openGuarded(t *testing.T, path string, open func(string, int64) (*InputFile, error)) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, err := open(path, MaxInputBytes)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("OpenInput(%s) blocked", path)
		return nil
	}
}

// TestOpenInputRefusesPipesDevicesAndSockets: a named pipe with no writer
// (opening it for reading would wait for one), /dev/zero and /dev/urandom
// (reading them never ends), a link to a device and a socket are each
// refused with a one-line reason, not read.
func TestOpenInputRefusesPipesDevicesAndSockets(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{fifo: "is a named pipe (FIFO), not a regular file"}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		cases[dev] = "is a character device, not a regular file"
		link := filepath.Join(dir, filepath.Base(dev)+".jsonl")
		if err := os.Symlink(dev, link); err != nil {
			t.Fatal(err)
		}
		cases[link] = "is a character device, not a regular file"
	}
	fifoLink := filepath.Join(dir, "fifo-link.jsonl")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	cases[fifoLink] = "is a named pipe (FIFO), not a regular file"
	sock := filepath.Join(dir, "s")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
		cases[sock] = "is a socket, not a regular file"
	}
	for path, want := range cases {
		err := openGuarded(t, path, OpenInput)
		var pe *fs.PathError
		var nr *NotRegularError
		if !errors.As(err, &pe) || !errors.As(err, &nr) || pe.Path != path {
			t.Errorf("%s: got %v, want a refusal", path, err)
			continue
		}
		if got := pe.Err.Error(); got != want || strings.Contains(got, "\n") {
			t.Errorf("%s: reason %q, want %q", path, got, want)
		}
	}
}

// TestOpenInputRefusesASwappedPath: a path that was a regular file when it
// was looked at and is a named pipe when it is opened (the race between the
// two) is opened without blocking and refused on the handle.
func TestOpenInputRefusesASwappedPath(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "context.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	err := openGuarded(t, fifo, openRegular)
	if !errors.As(err, new(*NotRegularError)) {
		t.Fatalf("got %v, want a refusal", err)
	}
	// A path a listing gave as a regular file is opened the same way.
	if err := openGuarded(t, fifo, OpenListed); !errors.As(err, new(*NotRegularError)) {
		t.Fatalf("OpenListed: got %v, want a refusal", err)
	}
}
