package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRecordEndsTheChildsProcessTree: a child that leaves a grandchild in
// its group and a daemon in a session of its own exits; record ends both
// (the daemon, which ignores TERM, with KILL) and says what it ended.
func TestRecordEndsTheChildsProcessTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("WIRELENS_TEST_CHILD", "grandchildren")
	t.Setenv("WIRELENS_TEST_PIDS", pidFile)
	code, _, stderr := runCLI(t, "", "record", "--mock", "--out", filepath.Join(t.TempDir(), "c.jsonl"), "--", os.Args[0], "-test.run=NONE")
	os.Unsetenv("WIRELENS_TEST_CHILD")
	b, err := os.ReadFile(pidFile)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, pids %v: %s", code, err, stderr)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		if _, state, _, _, _, _, ok := statOf(pid); ok && state != 'Z' {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d (state %c) still runs after record", pid, state)
		}
	}
	if !strings.Contains(stderr, "ended 2 process(es)") || !strings.Contains(stderr, "then KILL after") {
		t.Errorf("stderr does not say what was ended: %s", stderr)
	}
	if !strings.Contains(stderr, "nothing recorded: no request reached the proxy") || !strings.Contains(stderr, "HTTPS_PROXY") {
		t.Errorf("stderr does not say why nothing was recorded: %s", stderr)
	}
}

// TestRecordCtrlCEndsTheChild: record run as a process of its own, its
// child a shell waiting on a sleep; an interrupt to record reaches the
// child's group, record waits for it, exits 130 and leaves nothing running.
func TestRecordCtrlCEndsTheChild(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	rec := exec.Command(os.Args[0], "record", "--mock", "--out", filepath.Join(t.TempDir(), "c.jsonl"), "--",
		sh, "-c", `echo $$ > "$1"; sleep 60; echo not reached`, "sh", pidFile)
	rec.Env = append(os.Environ(), "WIRELENS_TEST_AS_MAIN=1")
	var stderr strings.Builder
	rec.Stderr = &stderr
	if err := rec.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- rec.Wait() }()
	// The shell writes its pid once it runs (bounded: no more than 20 s).
	var pid int
	for i := 0; i < 400 && pid == 0; i++ {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if pid == 0 {
		rec.Process.Kill()
		t.Fatalf("the child never started: %s", stderr.String())
	}
	// The interrupt is sent once the shell waits on its sleep: sent while
	// the shell forks, it reaches the shell but not the sleep forked after
	// it, and the shell then waits the sleep out (the shell's race, not
	// record's: a second Ctrl-C would end it).
	children := fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)
	for i := 0; i < 400; i++ {
		if b, err := os.ReadFile(children); err != nil || len(strings.TrimSpace(string(b))) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	rec.Process.Signal(os.Interrupt)
	select {
	case err := <-done:
		var xe *exec.ExitError
		if !errors.As(err, &xe) || xe.ExitCode() != 130 {
			t.Errorf("record ended with %v, want exit 130: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		rec.Process.Kill()
		t.Fatalf("record did not end after the interrupt: %s", stderr.String())
	}
	if _, state, _, _, _, _, ok := statOf(pid); ok && state != 'Z' {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the child %d still runs", pid)
	}
	if strings.Contains(stderr.String(), "not reached") {
		t.Errorf("the child ran on past the interrupt")
	}
}
