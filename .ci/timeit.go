//go:build ignore

// timeit runs a command and prints, on one line of standard error's
// place FILE, its wall time from the monotonic clock, its CPU time (user
// and system, from the kernel's accounting of the child, in microseconds)
// and its peak resident memory, for .ci/bench.sh:
//
//	go build -o timeit .ci/timeit.go
//	timeit FILE CMD [ARG...]    ->  FILE: "WALL_S CPU_S MAXRSS_KB"
//
// The command's standard output is discarded, its standard error passed
// through; timeit exits with the command's exit code. /usr/bin/time gives
// wall and CPU time in hundredths of a second, too coarse for the small
// sessions a growth exponent starts from.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: timeit FILE CMD [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start) // monotonic: time.Now carries the monotonic reading
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "timeit:", err)
		os.Exit(2)
	}
	st := cmd.ProcessState
	cpu := st.UserTime() + st.SystemTime()
	var rss int64
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) // KB on Linux
	}
	line := fmt.Sprintf("%.6f %.6f %d\n", wall.Seconds(), cpu.Seconds(), rss)
	if werr := os.WriteFile(os.Args[1], []byte(line), 0o600); werr != nil {
		fmt.Fprintln(os.Stderr, "timeit:", werr)
		os.Exit(2)
	}
	os.Exit(st.ExitCode())
}
