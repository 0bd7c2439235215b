package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire/provenance"
	"github.com/wirelens/wirelens/wire/scan"
)

// provenanceFlags are --workspace and --home of the commands that read
// requests (inspect, check, cache, context, view, report).
type provenanceFlags struct {
	workspace string
	home      string
	noHome    bool
}

// addProvenanceFlags gives cmd --workspace DIR, --home DIR and --no-home,
// and loads the index before cmd runs (into app.Provenance, which every
// decode of the run uses). HOME's agent files are indexed only with
// --workspace or --home: --home defaults to $HOME when --workspace is given.
func addProvenanceFlags(cmd *cobra.Command, app *App) *provenanceFlags {
	f := &provenanceFlags{}
	fl := cmd.Flags()
	fl.StringVar(&f.workspace, "workspace", "", "judge trust by provenance: text of this workspace's files found on the wire is untrusted, labelled by path")
	fl.StringVar(&f.home, "home", "", "the HOME whose agent files (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ...) are the user's (default with --workspace: $HOME)")
	fl.BoolVar(&f.noHome, "no-home", false, "with --workspace: index no HOME files")
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := app.loadProvenance(f); err != nil {
			return err
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
	return f
}

// loadProvenance builds the index the flags ask for.
func (a *App) loadProvenance(f *provenanceFlags) error {
	if f.workspace == "" && f.home == "" {
		return nil
	}
	// The MCP servers the workspace configures name the tools that are
	// theirs, for every command that reads requests.
	if err := a.useWorkspaceServers(f.workspace); err != nil {
		return err
	}
	home := f.home
	if home == "" && !f.noHome {
		home = os.Getenv("HOME")
	}
	if f.noHome {
		home = ""
	}
	if f.home != "" {
		if st, err := os.Stat(f.home); err != nil || !st.IsDir() {
			return usageError("--home: %s: not a directory", scan.VisibleLine(f.home))
		}
	}
	opts := provenance.Options{Home: home}
	if f.workspace != "" {
		opts.Skip = assemble.Ignorer(f.workspace)
	}
	x, err := provenance.Build(f.workspace, opts)
	if err != nil {
		return usageError("--workspace: %s", scan.VisibleLine(err.Error()))
	}
	for _, n := range x.Notes {
		fmt.Fprintf(a.Stderr, "wirelens: note: %s\n", scan.VisibleLine(n))
	}
	a.Provenance = x
	return nil
}
