package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/encode"
)

func init() {
	register(newViewCmd)
	register(newWatchCmd)
}

func newViewCmd(app *App) *cobra.Command {
	var separate, follow bool
	cmd := &cobra.Command{
		Use:         "view FILE... | -",
		Annotations: map[string]string{globalsAnnotation: viewerGlobals},
		Short:       "Open the interactive viewer on recorded requests",
		Long: `view opens recorded model requests in a terminal viewer: the request list, the trusted
system prefix beside the untrusted fragments of the selected request, the content of a
segment with every escape marked and every hazard shown visibly, and the Escapes, Findings,
Cache, Diff and Raw JSON views. Press ? in the viewer for every key.

Long files load in the background: the first request is usable before the last is read.
All FILE arguments form one sequence for the prompt cache, in the order given, as in
"wirelens cache FILE...": each request is compared with the last earlier request of its
model, whatever file it came from. With --separate each FILE is a sequence of its own.

When standard output is not a terminal, view prints the plain-text report instead (what
inspect, check and cache print for the same files) and exits 0; input problems still make
exit 2.

With --follow FILE the viewer follows a file that is still being written (a capture of
"wirelens proxy" or "record", an agent's session): requests appear as their lines are
written, and the selection follows the newest.`,
		Example: `  wirelens view session.jsonl
  wirelens session.jsonl
  wirelens build . | wirelens view -
  wirelens view --follow capture.jsonl`,
		Args: needInputs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if containsDash(args) && isTerminal(app.Stdin) {
				return errStdinTerminal
			}
			if follow {
				if len(args) != 1 || args[0] == "-" {
					return usageError("--follow takes one file")
				}
				if isTerminal(app.Stdout) {
					return viewFollow(cmd.Context(), app, args[0], args[0], ui.Options{})
				}
			}
			if !isTerminal(app.Stdout) || (containsDash(args) && !ttyUsable(app)) {
				l := app.Load(args)
				if err := writeViewReport(app.Stdout, l.Requests, reportWidth(app.Stdout), separate); err != nil {
					return err
				}
				return app.finish(l.Errors, 0)
			}
			opts := ui.Options{Analysis: ui.DefaultAnalysis()}
			if separate {
				opts.Analysis.Cache = ui.CompareBySource
			}
			return viewInputs(cmd.Context(), app, args, opts)
		},
	}
	cmd.Flags().BoolVar(&separate, "separate", false, "each FILE its own prompt-cache sequence (by default all FILEs are one, as in cache)")
	cmd.Flags().BoolVar(&follow, "follow", false, "follow FILE as it grows (a capture being recorded)")
	addProvenanceFlags(cmd, app)
	return cmd
}

// viewInputs opens the viewer on the inputs as they decode, and returns
// when the user quits, at once: a decoder that waits on input (a FIFO no
// one writes to, a pipe that hangs) is stopped where it can be and left
// behind where it cannot, never waited for. The input errors reported are
// those met before the viewer closed. plumbing holds the viewer's program
// plumbing (tests) and its analyses (the default ones when none is given);
// the rest of the options are set here.
func viewInputs(ctx context.Context, app *App, args []string, plumbing ui.Options) error {
	errs := &streamErrors{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := plumbing
	opts.Title = strings.Join(args, " ")
	opts.Stream = streamInputs(ctx, app, args, errs)
	if opts.Analysis.Cache == nil {
		opts.Analysis = ui.DefaultAnalysis()
	}
	opts.Theme, opts.NoColor, opts.Export = app.Theme, app.NoColor, viewerExport()
	err := ui.Run(ctx, opts)
	cancel()
	if err != nil {
		return err
	}
	return app.finish(errs.take(), 0)
}

// errStdinTerminal is what view says when "-" names standard input and
// standard input is the terminal: the keys typed there are not a payload, and
// the viewer reading them both as keys and as input would answer to neither.
var errStdinTerminal = usageError(`standard input is a terminal, not a payload: pipe one in ("wirelens build . | wirelens view -") or name a file`)

// containsDash reports whether standard input is one of the inputs.
func containsDash(args []string) bool {
	for _, a := range args {
		if a == "-" {
			return true
		}
	}
	return false
}

// ttyUsable reports whether the viewer can read payloads from standard
// input and keys from the terminal at the same time (Bubble Tea then opens
// the terminal itself).
func ttyUsable(app *App) bool {
	if f, err := os.Open("/dev/tty"); err == nil {
		f.Close()
		return true
	}
	return false
}

// streamErrors collects the input errors met while the viewer loads, to report
// them after it closes. The decoder adds to it while the viewer runs.
type streamErrors struct {
	mu     sync.Mutex
	list   []error
	closed bool
}

// add records an error met before take.
func (e *streamErrors) add(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.list = append(e.list, err)
	}
}

// take returns the errors met so far; later ones are dropped.
func (e *streamErrors) take() []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return e.list
}

// streamInputs decodes the inputs in a goroutine and streams them to the
// viewer, with the progress through the current file, until ctx ends.
func streamInputs(ctx context.Context, app *App, args []string, errs *streamErrors) <-chan ui.Item {
	ch := make(chan ui.Item, 64)
	go func() {
		defer close(ch)
		for n, src := range args {
			var size int64
			if src != "-" {
				if st, err := os.Stat(src); err == nil && !st.IsDir() {
					size = st.Size()
				}
			}
			stop := false
			app.decodeContext(ctx, src, func(r wire.Request, err error) bool {
				if ctx.Err() != nil {
					// A read the viewer's closing ended: not an input error.
					stop = true
					return false
				}
				it := ui.Item{Progress: -1}
				if err != nil {
					errs.add(err)
					it.Err = err
				} else {
					req := r
					it.Req = &req
					if size > 0 && r.Offset >= 0 {
						done := float64(r.Offset+r.Length) / float64(size)
						it.Progress = (float64(n) + min(1, done)) / float64(len(args))
					}
				}
				select {
				case ch <- it:
					return true
				case <-ctx.Done():
					stop = true
					return false
				}
			})
			if stop {
				return
			}
		}
	}()
	return ch
}

// writeViewReport is what view and watch print when standard output is not
// a terminal: what inspect, check and cache print for the same requests,
// all of them one cache sequence as in the viewer (each source its own with
// separate, as view --separate), every line wrapped to width (a table cut
// to it) with its indent kept.
func writeViewReport(w io.Writer, reqs []wire.Request, width int, separate bool) error {
	var b strings.Builder
	err := writeViewReportLines(&b, reqs, width, separate)
	if _, werr := io.WriteString(w, wrapReport(b.String(), width)); err == nil {
		err = werr
	}
	return err
}

// writeViewReportLines writes the view report, its lines not yet wrapped.
func writeViewReportLines(w io.Writer, reqs []wire.Request, width int, separate bool) error {
	if err := writeInspectText(w, reqs, width); err != nil || len(reqs) == 0 {
		return err
	}
	aud := audit.New()
	res := &checkResult{}
	for i := range reqs {
		res.audit(aud, &reqs[i])
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	if err := writeCheckText(w, res, termText{}); err != nil {
		return err
	}
	for lo := 0; lo < len(reqs); {
		hi := lo + 1
		for hi < len(reqs) && (!separate || reqs[hi].Source == reqs[lo].Source) {
			hi++
		}
		// A source of one request has nothing to compare: that is said
		// only when it is the whole input.
		if hi-lo > 1 || hi-lo == len(reqs) {
			steps, sum := diff.Analyze(reqs[lo:hi])
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
			if err := writeCacheText(w, steps, sum, width, localeUnicode()); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

func newWatchCmd(app *App) *cobra.Command {
	var (
		layout, api         string
		addDirs, skillsDirs []string
		liveClock           bool
	)
	cmd := &cobra.Command{
		Use:         "watch [DIR]",
		Annotations: map[string]string{globalsAnnotation: themeGlobals},
		Short:       "Open the viewer on a request built live from workspace DIR, rebuilt on change",
		Long: `watch builds the request an agent would send from workspace DIR (default ".") and opens
the viewer on it. Whenever a file in the workspace changes, the request is built again and
appended as a new request, so the Cache and Diff views show what the change did to the
prompt-cache prefix. L toggles the layout between isolated and legacy (the header names
it): edit one line of AGENTS.md and the legacy prefix breaks at AGENTS.md, mid-system,
while the isolated system prompt stays byte-identical. Every rebuild takes the time of the
first build, so that it shows the edit and not the clock; --live-clock gives each rebuild
the clock's time instead.

A rebuild that would change nothing but the time is dropped, and the viewer keeps the last
100 rebuilds. Symbolic links are never followed, and at most 2,000 directories are watched,
those created later included.

When standard output is not a terminal, watch prints the report of one build and exits 0.`,
		Example: `  wirelens watch
  wirelens watch ~/src/project --layout legacy`,
		Args: atMostOneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			switch assemble.Layout(layout) {
			case assemble.LayoutIsolated, assemble.LayoutLegacy:
			default:
				return usageError("--layout must be isolated or legacy, not %q", layout)
			}
			known := false
			for _, a := range encode.Formats {
				known = known || a == wire.Format(api)
			}
			if !known {
				return usageError("--api must be anthropic, openai-chat, openai-responses or gemini, not %q", api)
			}
			w := newWatcher(app, dir, assemble.Layout(layout), wire.Format(api), addDirs, skillsDirs, liveClock)
			first := w.Build()
			if first.Err != nil {
				return usageError("%v", first.Err)
			}
			if !isTerminal(app.Stdout) {
				return writeViewReport(app.Stdout, []wire.Request{*first.Request}, reportWidth(app.Stdout), false)
			}
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			rebuilds, err := w.Watch(ctx, first)
			if err != nil {
				return usageError("%v", err)
			}
			return ui.Run(ctx, ui.Options{
				Title:    "watch " + dir,
				Stream:   watchStream(ctx, rebuilds),
				Analysis: ui.DefaultAnalysis(),
				Theme:    app.Theme,
				NoColor:  app.NoColor,
				Toggle:   func() (string, error) { return string(w.Toggle()), nil },
				Layout:   layout,
				Labels:   watchLabels(dir),
				Live:     true,
				Export:   viewerExport(),
			})
		},
	}
	cmd.Flags().StringVar(&layout, "layout", "isolated", "layout to build: isolated or legacy (L toggles it in the viewer)")
	cmd.Flags().StringVar(&api, "api", "anthropic", "API to build for: anthropic, openai-chat, openai-responses or gemini")
	cmd.Flags().StringArrayVar(&addDirs, "add-dir", nil, "an additional directory the agent may use (repeatable)")
	cmd.Flags().StringArrayVar(&skillsDirs, "skills-dir", nil, "a directory of skills as NAME/SKILL.md (repeatable)")
	cmd.Flags().BoolVar(&liveClock, "live-clock", false, "give each rebuild the time of the clock (default: the time of the first build, so that a rebuild shows what the workspace change did, not the clock)")
	return cmd
}

// newWatcher is the watcher of the watch command: it builds with the host
// facts that build uses.
func newWatcher(app *App, dir string, layout assemble.Layout, api wire.Format, addDirs, skillsDirs []string, liveClock bool) *assemble.Watcher {
	return assemble.NewWatcher(dir, app.In, layout, api,
		assemble.WatchOptions{AddDirs: addDirs, SkillsDirs: skillsDirs, Host: hostFacts(), LiveClock: liveClock})
}

// watchStream passes a watcher's builds and notes to the viewer; an
// unchanged rebuild (only the time moved) is dropped, note and all, so a
// log file written in the workspace does nothing.
func watchStream(ctx context.Context, rebuilds <-chan assemble.Rebuild) <-chan ui.Item {
	ch := make(chan ui.Item, 16)
	go func() {
		defer close(ch)
		for r := range rebuilds {
			if r.Unchanged {
				continue
			}
			select {
			case ch <- ui.Item{Req: r.Request, Note: r.Note, Progress: -1}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// watchLabels name the requests watch builds in dir by their layout, as
// the demo's are: L toggles it, and each build keeps the label of its own.
func watchLabels(dir string) map[string]string {
	return map[string]string{assemble.WatchSource(dir, assemble.LayoutLegacy): "LEGACY",
		assemble.WatchSource(dir, assemble.LayoutIsolated): "ISOLATED"}
}

// demoOptions opens the viewer on the demo: the poisoned workspace built
// in the legacy and the isolated layout, each twice (a minute apart, around
// a one-line AGENTS.md edit: demoSequence), the first build of each marked
// for the side-by-side diff, with the guided tour's first-screen hint.
func demoOptions(app *App) (ui.Options, error) {
	reqs, err := demoSequence()
	if err != nil {
		return ui.Options{}, fmt.Errorf("demo: %v", err)
	}
	return ui.Options{
		Title:    "demo: poisoned workspace, legacy vs isolated",
		Requests: reqs,
		// The two layouts are apart: an isolated request is no
		// continuation of a legacy one.
		Analysis: ui.Analysis{Findings: ui.DefaultAnalysis().Findings, Cache: ui.CompareBySource},
		Theme:    app.Theme,
		NoColor:  app.NoColor,
		Tour:     true,
		Labels:   map[string]string{demoLegacySource: "LEGACY", demoIsolatedSource: "ISOLATED"},
		Marks:    []int{0, 2},
		Export:   viewerExport(),
	}, nil
}

// openDemo is what `wirelens demo` runs on a terminal.
func openDemo(ctx context.Context, app *App) error {
	opts, err := demoOptions(app)
	if err != nil {
		return err
	}
	return ui.Run(ctx, opts)
}
