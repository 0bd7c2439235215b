package assemble

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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
	if !strings.HasPrefix(r.Note, "#2 rebuilt: ") || !strings.HasSuffix(r.Note, " fragments changed, first system; system prompt CHANGED") ||
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
		d := &dirWatches{fw: fw, limit: limit}
		n := 0
		for _, root := range []string{ws, extra, filepath.Join(ws, "missing")} {
			n += d.add(root, true)
		}
		list := fw.WatchList()
		if n != len(list) || d.capped != (limit < 6) {
			t.Fatalf("add says %d, the watcher has %d; capped %v", n, len(list), d.capped)
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

// nextRebuild waits for the next item of the stream, whatever it is: a
// build, an unchanged rebuild, a note.
func nextRebuild(t *testing.T, stream <-chan Rebuild, what string) Rebuild {
	t.Helper()
	select {
	case r, ok := <-stream:
		if !ok {
			t.Fatalf("%s: the stream ended", what)
		}
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: nothing on the stream", what)
	}
	return Rebuild{}
}

// watchAgain starts watching with w after its first build.
func watchAgain(t *testing.T, w *Watcher) <-chan Rebuild {
	t.Helper()
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
	if r := nextRebuild(t, stream, "first"); r.Request != first.Request {
		t.Fatalf("the stream starts with %+v", r)
	}
	return stream
}

// TestWatcherDropsClockOnlyRebuilds writes a log file of a watched
// workspace again and again, its first build an hour old: every rebuild is
// unchanged and not counted, though the time on the wire would differ; an
// edit of AGENTS.md after them is build #2, with the new time (LiveClock).
func TestWatcherDropsClockOnlyRebuilds(t *testing.T) {
	for _, layout := range []Layout{LayoutLegacy, LayoutIsolated} {
		t.Run(string(layout), func(t *testing.T) {
			dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "# Notes\nUse tabs.\n", "app.log": "start\n"})
			w := NewWatcher(dir, wire.NewInterner(), layout, wire.FormatAnthropic, WatchOptions{Host: testHost, LiveClock: true})
			w.clock = func() time.Time { return time.Now().Add(-time.Hour) }
			stream := watchAgain(t, w)
			w.mu.Lock()
			w.clock = time.Now
			w.mu.Unlock()
			for i := range 3 {
				if err := os.WriteFile(filepath.Join(dir, "app.log"), []byte(strings.Repeat("line\n", i+2)), 0o644); err != nil {
					t.Fatal(err)
				}
				r := nextRebuild(t, stream, "after the log write")
				if !r.Unchanged || r.Request != nil || r.Err != nil || r.Report != nil ||
					r.Note != "#1 unchanged: only the time would change on the wire" {
					t.Fatalf("after log write %d: %+v", i+1, r)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Notes\nUse spaces.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := nextRebuild(t, stream, "after the edit")
			if r.Unchanged || r.Request == nil || r.Request.Index != 2 || r.Report == nil ||
				!strings.Contains(requestText(r.Request), "Use spaces.") {
				t.Fatalf("after the edit: %+v", r)
			}
			timeChanged := false
			for _, c := range r.Report.Changes {
				timeChanged = timeChanged || (c.Fragment == "time" && c.Status == "changed")
			}
			if !timeChanged {
				t.Fatalf("the rebuild after the edit keeps the old time: %+v", r.Report.Changes)
			}
		})
	}
}

// TestWatcherFreezesTheTime: without LiveClock every build takes the time of
// the first, an hour old, so the rebuild after an AGENTS.md edit changes
// the AGENTS.md text alone: in the legacy layout the system prompt changes
// at AGENTS.md, not at the time; in the isolated one it stays
// byte-identical.
func TestWatcherFreezesTheTime(t *testing.T) {
	for _, layout := range []Layout{LayoutLegacy, LayoutIsolated} {
		t.Run(string(layout), func(t *testing.T) {
			dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "# Notes\nUse tabs.\n"})
			w := NewWatcher(dir, wire.NewInterner(), layout, wire.FormatAnthropic, WatchOptions{Host: testHost})
			w.clock = func() time.Time { return time.Now().Add(-time.Hour) }
			stream := watchAgain(t, w)
			w.mu.Lock()
			w.clock = time.Now
			w.mu.Unlock()
			if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Notes\nUse spaces.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := nextRebuild(t, stream, "after the edit")
			if r.Request == nil || r.Report == nil || !strings.Contains(requestText(r.Request), "Use spaces.") {
				t.Fatalf("after the edit: %+v", r)
			}
			for _, c := range r.Report.Changes {
				if c.Fragment == "time" {
					t.Errorf("the time moved between builds: %+v", c)
				}
			}
			if want := layout == LayoutIsolated; r.Report.SystemStable != want {
				t.Errorf("system prompt stable %v, want %v", r.Report.SystemStable, want)
			}
			if strings.Contains(r.Note, "(s)") || (layout == LayoutIsolated && !strings.Contains(r.Note, "rebuilt: 1 fragment changed,")) {
				t.Errorf("note %q", r.Note)
			}
		})
	}
}

// TestWatcherIgnoresLinkedDirs links a directory outside a watched
// workspace into it, once before Watch starts and once after: neither link
// is watched, and a file written in the outside directory makes no
// rebuild, where one written in the workspace does.
func TestWatcherIgnoresLinkedDirs(t *testing.T) {
	outside := t.TempDir()
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "x", "app.log": ""})
	if err := os.Symlink(outside, filepath.Join(dir, "early")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	w := NewWatcher(dir, wire.NewInterner(), LayoutIsolated, wire.FormatAnthropic, WatchOptions{Host: testHost})
	stream := watchAgain(t, w)
	if err := os.Symlink(outside, filepath.Join(dir, "late")); err != nil {
		t.Fatal(err)
	}
	// The link is in the listing: its rebuild comes after its event.
	if r := nextRebuild(t, stream, "after the link"); r.Request == nil || !strings.Contains(requestText(r.Request), "late -&gt; ") {
		t.Fatalf("after the link: %+v", r)
	}
	list := w.watching.WatchList()
	for _, p := range list {
		if b := filepath.Base(p); b == "early" || b == "late" || strings.HasPrefix(p, outside) {
			t.Fatalf("watched %s: %q", p, list)
		}
	}
	if len(list) != 1 {
		t.Fatalf("watched %q, want the workspace alone", list)
	}
	if err := os.WriteFile(filepath.Join(outside, "new.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-stream:
		t.Fatalf("a write in the linked directory made %+v", r)
	case <-time.After(2 * time.Second):
	}
	if err := os.WriteFile(filepath.Join(dir, "app.log"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := nextRebuild(t, stream, "after the log write"); !r.Unchanged {
		t.Fatalf("after the log write: %+v", r)
	}
}

// TestWatcherCapsDirsCreatedLater lowers the cap to 3 directories on a
// workspace of two and creates more while it is watched: one more is
// watched, the rest are not, and a note says so once; a directory removed
// makes room for the next one created.
func TestWatcherCapsDirsCreatedLater(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "x", "a/": ""})
	w := NewWatcher(dir, wire.NewInterner(), LayoutIsolated, wire.FormatAnthropic, WatchOptions{Host: testHost})
	w.maxDirs = 3
	stream := watchAgain(t, w)
	const capNote = "watch: 3 directories watched, the most there may be: changes in the others are not seen"
	// until waits for the build whose listing shows name, counting the
	// cap notes before it.
	until := func(name string) int {
		t.Helper()
		notes := 0
		for {
			r := nextRebuild(t, stream, "until "+name)
			switch {
			case r.Note == capNote:
				notes++
			case r.Request != nil && strings.Contains(requestText(r.Request), name+"/"):
				return notes
			case r.Request == nil && !r.Unchanged:
				t.Fatalf("until %s: %+v", name, r)
			}
		}
	}
	for _, d := range []string{"later1", "later2", "later3"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	n := until("later3")
	for n == 0 {
		// A build may list the directories before their events are read.
		if r := nextRebuild(t, stream, "the note of the cap"); r.Note == capNote {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d notes of the cap, want 1", n)
	}
	if list := w.watching.WatchList(); len(list) != 3 || !slices.Contains(list, filepath.Join(dir, "a")) {
		t.Fatalf("watched %q, want 3 with a", list)
	}
	if err := os.Mkdir(filepath.Join(dir, "later4"), 0o755); err != nil {
		t.Fatal(err)
	}
	if n := until("later4"); n != 0 {
		t.Fatalf("the cap noted %d times more", n)
	}
	if err := os.Remove(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "later5"), 0o755); err != nil {
		t.Fatal(err)
	}
	until("later5")
	if list := w.watching.WatchList(); len(list) != 3 || !slices.Contains(list, filepath.Join(dir, "later5")) {
		t.Fatalf("watched %q, want 3 with later5", list)
	}
}

// TestWatcherAddsLaterTreesByTheRules adds directories created after the
// first walk the way the watch loop does: a new tree with every directory
// under it, never .git, node_modules or target, never a link.
func TestWatcherAddsLaterTreesByTheRules(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "x"})
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	d := &dirWatches{fw: fw, limit: maxWatchedDirs}
	if n := d.add(ws, true); n != 1 {
		t.Fatalf("the workspace: %d watched", n)
	}
	writeTree(t, ws, map[string]string{"new/deep/er/": "", "new/.git/objects/": "", "node_modules/x/": "", "target/": ""})
	added := d.add(filepath.Join(ws, "new"), false) + d.add(filepath.Join(ws, "node_modules"), false) + d.add(filepath.Join(ws, "target"), false)
	if err := os.Symlink(t.TempDir(), filepath.Join(ws, "link")); err == nil {
		added += d.add(filepath.Join(ws, "link"), false)
	}
	list := fw.WatchList()
	slices.Sort(list)
	want := []string{ws, filepath.Join(ws, "new"), filepath.Join(ws, "new/deep"), filepath.Join(ws, "new/deep/er")}
	if added != 3 || !slices.Equal(list, want) || d.capped {
		t.Fatalf("added %d, watched %q, capped %v; want %q", added, list, d.capped, want)
	}
}
