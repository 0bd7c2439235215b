//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (Linux's /dev/ptmx): the terminal
// side is what a program sees as its standard input in a terminal.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// TestViewDashRefusesATerminal checks that `view -` (and `wirelens -`) with
// a terminal on standard input says that a terminal is not a payload and
// exits 2 at once, whatever standard output is, instead of waiting for a
// payload while the keys typed go nowhere.
func TestViewDashRefusesATerminal(t *testing.T) {
	_, tty := openPTY(t)
	for _, args := range [][]string{{"view", "-"}, {"-"}, {"view", "testdata/sessions/session.jsonl", "-"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(context.Background(), args, tty, &out, &errOut) }()
			select {
			case code := <-done:
				if code != 2 {
					t.Fatalf("exit %d, want 2; stderr %q", code, errOut.String())
				}
			case <-time.After(hangGuard):
				t.Fatal("view - waited on the terminal")
			}
			msg := errOut.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "standard input is a terminal") {
				t.Fatalf("stderr %q, want one line saying standard input is a terminal", msg)
			}
			if out.Len() != 0 {
				t.Fatalf("stdout %q, want nothing", out.String())
			}
		})
	}
}

// runInPTY runs this test binary as wirelens (WIRELENS_TEST_AS_MAIN) with
// args, in a new session whose controlling terminal is a fresh
// pseudo-terminal of 80x24, typing keys into it every 200 ms until it
// exits. It returns the exit code and everything the terminal showed.
func runInPTY(t *testing.T, keys string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WIRELENS_TEST_AS_MAIN=1", "TERM=xterm-256color")
	return runCmdInPTY(t, keys, cmd)
}

// runCmdInPTY runs cmd (its Env set by the caller) as runInPTY does: in a
// new session on a fresh pseudo-terminal of 80x24, keys typed every 200 ms.
func runCmdInPTY(t *testing.T, keys string, cmd *exec.Cmd) (int, string) {
	t.Helper()
	master, tty := openPTY(t)
	ws := struct{ row, col, x, y uint16 }{24, 80, 0, 0}
	syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var (
		mu     sync.Mutex
		screen bytes.Buffer
	)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(hangGuard)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return code, screen.String()
		case <-tick.C:
			if keys != "" {
				master.Write([]byte(keys))
			}
		case <-deadline:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its whole session
			cmd.Process.Kill()
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%v did not exit; screen %q", cmd.Args, screen.String())
		}
	}
}

// TestRootShorthandOpensTheViewerInATerminal runs "wirelens FILE" in a
// terminal, as the README's example does, and quits with q: the viewer
// gets the root's context (it once panicked with "cannot create context
// from nil parent") and the program exits 0.
func TestRootShorthandOpensTheViewerInATerminal(t *testing.T) {
	for _, args := range [][]string{{"testdata/sessions/session.jsonl"}, {"view", "testdata/sessions/session.jsonl"}} {
		code, screen := runInPTY(t, "q", args...)
		if code != 0 || strings.Contains(screen, "panic") || strings.Contains(screen, "goroutine ") {
			t.Fatalf("wirelens %v: exit %d, screen %q", args, code, screen)
		}
	}
}
