//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// childGroup, where there are no process groups: the child alone.
type childGroup struct{ cmd *exec.Cmd }

func newChildGroup(cmd *exec.Cmd, _ any) *childGroup { return &childGroup{cmd: cmd} }

func (g *childGroup) started() {}

func (g *childGroup) signal(s os.Signal) {
	if g.cmd.Process != nil {
		g.cmd.Process.Signal(s)
	}
}

func (g *childGroup) end(func(string)) {}
