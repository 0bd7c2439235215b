package assemble

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wirelens/wirelens/wire"
)

// watchWorkspace writes a workspace with an AGENTS.md, builds it in layout
// and starts watching it; it returns the AGENTS.md path, the watcher, the
// first build and the stream.
func watchWorkspace(t *testing.T, layout Layout) (string, *Watcher, Rebuild, <-chan Rebuild) {
	t.Helper()
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "# Notes\nUse tabs.\n", "src/main.go": "package main"})
	w := NewWatcher(dir, wire.NewInterner(), layout, wire.FormatAnthropic, WatchOptions{Host: testHost})
	first := w.Build()
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stream, err := w.Watch(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if r := nextBuild(t, stream, "first"); r.Request != first.Request || r.Note != first.Note {
		t.Fatalf("the stream starts with %+v, want the first build %+v", r, first)
	}
	return filepath.Join(dir, "AGENTS.md"), w, first, stream
}

// nextBuild waits for the next build (or failed rebuild) on the stream.
func nextBuild(t *testing.T, stream <-chan Rebuild, what string) Rebuild {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case r, ok := <-stream:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			if r.Request != nil || strings.HasPrefix(r.Note, "rebuild failed") {
				return r
			}
		case <-timeout:
			t.Fatalf("%s: no rebuild", what)
		}
	}
}

// requestText is the text of every segment of r.
func requestText(r *wire.Request) string {
	var sb strings.Builder
	for _, s := range r.Segments {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// TestWatcherRebuildsOnChange edits AGENTS.md of a watched legacy workspace:
// the rebuild holds the new text, is numbered after the first and reports
// that the system prompt changed.
func TestWatcherRebuildsOnChange(t *testing.T) {
	agents, _, first, stream := watchWorkspace(t, LayoutLegacy)
	if first.Request.Index != 1 || first.Note != "#1 built legacy layout" || first.Report != nil ||
		!strings.HasSuffix(first.Request.Source, "(legacy)") || first.Request.Offset != -1 {
		t.Fatalf("first build: index %d, source %q, offset %d, note %q, report %v",
			first.Request.Index, first.Request.Source, first.Request.Offset, first.Note, first.Report)
	}
	if err := os.WriteFile(agents, []byte("# Notes\nUse spaces.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := nextBuild(t, stream, "after the edit")
	if r.Err != nil || r.Request.Index != 2 || r.Report == nil {
		t.Fatalf("after the edit: %+v", r)
	}
	before, after := requestText(first.Request), requestText(r.Request)
	if !strings.Contains(before, "Use tabs.") || !strings.Contains(after, "Use spaces.") || strings.Contains(after, "Use tabs.") {
		t.Fatalf("the rebuild does not hold the edited AGENTS.md:\n%s", after)
	}
	// The time may have changed too: the count of changes is not fixed.
	if !strings.HasPrefix(r.Note, "#2 rebuilt: ") || !strings.HasSuffix(r.Note, " fragment(s) changed, first system; system prompt CHANGED") ||
		r.Report.SystemStable || r.Report.FirstChange != "system" {
		t.Fatalf("after the edit: note %q, report %+v", r.Note, r.Report)
	}
}

// TestWatcherToggle toggles a watched workspace to the isolated layout: the
// rebuild is a first build in that layout, with no workspace text in the
// system prompt, and an edit after it leaves the system prompt intact.
func TestWatcherToggle(t *testing.T) {
	agents, w, _, stream := watchWorkspace(t, LayoutLegacy)
	if l := w.Toggle(); l != LayoutIsolated {
		t.Fatalf("toggle from legacy: %q", l)
	}
	r := nextBuild(t, stream, "after the toggle")
	if r.Err != nil || r.Request.Index != 2 || r.Note != "#2 built isolated layout" || r.Report != nil ||
		!strings.HasSuffix(r.Request.Source, "(isolated)") {
		t.Fatalf("after the toggle: %+v", r)
	}
	for _, s := range r.Request.Segments {
		if s.Channel == wire.ChannelSystem && s.Trust == wire.Untrusted {
			t.Fatalf("isolated rebuild has %s in the system prompt", s.ID)
		}
	}
	if err := os.WriteFile(agents, []byte("# Notes\nUse spaces.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = nextBuild(t, stream, "after the edit")
	if r.Err != nil || r.Report == nil || !r.Report.SystemStable ||
		!strings.HasSuffix(r.Note, "; system prompt byte-identical") || !strings.Contains(requestText(r.Request), "Use spaces.") {
		t.Fatalf("isolated edit: %+v", r)
	}
	if l := w.Toggle(); l != LayoutLegacy {
		t.Fatalf("toggle from isolated: %q", l)
	}
	if r = nextBuild(t, stream, "after the second toggle"); r.Note != "#4 built legacy layout" {
		t.Fatalf("after the second toggle: %+v", r)
	}
}

// TestWatcherReportsAFailedRebuild removes the watched workspace: the
// rebuild fails, and says so on the stream.
func TestWatcherReportsAFailedRebuild(t *testing.T) {
	agents, _, _, stream := watchWorkspace(t, LayoutIsolated)
	if err := os.RemoveAll(filepath.Dir(agents)); err != nil {
		t.Fatal(err)
	}
	r := nextBuild(t, stream, "after the removal")
	if r.Request != nil || r.Err == nil || r.Note != "rebuild failed: "+r.Err.Error() ||
		!strings.Contains(r.Note, "no such directory") {
		t.Fatalf("after the removal: %+v", r)
	}
}

// TestWatcherStopsWithItsContext cancels the context: the stream closes.
func TestWatcherStopsWithItsContext(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "x"})
	w := NewWatcher(dir, nil, LayoutIsolated, wire.FormatAnthropic, WatchOptions{Host: testHost})
	first := w.Build()
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := w.Watch(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case _, ok := <-stream:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("the stream stays open after the context is done")
		}
	}
}

// TestWatcherNothingToWatch builds and watches a workspace that does not
// exist: both fail.
func TestWatcherNothingToWatch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	w := NewWatcher(dir, nil, LayoutIsolated, wire.FormatAnthropic, WatchOptions{})
	if r := w.Build(); r.Err == nil || r.Request != nil || !strings.Contains(r.Err.Error(), "no such directory") {
		t.Fatalf("build of a missing workspace: %+v", r)
	}
	if _, err := w.Watch(context.Background(), Rebuild{}); err == nil || err.Error() != dir+": nothing to watch" {
		t.Fatalf("watch of a missing workspace: %v", err)
	}
}

// TestWatcherCapsWatchedDirs checks the directories watched: every root and
// its subdirectories, but .git, node_modules and target, up to the cap over
// all roots.
func TestWatcherCapsWatchedDirs(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{
		"a/": "", "b/deep/": "", ".git/objects/": "", "node_modules/x/": "", "target/debug/": "", "AGENTS.md": "x",
	})
	extra := writeTree(t, t.TempDir(), map[string]string{"lib/": ""})
	watched := func(limit int) []string {
		t.Helper()
		fw, err := fsnotify.NewWatcher()
		if err != nil {
			t.Fatal(err)
		}
		defer fw.Close()
		n := addDirWatches(fw, []string{ws, extra, filepath.Join(ws, "missing")}, limit)
		list := fw.WatchList()
		if n != len(list) {
			t.Fatalf("addDirWatches says %d, the watcher has %d", n, len(list))
		}
		return list
	}
	if got := watched(maxWatchedDirs); len(got) != 6 {
		t.Fatalf("watched %d directories, want 6 (workspace, a, b, b/deep, extra, extra/lib): %q", len(got), got)
	}
	for _, d := range watched(maxWatchedDirs) {
		d, _ = filepath.Rel(ws, d)
		if strings.Contains(d, ".git") || strings.Contains(d, "node_modules") || strings.Contains(d, "target") {
			t.Fatalf("watched %s", d)
		}
	}
	if got := watched(3); len(got) != 3 {
		t.Fatalf("watched %d directories with a cap of 3: %q", len(got), got)
	}
}
