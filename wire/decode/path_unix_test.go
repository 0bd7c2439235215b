//go:build unix

package decode

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
)

// decodeGuarded is decodeRecording with a guard, so that a regression that
// blocks on a named pipe or reads a device without end fails instead of
// hanging the test run.
func decodeGuarded(t *testing.T, path string) ([]wire.Request, []error) {
	t.Helper()
	type result struct {
		reqs []wire.Request
		errs []error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		for req, err := range Path(path, Options{}) {
			if err != nil {
				r.errs = append(r.errs, err)
				continue
			}
			r.reqs = append(r.reqs, req)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.reqs, r.errs
	case <-time.After(30 * time.Second):
		t.Fatalf("decoding %s did not end", path)
		return nil, nil
	}
}

// TestPathRefusesPipesAndDevices: a named pipe, /dev/zero, /dev/urandom and
// a link to a device given as the input are one error each, saying what the
// path is, instead of a hang or a read without end.
func TestPathRefusesPipesAndDevices(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "session.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:           fifo + ": is a named pipe (FIFO), not a regular file: to read a stream, give it on standard input as -",
		"/dev/zero":    "/dev/zero: is a character device, not a regular file",
		"/dev/urandom": "/dev/urandom: is a character device, not a regular file",
		link:           link + ": is a character device, not a regular file",
	} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		reqs, errs := decodeGuarded(t, path)
		if len(reqs) != 0 || len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%s: %d requests, errors %v; want %q", path, len(reqs), errs, want)
		}
	}
}

// TestRecordingKimiCLIWireNotRegular: kimi-cli's wire.jsonl beside
// context.jsonl is read for usage; a named pipe, or a link to /dev/zero or
// /dev/urandom, in its place is not read: the requests of context.jsonl come
// with a note saying why their usage is missing, and no error.
func TestRecordingKimiCLIWireNotRegular(t *testing.T) {
	for name, mk := range map[string]func(string) error{
		"a named pipe":           func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"a link to /dev/zero":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"a link to /dev/urandom": func(p string) error { return os.Symlink("/dev/urandom", p) },
		"a link to a named pipe": func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "pipe"), p) },
	} {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := filepath.Join(dir, "context.jsonl")
		copyRecording(t, fixtureKimiCLI, ctx)
		if err := mk(filepath.Join(dir, "wire.jsonl")); err != nil {
			t.Fatal(err)
		}
		want := "usage not recorded (the wire.jsonl beside context.jsonl is a character device, not a regular file: not read)"
		if strings.Contains(name, "pipe") {
			want = "usage not recorded (the wire.jsonl beside context.jsonl is a named pipe (FIFO), not a regular file: not read)"
		}
		// The file, then its session directory.
		for _, path := range []string{ctx, dir} {
			reqs, errs := decodeGuarded(t, path)
			noErrors(t, errs)
			if len(reqs) != 3 {
				t.Fatalf("%s, %s: %d requests, want 3", name, path, len(reqs))
			}
			for _, r := range reqs {
				// Only the _usage lines of context.jsonl give usage (the second step's).
				if r.Usage != nil && !r.Usage.CachedUnknown || !hasNote(r, want) {
					t.Errorf("%s, %s: usage %+v, notes %q; want the note %q", name, path, r.Usage, r.Notes, want)
				}
			}
		}
	}
}

// TestReadBodyRefusesAFIFO: a request whose source became a named pipe
// since it was read (the Raw view reads bodies back) is refused at once,
// not waited on.
func TestReadBodyRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "session.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadBody(&wire.Request{Source: fifo, Offset: 0, Length: 10}, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("ReadBody on a FIFO: %v, want a refusal naming the pipe", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ReadBody blocked on a FIFO")
	}
}
