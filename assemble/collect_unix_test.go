//go:build unix

package assemble

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCollectNamedPipesAreNotOpened puts named pipes where Collect reads
// files (AGENTS.md, the root .gitignore, a SKILL.md): opening one would wait
// for a writer forever. Collect must note them and go on.
func TestCollectNamedPipesAreNotOpened(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{"main.go": "package main", ".agents/skills/x/": ""})
	for _, p := range []string{"AGENTS.md", ".gitignore", ".agents/skills/x/SKILL.md"} {
		if err := syscall.Mkfifo(filepath.Join(ws, filepath.FromSlash(p)), 0o644); err != nil {
			t.Fatalf("mkfifo %s: %v", p, err)
		}
	}
	done := make(chan *Baseline, 1)
	go func() { done <- collectDir(t, ws, testNow) }()
	var b *Baseline
	select {
	case b = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Collect blocked on a named pipe")
	}
	if len(b.AgentsMD) != 1 || b.AgentsMD[0].Text != "[wirelens: not read: not a regular file]\n" {
		t.Fatalf("want a visible note for the piped AGENTS.md, got %+v", b.AgentsMD)
	}
	if !hasNote(b, filepath.Join(ws, "AGENTS.md")+": not a regular file") ||
		!hasNote(b, filepath.Join(ws, ".agents", "skills", "x", "SKILL.md")+": not a regular file") {
		t.Fatalf("want notes naming the pipes, got %q", b.Notes)
	}
	if len(b.Skills) != 0 {
		t.Fatalf("a piped SKILL.md became a skill: %+v", b.Skills)
	}
	if !strings.Contains(b.Listing, ".gitignore\n") || !strings.Contains(b.Listing, "main.go\n") {
		t.Fatalf("the listing must still show the entries:\n%s", b.Listing)
	}
}

// TestCollectUnreadableAncestor makes a directory of the AGENTS.md chain
// unreadable: its AGENTS.md is left out with a note, the rest is read.
func TestCollectUnreadableAncestor(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Log("running as root: mode 000 does not stop reads here")
		return
	}
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/AGENTS.md": "root\n",
		"repo/locked/ws/AGENTS.md": "ws\n", "repo/locked/AGENTS.md": "locked\n",
	})
	locked := filepath.Join(base, "repo", "locked")
	if err := os.Chmod(locked, 0o311); err != nil { // searchable, not readable
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	b := collectDir(t, filepath.Join(locked, "ws"), testNow)
	var got []string
	for _, f := range b.AgentsMD {
		got = append(got, strings.TrimSpace(f.Text))
	}
	if strings.Join(got, "|") != "root|ws" {
		t.Fatalf("chain %q, want root and ws", got)
	}
	if !hasNote(b, locked+": permission denied (AGENTS.md not read)") {
		t.Fatalf("no note for the unreadable ancestor: %q", b.Notes)
	}
}
