//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// adoptOrphans makes record the subreaper of its descendants: a process
// whose parent exits (a daemon that detached) becomes record's child, not
// init's, so that it can still be found and ended.
func adoptOrphans() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// statOf reads /proc/PID/stat: name, state, parent, group, session, start.
func statOf(pid int) (name string, state byte, ppid, pgid, sid int, start string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return
	}
	s := string(b)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return
	}
	name = s[open+1 : closing]
	f := strings.Fields(s[closing+1:])
	if len(f) < 20 {
		return
	}
	state = f[0][0]
	ppid, _ = strconv.Atoi(f[1])
	pgid, _ = strconv.Atoi(f[2])
	sid, _ = strconv.Atoi(f[3])
	return name, state, ppid, pgid, sid, f[19], true
}

func (p proc) alive() bool {
	_, state, _, _, _, start, ok := statOf(p.pid)
	return ok && state != 'Z' && state != 'X' && start == p.start
}

// allProcs lists every process: pid, parent, group, session.
func allProcs() map[int]procInfo {
	out := map[int]procInfo{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		name, state, ppid, pgid, sid, start, ok := statOf(pid)
		if !ok || state == 'Z' || state == 'X' {
			continue
		}
		out[pid] = procInfo{proc{pid, name, start}, ppid, pgid, sid}
	}
	return out
}

type procInfo struct {
	proc
	ppid, pgid, sid int
}

// groupMembers are the live processes of group pgid.
func groupMembers(pgid int) []proc {
	var out []proc
	for _, p := range allProcs() {
		if p.pgid == pgid {
			out = append(out, p.proc)
		}
	}
	return out
}

// descendants follows the processes under root while it runs.
type descendants struct {
	root int
	mu   sync.Mutex
	seen map[int]proc
	done chan struct{}
	wg   sync.WaitGroup
}

// watchDescendants starts noting, every quarter second, the processes
// that descend from root (and orphans record adopted from it).
func watchDescendants(root int) *descendants {
	d := &descendants{root: root, seen: map[int]proc{}, done: make(chan struct{})}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			d.scan()
			select {
			case <-d.done:
				return
			case <-t.C:
			}
		}
	}()
	return d
}

func (d *descendants) scan() {
	all := allProcs()
	self, selfSid := os.Getpid(), 0
	if me, ok := all[self]; ok {
		selfSid = me.sid
	}
	children := map[int][]int{}
	for pid, p := range all {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	// The child's tree, and record's adopted orphans: children of record
	// in a session of their own (record's own commands share its session).
	queue := []int{d.root}
	for _, pid := range children[self] {
		if p := all[pid]; pid != d.root && p.sid != selfSid {
			queue = append(queue, pid)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if p, ok := all[pid]; ok && pid != self {
			if pid != d.root {
				d.seen[pid] = p.proc
			}
			queue = append(queue, children[pid]...)
		}
	}
}

// stop scans once more and returns what was seen.
func (d *descendants) stop() map[int]proc {
	close(d.done)
	d.wg.Wait()
	d.scan()
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[int]proc, len(d.seen))
	for k, v := range d.seen {
		out[k] = v
	}
	return out
}

// reap collects the exit of those of ps that record adopted.
func reap(ps []proc) {
	for _, p := range ps {
		var ws syscall.WaitStatus
		syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
	}
}
