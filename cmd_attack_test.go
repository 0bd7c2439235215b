package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe to write and read at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runUntil runs wirelens with args until its standard error holds until
// (or 10 s pass), then cancels it, and returns its exit code and stderr.
func runUntil(t *testing.T, until string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, strings.NewReader(""), &out, &errb) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(errb.String(), until) && time.Now().Before(deadline) {
		select {
		case code := <-done:
			return code, errb.String()
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	return <-done, errb.String()
}

// The start-up line and the errors of proxy never print --upstream's
// user:pass@ or a key in its query.
func TestProxyStartupLineMasksTheUpstream(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.jsonl")
	_, stderr := runUntil(t, "Ctrl-C stops it", "proxy", "--out", out, "--upstream", "https://alice:TESTSECRETpw@127.0.0.1:1/v1?key=TESTSECRETkey&x=1")
	if !strings.Contains(stderr, "forwarding to https://") || strings.Contains(stderr, "TESTSECRET") {
		t.Errorf("stderr %q", stderr)
	}
	code, _, stderr := runCLI(t, "", "proxy", "--out", out, "--upstream", "ftp://alice:TESTSECRETpw@x/?key=TESTSECRETkey")
	if code != 2 || !strings.Contains(stderr, "--upstream") || strings.Contains(stderr, "TESTSECRET") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
