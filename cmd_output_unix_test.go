//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The capture commands' outputs: two outputs naming one file are refused
// before anything is written (--har X --out X replaced the recording with
// an empty HAR), --out through a link, to a named pipe (it hung) or to a
// device is refused at once with one line, and nothing is written through
// the link.
func TestCaptureOutputsRefused(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.jsonl")
	if err := os.WriteFile(rec, []byte("{\"earlier\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "bashrc")
	os.WriteFile(target, []byte("keep me\n"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"proxy", "--mock", "--out", rec, "--har", rec}, "--har and --out name the same file"},
		{[]string{"proxy", "--mock", "--out", rec, "--har", filepath.Join(dir, ".", "rec.jsonl")}, "--har and --out name the same file"},
		{[]string{"proxy", "--mock", "--out", link}, "symbolic link"},
		{[]string{"proxy", "--mock", "--out", fifo}, "named pipe"},
		{[]string{"proxy", "--mock", "--out", "/dev/null"}, "character device"},
		{[]string{"record", "--mock", "--out", link, "--", "true"}, "symbolic link"},
	} {
		done := make(chan struct{})
		var code int
		var stderr string
		go func() {
			defer close(done)
			code, _, stderr = runCLI(t, "", c.args...)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v still runs after 10 s", c.args)
		}
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", c.args, code, stderr, c.want)
		}
	}
	if b, _ := os.ReadFile(rec); string(b) != "{\"earlier\":1}\n" {
		t.Errorf("the recording was changed: %q", b)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// record --view's FILE.log is opened like every output: a link committed
// in a repository (capture.jsonl.log -> ~/.bashrc) is refused, and the
// file it points to keeps its bytes.
func TestViewLogRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	os.WriteFile(target, []byte("keep me\n"), 0o644)
	log := filepath.Join(dir, "capture.jsonl.log")
	os.Symlink(target, log)
	f, err := openViewLog(filepath.Join(dir, "capture.jsonl"))
	if err == nil {
		f.Close()
		t.Fatal("the log was opened through a link")
	}
	if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}
