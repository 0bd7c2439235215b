package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/capture"
	"github.com/wirelens/wirelens/wire/capture/runca"
	"github.com/wirelens/wirelens/wire/scan"
)

// recordPlan is how record will run a command: its mode, the recipe that
// applies, and why.
type recordPlan struct {
	recipe   *capture.Recipe
	forward  bool // the forward proxy with the run's CA
	baseVars bool // the base-URL variables
	why      string
}

// planRecord decides the mode: base-URL mode for an agent known to follow
// a base-URL variable (with its recipe), the forward proxy for any other,
// both for a command record does not know, the forward proxy alone with
// --intercept.
func planRecord(arg0 string, mock, intercept bool) recordPlan {
	r := capture.RecipeFor(arg0)
	name := capture.ProgramName(arg0)
	switch {
	case intercept:
		return recordPlan{recipe: r, forward: true, why: "--intercept: the forward proxy alone, the command talking to its own hosts"}
	case r == nil:
		return recordPlan{forward: true, baseVars: true, why: name + " is not a known agent: the base-URL variables and the forward proxy both"}
	case r.BaseURL == capture.BaseURLAlways || (r.BaseURL == capture.BaseURLMock && mock):
		return recordPlan{recipe: r, baseVars: true, why: r.Agent + " follows a base-URL variable (with its recipe): base-URL mode"}
	case r.BaseURL == capture.BaseURLMock:
		return recordPlan{recipe: r, forward: true, why: r.Agent + " is pointed at the proxy only by --mock steps (which would replace your provider): the forward proxy, keeping your provider"}
	}
	return recordPlan{recipe: r, forward: true, why: r.Agent + " takes no base URL: the forward proxy"}
}

func newRecordCmd(app *App) *cobra.Command {
	var (
		f                  captureFlags
		view               bool
		intercept, explain bool
		interceptHosts     []string
	)
	cmd := &cobra.Command{
		Use:   "record [--mock] [--out FILE] [--listen ADDR] [--view] [--intercept] [--intercept-host HOST]... [--explain] -- COMMAND [ARGS...]",
		Short: "Run COMMAND with its model requests sent through a recording proxy",
		Long: `record starts the proxy of "wirelens proxy" on a free loopback port (or --listen ADDR), runs
COMMAND pointed at it, records every exchange in FILE (default
wirelens-capture-DATE-TIME.jsonl, mode 0600), stops the proxy when COMMAND exits, and exits
with COMMAND's exit code.

Two modes. Base-URL mode, for the agents known to follow a base-URL variable (Claude Code,
Codex, Gemini CLI, kimi-cli, opencode; qwen-code, cline and pi with --mock): the variables
` + envSummary() + ` point at the proxy, and the agent's recipe (record --explain) adds
what it needs beyond them (Codex's -c model_providers, qwen-code's --auth-type openai,
cline's provider settings in a file of the run, pi's providers in an extension of the run,
opencode's inline configuration).

Forward-proxy mode, for any other command and always with --intercept: the proxy is also
COMMAND's HTTPS_PROXY, with a certificate authority made for this run only (an ECDSA P-256
key in a temporary folder of mode 0700, valid for a day, deleted when record ends) that
COMMAND trusts through NODE_EXTRA_CA_CERTS and SSL_CERT_FILE (and REQUESTS_CA_BUNDLE,
CURL_CA_BUNDLE, GIT_SSL_CAINFO). The model providers' hosts (and --intercept-host HOST) are
intercepted and recorded; every other host is tunnelled untouched, or refused with --mock.
Nothing is installed system-wide. With --intercept the base-URL variables are not set.

With --mock nothing leaves the machine and no key is needed: the proxy answers itself, and
ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY and KIMI_API_KEY are set to a placeholder
where they are unset (and GEMINI_DEFAULT_AUTH_TYPE to gemini-api-key).

COMMAND runs in a process group of its own; when it exits (or on Ctrl-C) what is left of
the group, and any daemon it started, is ended (TERM, then KILL), and record says what.
When nothing was recorded, record says why that most likely was and what to try.

With --view the viewer opens on the recording and follows it as exchanges arrive; COMMAND's
output then goes to FILE.log and its input is empty. Quitting the viewer stops COMMAND.`,
		Example: `  wirelens record --mock -- claude -p "What is 2+2?"
  wirelens record --mock -- cline -t 60 "What is 2+2?"
  wirelens record --intercept -- my-agent "What is 2+2?"
  wirelens record --explain -- qwen -p "What is 2+2?"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return argsError(cmd, "no COMMAND given: name the agent to run after --, as in wirelens record --mock -- claude -p \"What is 2+2?\"")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			plan := planRecord(args[0], f.mock, intercept)
			if explain {
				explainRecord(app.Stdout, plan, args, f.mock, intercept, interceptHosts)
				return nil
			}
			if view && !isTerminal(app.Stdout) {
				return usageError("--view needs a terminal")
			}
			path, err := exec.LookPath(args[0])
			if err != nil {
				return usageError("%s: command not found", args[0])
			}
			// The run's folder: the CA and the recipes' files, nothing
			// else; deleted however record ends (but SIGKILL).
			runDir, err := os.MkdirTemp("", "wirelens-record-")
			if err != nil {
				return usageError("a temporary folder for the run: %v", err)
			}
			defer os.RemoveAll(runDir)
			if err := os.Chmod(runDir, 0o700); err != nil {
				return usageError("%s: %v", runDir, err)
			}
			var ca *runca.CA
			if plan.forward {
				ca, err = runca.New(runDir, os.Getenv("SSL_CERT_FILE"))
				if err != nil {
					return usageError("the run's CA: %v", err)
				}
				defer ca.Close()
			}
			if f.out == "" {
				f.out = defaultCaptureName()
			}
			created := false
			if wd, err := os.Getwd(); err == nil {
				created = writeProvenanceRecord(app, f.out, wd, os.Getenv("HOME"))
			}
			var fwd *capture.Forward
			c, err := startCapture(app, f, func(ln net.Listener, p *capture.Proxy, log func(string)) *capture.Server {
				fwd = capture.NewForward(p, ca, capture.NewHostSet(interceptHosts), log)
				return capture.ServeForward(ln, fwd)
			})
			if err != nil {
				if created {
					os.Remove(f.out)
				}
				return err
			}
			if created {
				c.rec.Adopt()
			}
			base := c.server.URL()
			applied, err := plan.recipe.Apply(base, runDir, os.Environ(), args[1:], f.mock, intercept, false)
			if err != nil {
				c.stop()
				return usageError("%v", err)
			}
			env := os.Environ()
			if plan.baseVars {
				env = capture.Env(env, base, f.mock)
			} else if f.mock {
				env = capture.MockEnv(env)
			}
			if plan.forward {
				env = capture.ForwardEnv(env, base, ca)
			}
			env = capture.SetEnv(env, applied.Env)
			child := exec.Command(path, append(applied.Args, args[1:]...)...)
			child.Args[0] = args[0]
			child.Env = env
			child.Stdin, child.Stdout, child.Stderr = app.Stdin, app.Stdout, c.stderr()
			var logFile *os.File
			if view {
				logFile, err = openViewLog(c.rec.Path())
				if err != nil {
					c.stop()
					return usageError("%s.log: %s", c.rec.Path(), describeCreateError(err))
				}
				defer logFile.Close()
				child.Stdin, child.Stdout, child.Stderr = nil, logFile, logFile
			}
			mode := "forwarding"
			if f.mock {
				mode = "mock"
			}
			how := "base-URL mode"
			if plan.forward {
				how = "forward proxy, the run's CA in " + ca.Dir
				if plan.baseVars {
					how = "base-URL variables and " + how
				}
			}
			c.logLine(fmt.Sprintf("recording %s to %s (proxy %s, %s, %s)", args[0], c.rec.Path(), base, mode, how))
			if plan.recipe != nil && (len(applied.Args) > 0 || len(applied.Env) > 0) {
				c.logLine(fmt.Sprintf("%s's recipe: %s (record --explain says why)", plan.recipe.Agent, recipeSummary(applied)))
			}
			group := newChildGroup(child, child.Stdin)
			// Ctrl-C reaches the child's group from the terminal; record
			// waits for it rather than dying first, and passes on the
			// signals it gets itself.
			sigs := make(chan os.Signal, 1)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer signal.Stop(sigs)
			if err := child.Start(); err != nil {
				c.stop()
				return usageError("%s: %v", args[0], err)
			}
			group.started()
			exited := make(chan struct{})
			go func() {
				for {
					select {
					case s := <-sigs:
						group.signal(s)
					case <-exited:
						return
					}
				}
			}()
			var viewErr error
			if view {
				ctx, cancel := context.WithCancel(cmd.Context())
				viewErr = viewFollow(ctx, app, c.rec.Path(), "record "+args[0], ui.Options{})
				cancel()
				if child.ProcessState == nil {
					group.signal(syscall.SIGTERM)
				}
			}
			werr := child.Wait()
			close(exited)
			group.end(c.logLine)
			if serr := c.stop(); serr != nil {
				return serr
			}
			if n, _ := c.rec.Counts(); n == 0 {
				for _, line := range fwd.Diagnosis(base) {
					c.logLine("nothing recorded: " + line)
				}
			}
			var ee *ExitError
			if viewErr != nil && !errors.As(viewErr, &ee) {
				return viewErr
			}
			return childExit(werr)
		},
	}
	cmd.Flags().SetInterspersed(false)
	addCaptureFlags(cmd, &f, false)
	cmd.Flags().BoolVar(&view, "view", false, "open the viewer on the recording, following it as exchanges arrive")
	cmd.Flags().BoolVar(&intercept, "intercept", false, "forward-proxy mode for any command: HTTPS_PROXY and a CA made for the run, no base-URL variables")
	cmd.Flags().StringArrayVar(&interceptHosts, "intercept-host", nil, "also intercept and record this host (a name, or a pattern with *); repeatable")
	cmd.Flags().BoolVar(&explain, "explain", false, "print the mode, variables and recipe record would use for COMMAND, and run nothing")
	return cmd
}

// recipeSummary is what a recipe added, on one line.
func recipeSummary(a capture.Applied) string {
	var parts []string
	if len(a.Args) > 0 {
		parts = append(parts, "arguments "+strings.Join(a.Args, " "))
	}
	for _, kv := range a.Env {
		k, _, _ := strings.Cut(kv, "=")
		parts = append(parts, k)
	}
	return strings.Join(parts, ", ")
}

// explainRecord prints the plan of a run, with the proxy's address as
// ADDR and the run's folder as RUN.
func explainRecord(w io.Writer, plan recordPlan, args []string, mock, intercept bool, hosts []string) {
	const base, dir = "http://127.0.0.1:PORT", "$RUN"
	out := func(format string, a ...any) { fmt.Fprintln(w, scan.VisibleLine(fmt.Sprintf(format, a...))) }
	out("record %s", strings.Join(args, " "))
	out("mode: %s", plan.why)
	if plan.recipe != nil {
		out("recipe: %s (%s)", plan.recipe.Agent, strings.Join(plan.recipe.Programs, ", "))
	} else {
		out("recipe: none for %s", capture.ProgramName(args[0]))
	}
	applied, _ := plan.recipe.Apply(base, dir, os.Environ(), args[1:], mock, intercept, true)
	for _, s := range applied.Said {
		out("  %s", s)
	}
	if plan.recipe != nil && plan.recipe.Note != "" {
		out("  note: %s", plan.recipe.Note)
	}
	if len(applied.Args) > 0 {
		out("command: %s %s %s", args[0], strings.Join(applied.Args, " "), strings.Join(args[1:], " "))
	}
	out("environment (PORT is the proxy's, RUN the run's folder, 0700, deleted at the end):")
	if plan.baseVars {
		for _, v := range capture.BaseURLVars {
			out("  %s=%s%s  (%s)", v.Name, base, v.Suffix, v.Who)
		}
	}
	if mock {
		for _, k := range capture.MockKeys {
			out("  %s=%s  (where unset)", k, capture.MockKey)
		}
		out("  GEMINI_DEFAULT_AUTH_TYPE=gemini-api-key  (where unset)")
	}
	if plan.forward {
		for _, v := range capture.ForwardVars {
			val := base
			switch strings.ToUpper(v.Name) {
			case "NO_PROXY":
				val = "localhost,127.0.0.1,::1"
			case "NODE_USE_ENV_PROXY":
				val = "1"
			case "NODE_EXTRA_CA_CERTS":
				val = dir + "/wirelens-ca-*/ca.pem"
			case "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY":
			default:
				val = dir + "/wirelens-ca-*/bundle.pem"
			}
			out("  %s=%s  (%s)", v.Name, val, v.Who)
		}
	}
	for _, kv := range applied.Env {
		out("  %s  (the recipe)", kv)
	}
	if plan.forward {
		n := len(capture.ProviderHosts)
		extra := ""
		if len(hosts) > 0 {
			extra = " and " + strings.Join(hosts, ", ")
		}
		out("intercepted: the %d provider hosts of the table%s; other hosts %s", n, extra, map[bool]string{true: "refused (--mock: offline)", false: "tunnelled untouched"}[mock])
	}
}

// childExit is the exit of record for the child's: its code, or 128 plus
// the signal that ended it.
func childExit(err error) error {
	if err == nil {
		return nil
	}
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		if ws, ok := xe.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &ExitError{Code: 128 + int(ws.Signal())}
		}
		return &ExitError{Code: xe.ExitCode()}
	}
	return &ExitError{Code: 2, Msg: err.Error()}
}

// openViewLog opens the log of record --view beside the recording, from
// empty, as every output is opened (wire.CreateOutput: never through a link,
// mode 0600).
func openViewLog(recording string) (*os.File, error) {
	return wire.CreateOutput(recording+".log", false)
}
