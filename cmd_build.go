package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newBuildCmd) }

// buildFlags are the flags of `wirelens build`.
type buildFlags struct {
	layout, api, now, system, message, model, escape string
	addDirs, skillsDirs, skills                      []string
}

func newBuildCmd(app *App) *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "build [DIR]",
		Short: "Print one request assembled from workspace DIR, as the provider's JSON",
		Long: `build reads workspace DIR (default ".") the way a coding agent does (the AGENTS.md chain up
to the repository root, a directory listing, the additional directories, the skills) and prints
the request it would send, as the JSON body of --api.

--layout legacy renders the workspace into the system prompt, the time in the middle of it (the
wire before the trust-boundary fix); --layout isolated (the default) keeps the system prompt to
host rules and host facts and sends the time and the workspace as user fragments in
<untrusted_*> envelopes, sanitised and escaped (--escape). The same inputs give the same bytes;
fix the time with --now. Nothing outside DIR (and, for AGENTS.md, the repository root) is read,
and nothing is written.`,
		Example: `  wirelens build testdata/workspaces/poisoned --now 2026-11-29T22:08:44Z
  wirelens build . --layout legacy --api openai-chat | wirelens inspect -
  wirelens build . --skill deploy --escape targeted`,
		Args: atMostOneDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			out, warnings, err := runBuild(dir, f)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(app.Stderr, "wirelens: warning: "+scan.VisibleLine(w))
			}
			_, err = app.Stdout.Write(out)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.layout, "layout", string(assemble.LayoutIsolated), "layout: isolated (workspace in user fragments) or legacy (workspace in the system prompt)")
	fl.StringVar(&f.api, "api", string(wire.FormatAnthropic), "provider API of the JSON: anthropic, openai-chat, openai-responses or gemini")
	fl.StringVar(&f.now, "now", "", "the time of the request, RFC 3339 (default: the clock)")
	fl.StringArrayVar(&f.addDirs, "add-dir", nil, "an additional directory in scope (repeatable)")
	fl.StringArrayVar(&f.skillsDirs, "skills-dir", nil, "a directory of skills NAME/SKILL.md (repeatable)")
	fl.StringVar(&f.system, "system", "", "a host system-prompt template (variables ${KIMI_OS}, ${KIMI_SHELL}, ${KIMI_WORK_DIR}, and for the legacy layout ${KIMI_NOW}, ${KIMI_WORK_DIR_LS}, ${KIMI_ADDITIONAL_DIRS_INFO}, ${KIMI_AGENTS_MD}, ${KIMI_SKILLS})")
	fl.StringVar(&f.message, "message", assemble.DefaultMessage, "the user's message")
	fl.StringVar(&f.model, "model", assemble.DefaultModel, "the model named in the request")
	fl.StringVar(&f.escape, "escape", string(assemble.EscapeEntities), "escaping of envelope bodies: entities (every &, <, >) or targeted (only reserved tags)")
	fl.StringArrayVar(&f.skills, "skill", nil, "the skill NAME the user activates (repeatable)")
	return cmd
}

// runBuild assembles the request and encodes it. Errors are one line.
func runBuild(dir string, f buildFlags) ([]byte, []string, error) {
	res, warnings, err := assembleRequest(dir, f)
	if err != nil {
		return nil, nil, err
	}
	out, err := encode.Encode(res.Request, res.Request.Format)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	return out, warnings, nil
}

// assembleRequest checks the flags, collects the workspace and binds the
// request. The warnings are the collect notes and the template warnings.
func assembleRequest(dir string, f buildFlags) (*assemble.Result, []string, error) {
	layout := assemble.Layout(f.layout)
	if layout != assemble.LayoutIsolated && layout != assemble.LayoutLegacy {
		return nil, nil, usageError("--layout must be isolated or legacy, not %q", f.layout)
	}
	api := wire.Format(f.api)
	known := false
	for _, a := range encode.Formats {
		known = known || a == api
	}
	if !known {
		return nil, nil, usageError("--api must be anthropic, openai-chat, openai-responses or gemini, not %q", f.api)
	}
	mode := assemble.EscapeMode(f.escape)
	if mode != assemble.EscapeEntities && mode != assemble.EscapeTargeted {
		return nil, nil, usageError("--escape must be entities or targeted, not %q", f.escape)
	}
	now := time.Now().UTC().Truncate(time.Second)
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			return nil, nil, usageError("--now %q: not an RFC 3339 time (like 2026-11-29T22:08:44Z)", f.now)
		}
		now = t
	}
	cfg := assemble.Config{Layout: layout, API: api, Model: f.model, Escape: mode, Message: f.message,
		Skills: f.skills, Host: hostFacts()}
	if f.system != "" {
		data, err := readTemplate(f.system)
		if err != nil {
			return nil, nil, usageError("--system %s: %s", f.system, osErrorText(err))
		}
		cfg.Template = assemble.Template{Name: f.system, Text: strings.ToValidUTF8(string(data), "\uFFFD")}
		if cfg.Template.Text == "" {
			return nil, nil, usageError("--system %s: empty template", f.system)
		}
	}
	in, closeIn, err := assemble.OpenInput(dir, f.addDirs, f.skillsDirs, now)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	defer closeIn()
	b, err := assemble.Collect(in)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	res, err := assemble.Bind(b, cfg)
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	warnings := append(append([]string{}, b.Notes...), res.Warnings...)
	return res, warnings, nil
}

// hostFacts is the host facts of this machine.
func hostFacts() assemble.Host {
	shell := filepath.Base(os.Getenv("SHELL"))
	if shell == "." || shell == "/" || shell == "" {
		shell = "sh"
	}
	return assemble.Host{OS: runtime.GOOS, Shell: shell}
}

// maxTemplateBytes is the most `build --system` reads of a template: host
// system prompts are tens of kilobytes.
const maxTemplateBytes = 1 << 20

// readTemplate reads the --system template, a regular file of at most
// maxTemplateBytes (wire.OpenInput: /dev/zero or a pipe is refused, not
// read without end).
func readTemplate(path string) ([]byte, error) {
	f, err := wire.OpenInput(path, maxTemplateBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func osErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}
