//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
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
