//go:build unix && !linux

package main

import "syscall"

// Without /proc the group is ended as a whole, its members unnamed.

func adoptOrphans() {}

func (p proc) alive() bool { return syscall.Kill(p.pid, 0) == nil }

// groupMembers is the group itself (pid -pgid) while any member lives.
func groupMembers(pgid int) []proc {
	if syscall.Kill(-pgid, 0) == nil {
		return []proc{{pid: -pgid, name: "(the process group)"}}
	}
	return nil
}

type descendants struct{}

func watchDescendants(int) *descendants { return &descendants{} }

func (*descendants) stop() map[int]proc { return map[int]proc{} }

func reap([]proc) {}
