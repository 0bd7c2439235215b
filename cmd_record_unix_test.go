//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// testSleeper waits to be ended; with WIRELENS_TEST_SLEEP=stubborn it
// ignores TERM, so only KILL ends it.
func testSleeper() {
	if os.Getenv("WIRELENS_TEST_SLEEP") == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Println("ready") // after the TERM is ignored
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
		ready, err := c.StdoutPipe()
		if err == nil {
			err = c.Start()
		}
		if err == nil {
			_, err = bufio.NewReader(ready).ReadString('\n')
		}
		if err != nil {
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
