package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
)

// TestFollowSendsRequestsAsTheirLinesAreWritten: a followed file's requests
// reach the viewer once each, when their line is whole; a line still being
// written waits; an error is sent once.
func TestFollowSendsRequestsAsTheirLinesAreWritten(t *testing.T) {
	lines, err := os.ReadFile(filepath.Join("testdata", "agents", "gemini-cli.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.SplitAfter(strings.TrimSuffix(string(lines), "\n"), "\n")
	all[len(all)-1] += "\n"
	if len(all) != 2 {
		t.Fatalf("the fixture has %d lines, want 2", len(all))
	}
	path := filepath.Join(t.TempDir(), "growing.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	app := &App{In: wire.NewInterner()}
	fl := follower{app: app, path: path, seen: map[string]bool{}}
	var got []ui.Item
	look := func() int {
		before := len(got)
		if !fl.look(context.Background(), func(it ui.Item) bool { got = append(got, it); return true }) {
			t.Fatal("look stopped")
		}
		return len(got) - before
	}
	if n := look(); n != 0 {
		t.Errorf("an empty file sent %d items", n)
	}
	f.WriteString(all[0])
	if n := look(); n != 1 || got[0].Req == nil || got[0].Req.Index != 1 {
		t.Fatalf("after the first line: %d items %+v", n, got)
	}
	half := len(all[1]) / 2
	f.WriteString(all[1][:half])
	if n := look(); n != 0 {
		t.Errorf("a half-written line sent %d items", n)
	}
	f.WriteString(all[1][half:])
	if n := look(); n != 1 || got[1].Req == nil || got[1].Req.Index != 2 || got[1].Req.Model != "gemini-3.1-pro-preview" {
		t.Fatalf("after the second line: %d items", n)
	}
	if n := look(); n != 0 {
		t.Errorf("no change sent %d items", n)
	}
	f.WriteString("{broken\n")
	look()
	look()
	errs := 0
	for _, it := range got {
		if it.Err != nil {
			errs++
			if !strings.Contains(it.Err.Error(), "growing.jsonl:3") {
				t.Errorf("error %v does not name the line", it.Err)
			}
		}
	}
	if errs != 1 {
		t.Errorf("%d errors sent, want the broken line once", errs)
	}
}

// TestViewFollowNeedsOneFile: --follow takes one file, not standard input.
func TestViewFollowNeedsOneFile(t *testing.T) {
	for _, args := range [][]string{{"view", "--follow", "-"}, {"view", "--follow", "a", "b"}} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "--follow takes one file") {
			t.Errorf("%v: exit %d %q", args, code, stderr)
		}
	}
}
