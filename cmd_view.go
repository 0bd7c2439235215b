package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
)

func init() {
	register(newViewCmd)
}

func newViewCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "view FILE... | -",
		Short: "Open the interactive viewer on recorded requests",
		Long: `view opens recorded model requests in a terminal viewer: the request list, the trusted
system prefix beside the untrusted fragments of the selected request, the content of a
segment with every escape marked and every hazard shown visibly, and the Escapes, Findings,
Cache, Diff and Raw JSON views. Press ? in the viewer for every key.

Long files load in the background: the first request is usable before the last is read.
When standard output is not a terminal, view prints the plain-text report instead (the
segments of each request, the findings and the cache breaks) and exits 0; input problems
still make exit 2.`,
		Example: `  wirelens view session.jsonl
  wirelens session.jsonl
  wirelens build . | wirelens view -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !isTerminal(app.Stdout) || (containsDash(args) && !viewStdinUsable(app)) {
				l := app.Load(args)
				if err := writeViewReport(app.Stdout, l.Requests, terminalWidth(app.Stdout)); err != nil {
					return err
				}
				return app.finish(l.Errors, 0)
			}
			errs := &viewErrors{}
			stream := viewStream(cmd.Context(), app, args, errs)
			err := ui.Run(cmd.Context(), ui.Options{
				Title:    strings.Join(args, " "),
				Stream:   stream,
				Analysis: viewAnalysis(),
				Theme:    app.Theme,
				NoColor:  app.NoColor,
			})
			if err != nil {
				return err
			}
			return app.finish(errs.list, 0)
		},
	}
}

// containsDash reports whether standard input is one of the inputs.
func containsDash(args []string) bool {
	for _, a := range args {
		if a == "-" {
			return true
		}
	}
	return false
}

// viewStdinUsable reports whether the viewer can read payloads from standard
// input and keys from the terminal at the same time (Bubble Tea then opens
// the terminal itself).
func viewStdinUsable(app *App) bool {
	if f, err := os.Open("/dev/tty"); err == nil {
		f.Close()
		return true
	}
	return false
}

// viewErrors collects the input errors met while the viewer loads, to report
// them after it closes.
type viewErrors struct{ list []error }

// viewStream decodes the inputs in a goroutine and streams them to the
// viewer, with the progress through the current file.
func viewStream(ctx context.Context, app *App, args []string, errs *viewErrors) <-chan ui.Item {
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
			app.decode(src, func(r wire.Request, err error) bool {
				it := ui.Item{Progress: -1}
				if err != nil {
					errs.list = append(errs.list, err)
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

// viewAnalysis plugs the audit into the viewer.
func viewAnalysis() ui.Analysis {
	return ui.Analysis{
		Findings: func(reqs []wire.Request) []ui.Finding {
			a := wire.NewAuditor()
			var out []ui.Finding
			for i := range reqs {
				for _, f := range a.Audit(&reqs[i]) {
					out = append(out, ui.Finding{Rule: f.Rule, Severity: string(f.Severity), Request: i,
						Segment: f.Segment, Offset: f.Offset, Excerpt: f.Excerpt, Message: f.Message})
				}
			}
			return out
		},
		FindingsName: "check",
	}
}

// writeViewReport is what view, watch and demo print when standard output
// is not a terminal: the segments of every request (as inspect prints them)
// and the findings of check.
func writeViewReport(w io.Writer, reqs []wire.Request, width int) error {
	if err := writeInspectText(w, reqs, width); err != nil {
		return err
	}
	findings := viewAnalysis().Findings(reqs)
	if len(reqs) > 0 {
		if _, err := fmt.Fprintf(w, "\nfindings: %d\n", len(findings)); err != nil {
			return err
		}
	}
	for _, f := range findings {
		name := reqs[f.Request].Name()
		if _, err := fmt.Fprintf(w, "  %-6s %-20s %s %s @%d: %s\n", f.Severity, f.Rule,
			wire.VisibleLine(name), wire.VisibleLine(f.Segment), f.Offset, wire.VisibleLine(f.Message)); err != nil {
			return err
		}
	}
	return nil
}
