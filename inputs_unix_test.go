//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runGuarded is runCLI with a guard, so that a regression that blocks on a
// named pipe or reads a device without end fails instead of hanging the test
// run.
func runGuarded(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("wirelens %q did not end", args)
		return 0, "", ""
	}
}

// TestInputsThatAreNotRegularFiles: a named pipe, /dev/zero, /dev/urandom
// and a link to a device named on the command line, as a FILE or as the
// --system template of build, are each refused on one line with exit 2,
// instead of hanging on the pipe or reading the device without end.
func TestInputsThatAreNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "session.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "system.md")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	pipe := "is a named pipe (FIFO), not a regular file"
	dev := "is a character device, not a regular file"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", fifo}, fifo + ": " + pipe},
		{[]string{"inspect", "--json", fifo}, fifo + ": " + pipe},
		{[]string{"check", fifo}, fifo + ": " + pipe},
		{[]string{"cache", fifo}, fifo + ": " + pipe},
		{[]string{"diff", fifo, fifo + "@2"}, fifo + ": " + pipe},
		{[]string{"inspect", "/dev/zero"}, "/dev/zero: " + dev},
		{[]string{"inspect", "/dev/urandom"}, "/dev/urandom: " + dev},
		{[]string{"inspect", link}, link + ": " + dev},
		{[]string{"build", buildPoisoned, "--system", "/dev/zero"}, "--system /dev/zero: " + dev},
		{[]string{"build", buildPoisoned, "--system", "/dev/urandom"}, "--system /dev/urandom: " + dev},
		{[]string{"build", buildPoisoned, "--system", link}, "--system " + link + ": " + dev},
		{[]string{"build", buildPoisoned, "--system", fifo}, "--system " + fifo + ": " + pipe},
	} {
		if _, err := os.Stat(c.args[len(c.args)-1]); err != nil {
			continue // no such device here
		}
		code, _, errs := runGuarded(t, c.args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "wirelens: "+c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line %q", c.args, code, errs, c.want)
		}
	}
}
