//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// childGroup is the process group of record's COMMAND: the child leads a
// group of its own (in the terminal's foreground while it runs, when its
// input is the terminal), and when it exits or record is interrupted the
// whole group ends with it, and any process that left the group (a
// daemon that started a session of its own) but descends from the child.
type childGroup struct {
	cmd  *exec.Cmd
	pgid int
	tty  int // the terminal's descriptor when the child is its foreground, else -1
	seen *descendants
}

// groupGrace is how long the processes left behind get between TERM and KILL.
const groupGrace = 3 * time.Second

// newChildGroup makes cmd the leader of a group of its own; stdin, when it
// is a terminal, gives the group the terminal's foreground so that Ctrl-C
// and the terminal's input reach it.
func newChildGroup(cmd *exec.Cmd, stdin any) *childGroup {
	g := &childGroup{cmd: cmd, tty: -1}
	attr := &syscall.SysProcAttr{Setpgid: true}
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		attr.Foreground = true
		attr.Ctty = int(f.Fd())
		g.tty = int(f.Fd())
	}
	cmd.SysProcAttr = attr
	adoptOrphans()
	return g
}

// started notes the group (the child's pid) and starts following its
// descendants.
func (g *childGroup) started() {
	g.pgid = g.cmd.Process.Pid
	g.seen = watchDescendants(g.pgid)
}

// signal sends s to the whole group.
func (g *childGroup) signal(s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok && g.pgid > 0 {
		syscall.Kill(-g.pgid, sig)
	}
}

// takeTerminal gives the terminal's foreground back to record.
func (g *childGroup) takeTerminal() {
	if g.tty < 0 {
		return
	}
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	pgrp := syscall.Getpgrp()
	syscall.Syscall(syscall.SYS_IOCTL, uintptr(g.tty), uintptr(syscall.TIOCSPGRP), uintptr(unsafe.Pointer(&pgrp)))
}

// end ends what is left of the group and of the child's descendants (TERM,
// then KILL after groupGrace), and says what it ended.
func (g *childGroup) end(log func(string)) {
	if g.pgid <= 0 {
		return
	}
	g.takeTerminal()
	left := g.seen.stop()
	for _, p := range groupMembers(g.pgid) {
		left[p.pid] = p
	}
	var alive []proc
	for _, p := range left {
		if p.alive() {
			alive = append(alive, p)
		}
	}
	syscall.Kill(-g.pgid, syscall.SIGTERM)
	if len(alive) == 0 {
		return
	}
	sort.Slice(alive, func(i, j int) bool { return alive[i].pid < alive[j].pid })
	for _, p := range alive {
		syscall.Kill(p.pid, syscall.SIGTERM)
	}
	how := "TERM"
	deadline := time.Now().Add(groupGrace)
	for {
		reap(alive)
		n := 0
		for _, p := range alive {
			if p.alive() {
				n++
			}
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			how = fmt.Sprintf("TERM, then KILL after %v", groupGrace)
			syscall.Kill(-g.pgid, syscall.SIGKILL)
			for _, p := range alive {
				if p.alive() {
					syscall.Kill(p.pid, syscall.SIGKILL)
				}
			}
			time.Sleep(50 * time.Millisecond)
			reap(alive)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	names := make([]string, len(alive))
	for i, p := range alive {
		names[i] = fmt.Sprintf("%d %s", p.pid, p.name)
	}
	log(fmt.Sprintf("ended %d process(es) %s left running (%s): %s", len(alive), g.cmd.Args[0], how, strings.Join(names, ", ")))
}

// proc is a process record ends: its pid, name and start time (to tell it
// from a later process given the same pid).
type proc struct {
	pid   int
	name  string
	start string
}
