// Command wirelens shows what a coding agent really sends to its model: the
// trusted system prefix, the untrusted workspace fragments, the escapes
// applied, the hazards left, and where the prompt-cache prefix breaks.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/provenance"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// programVersion is version, or "devel" for a build that did not set it.
func programVersion() string {
	if version == "" {
		return "devel"
	}
	return version
}

// App is what every command shares: the global flags, the standard streams
// and the interner that holds each distinct text once across all inputs.
type App struct {
	Format  string // --format
	Theme   string // --theme
	NoColor bool   // --no-color or NO_COLOR

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	In *wire.Interner
	// Provenance judges every request decoded by where its text came from
	// (--workspace, --home); nil without them.
	Provenance *provenance.Index

	// ToolServers are the MCP servers a --workspace configures: a tool
	// named after one is that server's (classify.MarkTools).
	ToolServers []string
}

// ExitError ends the program with Code. Msg, when set, is printed as one
// "wirelens: ..." line on standard error.
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

// usageError is exit code 2 with a message.
func usageError(format string, args ...any) error {
	return &ExitError{Code: 2, Msg: fmt.Sprintf(format, args...)}
}

// commandMakers are registered by the cmd_*.go files' init functions.
var commandMakers []func(*App) *cobra.Command

// register adds a command to the root command.
func register(mk func(*App) *cobra.Command) { commandMakers = append(commandMakers, mk) }

// newRoot builds the command tree for app.
func newRoot(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "wirelens [FILE...]",
		Short: "See what a coding agent really sends to its model",
		Long: `wirelens reads recorded model requests (OpenAI Chat and Responses, Anthropic Messages,
Gemini, JSONL sessions, HAR exports, claude-trace logs, agent session recordings) or builds
them live from a workspace, and shows the trusted system prefix, the untrusted workspace
fragments, the escapes applied, the hazards left, and where the prompt-cache prefix breaks.

With FILE arguments it opens the viewer, like "wirelens view FILE...".`,
		Example: `  wirelens demo
  wirelens session.jsonl
  wirelens inspect request.json --json
  wirelens check --fail-on high wire.json
  wirelens cache session.jsonl
  wirelens diff before.json after.json`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if os.Getenv("NO_COLOR") != "" {
				app.NoColor = true
			}
			switch app.Theme {
			case "auto", "dark", "light", "mono", "high-contrast":
			default:
				return usageError("--theme must be auto, dark, light, high-contrast or mono, not %q", app.Theme)
			}
			if app.Format != "" && !knownFormat(app.Format) {
				return usageError("unknown --format %q (known: %s)", app.Format, formatList())
			}
			if countsTokens(cmd) {
				wire.WarmTokens()
			}
			if findsSecrets(cmd) {
				redact.Warm()
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			if err := unknownWord(cmd, args); err != nil {
				return err
			}
			view, _, err := cmd.Root().Find([]string{"view"})
			if err != nil || view == cmd.Root() {
				return usageError("unknown command %q", args[0])
			}
			if err := view.ParseFlags(nil); err != nil {
				return err
			}
			// The view command runs as if called itself: with the root's
			// context (cobra gives a command its context only when it is
			// the one executed).
			view.SetContext(cmd.Context())
			return view.RunE(view, args)
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&app.Format, "format", "", "input format, instead of detecting it by shape ("+formatList()+")")
	pf.StringVar(&app.Theme, "theme", "auto", "colour theme: auto, dark, light, high-contrast or mono")
	pf.BoolVar(&app.NoColor, "no-color", false, "no colour (also the NO_COLOR environment variable)")
	for _, mk := range commandMakers {
		root.AddCommand(mk(app))
	}
	// The shorthand "wirelens FILE..." is view's: it takes view's
	// --workspace too.
	addProvenanceFlags(root, app)
	return root
}

// unknownWord refuses the shorthand "wirelens FILE..." when an argument is
// neither an existing file (FILE or FILE@N) nor "-": a mistyped command
// ("wirelens inpsect FILE") is an unknown command with cobra's suggestion,
// never opened as a file; a missing path is named as such. Nothing is read
// before every argument has been checked, so nothing reaches stdout.
func unknownWord(cmd *cobra.Command, args []string) error {
	for _, a := range args {
		if a == "-" {
			continue
		}
		file, _, err := splitRef(a)
		if err != nil {
			return &ExitError{Code: 2, Msg: err.Error()}
		}
		if _, err := os.Stat(file); err == nil {
			continue
		}
		word := scan.VisibleLine(a)
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2
		}
		if sugg := cmd.SuggestionsFor(a); len(sugg) > 0 {
			return usageError("unknown command %q: did you mean %s? (see wirelens --help)", word, strings.Join(sugg, " or "))
		}
		if strings.ContainsAny(a, "/.@\\") {
			return usageError("%s: no such file", word)
		}
		return usageError("unknown command %q (see wirelens --help for the commands)", word)
	}
	return nil
}

// countsTokens reports whether cmd counts tokens: its tokenizer
// vocabulary is then built in the background from the start (see
// wire.WarmTokens). The others (check, diff, build, gen-session, ...) never
// build it.
func countsTokens(cmd *cobra.Command) bool {
	switch cmd.Name() {
	case "view", "watch", "inspect", "cache", "demo":
		return true
	}
	return cmd == cmd.Root()
}

// findsSecrets reports whether cmd looks for secrets in what it reads
// (the audit's secret-in-context, the viewer's masking, report): gitleaks'
// rules are then read in the background from the start (redact.Warm).
func findsSecrets(cmd *cobra.Command) bool {
	switch cmd.Name() {
	case "check", "report", "view", "watch", "demo":
		return true
	}
	return cmd == cmd.Root()
}

func knownFormat(f string) bool {
	for _, k := range decode.Formats() {
		if string(k) == f {
			return true
		}
	}
	return false
}

func formatList() string {
	var names []string
	for _, f := range decode.Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// run executes the program with args and returns its exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := &App{Stdin: stdin, Stdout: stdout, Stderr: stderr, In: wire.NewInterner()}
	root := newRoot(app)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.Version = programVersion()
	root.SetVersionTemplate("wirelens {{.Version}}\n")
	root.SetHelpFunc(helpFunc)
	// Cobra's own errors for a flag ("unknown flag: --x") become usage
	// errors: exit 2, one line.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if !cmd.HasParent() {
			// The root's own: "wirelens: unknown flag: --versoin", not
			// "wirelens: wirelens: ...".
			return usageError("%v (see wirelens --help)", err)
		}
		return usageError("%s: %v (see %s --help)", cmd.Name(), err, cmd.CommandPath())
	})
	err := root.ExecuteContext(ctx)
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Msg != "" {
			fmt.Fprintln(stderr, "wirelens: "+scan.VisibleLine(err.Error()))
		}
	}
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 2
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
