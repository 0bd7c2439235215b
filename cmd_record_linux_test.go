package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// testSleeper waits to be ended; with WIRELENS_TEST_SLEEP=stubborn it
// ignores TERM, so only KILL ends it.
func testSleeper() {
	if os.Getenv("WIRELENS_TEST_SLEEP") == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
	}
	select {}
}

// testParentOfSleepers starts two sleepers and exits at once: one stays in
// its process group, one starts a session of its own (as a daemon does)
// and ignores TERM. Their pids go to $WIRELENS_TEST_PIDS.
func testParentOfSleepers() int {
	var pids []string
	for _, mode := range []string{"plain", "stubborn"} {
		c := exec.Command(os.Args[0], "-test.run=NONE")
		c.Env = append(os.Environ(), "WIRELENS_TEST_SLEEP="+mode)
		if mode == "stubborn" {
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 9
		}
		pids = append(pids, strconv.Itoa(c.Process.Pid))
	}
	if err := os.WriteFile(os.Getenv("WIRELENS_TEST_PIDS"), []byte(strings.Join(pids, " ")), 0o600); err != nil {
		return 9
	}
	return 0
}

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
	if !strings.Contains(stderr, "nothing recorded: no request reached the proxy") {
		t.Errorf("stderr does not say why nothing was recorded: %s", stderr)
	}
}
