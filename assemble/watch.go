package assemble

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wirelens/wirelens/wire"
)

// debounce is how long a Watcher waits after the last change before it
// rebuilds.
const debounce = 300 * time.Millisecond

// maxWatchedDirs caps the directories a Watcher watches (fsnotify watches
// one directory at a time).
const maxWatchedDirs = 2000

// WatchOptions are what a Watcher's builds need besides the workspace, the
// interner, the layout and the API.
type WatchOptions struct {
	// AddDirs are the additional directories (--add-dir) and SkillsDirs the
	// directories of skills (--skills-dir); both are watched too.
	AddDirs, SkillsDirs []string
	// Host is the host facts of the machine.
	Host Host
}

// Rebuild is one build of a Watcher, or a problem met while watching.
type Rebuild struct {
	// Request is the request built; nil when Err is set.
	Request *wire.Request
	// Report says what changed since the build before, when both are in the
	// same layout and API; nil otherwise.
	Report *RefreshReport
	// Note says in one line what happened: "#2 rebuilt: 1 fragment(s)
	// changed, ...", "#1 built legacy layout", "rebuild failed: ...",
	// "watch: ..." (the file watcher's error).
	Note string
	// Err is why the build failed, or the file watcher's error.
	Err error
}

// Watcher builds the request an agent would send from a workspace, and
// builds it again after each change in the workspace and after each layout
// toggle. Its methods may be called from any goroutine.
type Watcher struct {
	dir  string
	in   *wire.Interner
	api  wire.Format
	opts WatchOptions

	mu     sync.Mutex
	layout Layout
	prev   *Result
	count  int
	kick   chan struct{} // set by Watch: asks the watch loop for a rebuild
}

// NewWatcher returns a Watcher of the workspace dir that builds for layout
// and api, with its text in in.
func NewWatcher(dir string, in *wire.Interner, layout Layout, api wire.Format, opts WatchOptions) *Watcher {
	return &Watcher{dir: dir, in: in, api: api, opts: opts, layout: layout}
}

// Build collects and binds the workspace once more and says what changed.
// The requests it builds are numbered from 1 (Index) and name the workspace
// and the layout (Source). On failure only Err is set.
func (w *Watcher) Build() Rebuild {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now().UTC().Truncate(time.Second)
	in, closeIn, err := OpenInput(w.dir, w.opts.AddDirs, w.opts.SkillsDirs, now)
	if err != nil {
		return Rebuild{Err: err}
	}
	defer closeIn()
	cfg := Config{Layout: w.layout, API: w.api, Interner: w.in, Host: w.opts.Host}
	var (
		res  *Result
		rep  *RefreshReport
		note string
	)
	if w.prev != nil && w.prev.Request.Format == w.api {
		res, rep, err = Refresh(w.prev, in, cfg)
		if err == nil {
			note = rebuildNote(rep)
		}
	} else {
		var b *Baseline
		b, err = Collect(in)
		if err == nil {
			res, err = Bind(b, cfg)
		}
	}
	if err != nil {
		return Rebuild{Err: err}
	}
	w.count++
	w.prev = res
	r := res.Request
	r.Source = w.dir + " (" + string(w.layout) + ")"
	r.Index = w.count
	r.Offset = -1
	if note == "" {
		note = "built " + string(w.layout) + " layout"
	}
	return Rebuild{Request: &r, Report: rep, Note: "#" + fmt.Sprint(w.count) + " " + note}
}

// rebuildNote says in one line what a refresh changed.
func rebuildNote(rep *RefreshReport) string {
	if rep == nil || len(rep.Changes) == 0 {
		return "rebuilt: nothing changed on the wire"
	}
	s := fmt.Sprintf("rebuilt: %d fragment(s) changed, first %s", len(rep.Changes), rep.FirstChange)
	if rep.SystemStable {
		s += "; system prompt byte-identical"
	} else {
		s += "; system prompt CHANGED"
	}
	return s
}

// Toggle switches the layout between legacy and isolated, returns the new
// one and asks the watch loop (if Watch runs) for a rebuild in it.
func (w *Watcher) Toggle() Layout {
	w.mu.Lock()
	if w.layout == LayoutLegacy {
		w.layout = LayoutIsolated
	} else {
		w.layout = LayoutLegacy
	}
	l := w.layout
	w.prev = nil
	kick := w.kick
	w.mu.Unlock()
	select {
	case kick <- struct{}{}:
	default:
	}
	return l
}

// Watch watches the workspace, the additional directories and the skills
// directories (each with its subdirectories, but .git, node_modules and
// target, up to maxWatchedDirs in all). It emits first, then a rebuild after
// each burst of changes (debounced) and after each layout toggle, and the
// file watcher's errors. The channel is closed when ctx is done. Watch fails
// when there is no directory to watch.
func (w *Watcher) Watch(ctx context.Context, first Rebuild) (<-chan Rebuild, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	roots := append(append([]string{w.dir}, w.opts.AddDirs...), w.opts.SkillsDirs...)
	if addDirWatches(fw, roots, maxWatchedDirs) == 0 {
		fw.Close()
		return nil, fmt.Errorf("%s: nothing to watch", w.dir)
	}
	w.mu.Lock()
	w.kick = make(chan struct{}, 1)
	kick := w.kick
	w.mu.Unlock()
	ch := make(chan Rebuild, 16)
	go func() {
		defer close(ch)
		defer fw.Close()
		send := func(r Rebuild) bool {
			select {
			case ch <- r:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if !send(first) {
			return
		}
		var timer <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						_ = fw.Add(ev.Name)
					}
				}
				timer = time.After(debounce)
			case err, ok := <-fw.Errors:
				if !ok {
					return
				}
				if !send(Rebuild{Note: "watch: " + err.Error(), Err: err}) {
					return
				}
			case <-kick:
				timer = time.After(0)
			case <-timer:
				timer = nil
				r := w.Build()
				if r.Err != nil {
					r.Note = "rebuild failed: " + r.Err.Error()
				}
				if !send(r) {
					return
				}
			}
		}
	}()
	return ch, nil
}

// addDirWatches adds each root and the directories under it to fw, skipping
// .git, node_modules and target below a root, until limit directories
// are watched in all. It returns how many were added.
func addDirWatches(fw *fsnotify.Watcher, roots []string, limit int) int {
	n := 0
	for _, d := range roots {
		root, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if p != root && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "target") {
				return filepath.SkipDir
			}
			if n >= limit {
				return filepath.SkipAll
			}
			if fw.Add(p) == nil {
				n++
			}
			return nil
		})
	}
	return n
}
