package assemble

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wirelens/wirelens/wire"
)

// debounce is how long a Watcher waits after the last change before it
// rebuilds.
const debounce = 300 * time.Millisecond

// maxWatchedDirs caps the directories a Watcher watches at any time, those
// created while it runs included (fsnotify watches one directory at a time).
const maxWatchedDirs = 2000

// WatchOptions are what a Watcher's builds need besides the workspace, the
// interner, the layout and the API.
type WatchOptions struct {
	// AddDirs are the additional directories (--add-dir) and SkillsDirs the
	// directories of skills (--skills-dir); both are watched too.
	AddDirs, SkillsDirs []string
	// Host is the host facts of the machine.
	Host Host
	// LiveClock makes each build take the time of the clock. Without it
	// every build takes the time of the first, so that what a rebuild shows
	// is what the workspace change did, not the clock (which breaks the
	// legacy layout's prefix at every build).
	LiveClock bool
}

// Rebuild is one build of a Watcher, or a problem met while watching.
type Rebuild struct {
	// Request is the request built; nil when Err is set.
	Request *wire.Request
	// Report says what changed since the build before, when both are in the
	// same layout and API; nil otherwise.
	Report *RefreshReport
	// Note says in one line what happened: "#2 rebuilt: 1 fragment
	// changed, ...", "#1 built legacy layout", "#2 unchanged: ...",
	// "rebuild failed: ...", "watch: ..." (the file watcher's error, or the
	// directory cap reached).
	Note string
	// Err is why the build failed, or the file watcher's error.
	Err error
	// Unchanged is set when the workspace was read again and the request
	// came out as the one built before, its time aside: Request is nil and
	// the build is not counted. A log file written in the workspace makes
	// only such rebuilds, which a viewer drops.
	Unchanged bool
}

// Watcher builds the request an agent would send from a workspace, and
// builds it again after each change in the workspace and after each layout
// toggle. Its methods may be called from any goroutine.
type Watcher struct {
	dir  string
	in   *wire.Interner
	api  wire.Format
	opts WatchOptions

	// clock is the time of a build (tests set it); maxDirs caps the
	// directories watched (maxWatchedDirs; tests lower it).
	clock   func() time.Time
	maxDirs int

	mu     sync.Mutex
	layout Layout
	prev   *Result
	// base is the baseline prev was bound from, its time cleared: a
	// workspace that collects to the same baseline binds to the same
	// request but for the time.
	base       Baseline
	prevLayout Layout // the layout prev was bound in
	count      int
	frozen     time.Time     // the time of the first build (without LiveClock)
	kick       chan struct{} // set by Watch: asks the watch loop for a rebuild
	// watching is the file watcher of Watch (tests read its list).
	watching *fsnotify.Watcher
}

// NewWatcher returns a Watcher of the workspace dir that builds for layout
// and api, with its text in in.
func NewWatcher(dir string, in *wire.Interner, layout Layout, api wire.Format, opts WatchOptions) *Watcher {
	return &Watcher{dir: dir, in: in, api: api, opts: opts, layout: layout, clock: time.Now, maxDirs: maxWatchedDirs}
}

// Build collects and binds the workspace once more and says what changed.
// The requests it builds are numbered from 1 (Index) and name the workspace
// and the layout (Source). A rebuild that would change nothing but the
// time is not built: it is Unchanged. On failure only Err is set.
func (w *Watcher) Build() Rebuild {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clock().UTC().Truncate(time.Second)
	if !w.opts.LiveClock {
		if w.frozen.IsZero() {
			w.frozen = now
		}
		now = w.frozen
	}
	in, closeIn, err := OpenInput(w.dir, w.opts.AddDirs, w.opts.SkillsDirs, now)
	if err != nil {
		return Rebuild{Err: err}
	}
	defer closeIn()
	cfg := Config{Layout: w.layout, API: w.api, Interner: w.in, Host: w.opts.Host}
	b, err := Collect(in)
	if err != nil {
		return Rebuild{Err: err}
	}
	refresh := w.prev != nil && w.prev.Request.Format == w.api
	if refresh && w.prevLayout == w.layout && sameBaseline(b, &w.base) {
		return Rebuild{Unchanged: true, Note: "#" + fmt.Sprint(w.count) + " unchanged: only the time would change on the wire"}
	}
	res, err := Bind(b, cfg)
	if err != nil {
		return Rebuild{Err: err}
	}
	var (
		rep  *RefreshReport
		note = "built " + string(w.layout) + " layout"
	)
	if refresh {
		rep = Compare(w.prev, res)
		note = rebuildNote(rep)
	}
	w.count++
	w.prev, w.prevLayout, w.base = res, w.layout, *b
	w.base.Now = time.Time{}
	r := res.Request
	r.Source = WatchSource(w.dir, w.layout)
	r.Index = w.count
	r.Offset = -1
	return Rebuild{Request: &r, Report: rep, Note: "#" + fmt.Sprint(w.count) + " " + note}
}

// sameBaseline reports whether b is the baseline before but for its time:
// then Bind would give the request before with only the clock moved, and
// nothing needs binding.
func sameBaseline(b, before *Baseline) bool {
	now := *b
	now.Now = time.Time{}
	return reflect.DeepEqual(&now, before)
}

// rebuildNote says in one line what a refresh changed.
func rebuildNote(rep *RefreshReport) string {
	if rep == nil || len(rep.Changes) == 0 {
		return "rebuilt: nothing changed on the wire"
	}
	s := fmt.Sprintf("rebuilt: %s changed, first %s", fragmentCount(len(rep.Changes)), rep.FirstChange)
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
// directories (each with its subdirectories, those created later included,
// but .git, node_modules and target and never through a symbolic link, up
// to maxWatchedDirs in all). It emits first, then a rebuild after each burst
// of changes (debounced) and after each layout toggle, the file watcher's
// errors, and a note the first time the directory cap leaves a directory
// out. The channel is closed when ctx is done. Watch fails when there is no
// directory to watch.
func (w *Watcher) Watch(ctx context.Context, first Rebuild) (<-chan Rebuild, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	dirs := &dirWatches{fw: fw, limit: w.maxDirs}
	n := 0
	for _, root := range append(append([]string{w.dir}, w.opts.AddDirs...), w.opts.SkillsDirs...) {
		n += dirs.add(root, true)
	}
	if n == 0 {
		fw.Close()
		return nil, fmt.Errorf("%s: nothing to watch", w.dir)
	}
	w.mu.Lock()
	w.kick = make(chan struct{}, 1)
	kick := w.kick
	w.watching = fw
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
		// noteCap says once that the cap left a directory out.
		noted := false
		noteCap := func() bool {
			if !dirs.capped || noted {
				return true
			}
			noted = true
			return send(Rebuild{Note: fmt.Sprintf("watch: %d directories watched, the most there may be: changes in the others are not seen", dirs.limit)})
		}
		if !send(first) || !noteCap() {
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
					// Lstat: a link to a directory is not one.
					if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
						dirs.add(ev.Name, false)
						if !noteCap() {
							return
						}
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

// dirWatches adds directories to a file watcher by the rules of Watch.
type dirWatches struct {
	fw *fsnotify.Watcher
	// limit caps the directories watched at once; capped is set once a
	// directory was left out for it.
	limit  int
	capped bool
}

// add watches dir and the directories under it, skipping .git,
// node_modules and target below a root (dir is one when root is set; a
// directory created later is not) and every symbolic link, until limit
// directories are watched in all (a directory removed since stops
// counting). It returns how many were added.
func (d *dirWatches) add(dir string, root bool) int {
	top, err := filepath.Abs(dir)
	if err != nil {
		return 0
	}
	watched := len(d.fw.WatchList())
	n := 0
	_ = filepath.WalkDir(top, func(p string, e fs.DirEntry, err error) error {
		// WalkDir lists links as links: a link to a directory is no
		// directory here, and nothing is walked through it.
		if err != nil || !e.IsDir() {
			return nil
		}
		if (p != top || !root) && (e.Name() == ".git" || e.Name() == "node_modules" || e.Name() == "target") {
			return filepath.SkipDir
		}
		if watched+n >= d.limit {
			d.capped = true
			return filepath.SkipAll
		}
		if d.addDir(p) {
			n++
		}
		return nil
	})
	return n
}

// addDir watches the directory p. fsnotify follows a link, so p is looked
// at again once watched: if a link took its place meanwhile, the watch goes.
func (d *dirWatches) addDir(p string) bool {
	if d.fw.Add(p) != nil {
		return false
	}
	if st, err := os.Lstat(p); err != nil || !st.IsDir() {
		_ = d.fw.Remove(p)
		return false
	}
	return true
}

// WatchSource is the Source of the requests a Watcher of dir builds in
// layout l: the workspace and the layout.
func WatchSource(dir string, l Layout) string { return dir + " (" + string(l) + ")" }
