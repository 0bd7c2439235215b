package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire/capture"
)

func newRecordCmd(app *App) *cobra.Command {
	var (
		f    captureFlags
		view bool
	)
	cmd := &cobra.Command{
		Use:   "record [--mock] [--out FILE] [--listen ADDR] [--view] -- COMMAND [ARGS...]",
		Short: "Run COMMAND with the agents' base URLs pointed at a recording proxy",
		Long: `record starts the proxy of "wirelens proxy" on a free loopback port (or --listen ADDR), runs
COMMAND with the base-URL variables of every supported agent and SDK pointed at it, records
every exchange in FILE (default wirelens-capture-DATE-TIME.jsonl, mode 0600), stops the
proxy when COMMAND exits, and exits with COMMAND's exit code.

Variables set: ` + envSummary() + `.
With --mock nothing leaves the machine and no key is needed: the proxy answers itself, and
ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY and KIMI_API_KEY are set to a placeholder
where they are unset (and GEMINI_DEFAULT_AUTH_TYPE to gemini-api-key), so agents that
refuse to start without a key start.

Codex ignores OPENAI_BASE_URL; when COMMAND is codex, record puts its own model provider on
Codex's command line (codex -c model_provider="wirelens" -c model_providers.wirelens={...}
ARGS...). For other ways of starting Codex, use $WIRELENS_PROXY (see the README).

With --view the viewer opens on the recording and follows it as exchanges arrive; COMMAND's
output then goes to FILE.log and its input is empty. Quitting the viewer stops COMMAND.`,
		Example: `  wirelens record --mock -- claude -p "What is 2+2?"
  wirelens record --mock --out codex.jsonl -- codex exec "What is 2+2?"
  wirelens record --mock --view -- gemini -p "What is 2+2?"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return argsError(cmd, "no COMMAND given: name the agent to run after --, as in wirelens record --mock -- claude -p \"What is 2+2?\"")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if view && !isTerminal(app.Stdout) {
				return usageError("--view needs a terminal")
			}
			path, err := exec.LookPath(args[0])
			if err != nil {
				return usageError("%s: command not found", args[0])
			}
			c, err := startCapture(app, f)
			if err != nil {
				return err
			}
			base := c.server.URL()
			argv := args[1:]
			if name := filepath.Base(args[0]); name == "codex" || name == "codex.exe" {
				argv = append(capture.CodexArgs(base), argv...)
			}
			child := exec.Command(path, argv...)
			child.Args[0] = args[0]
			child.Env = capture.Env(os.Environ(), base, f.mock)
			child.Stdin, child.Stdout, child.Stderr = app.Stdin, app.Stdout, app.Stderr
			var logFile *os.File
			if view {
				logFile, err = os.OpenFile(c.rec.Path()+".log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
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
			c.logLine(fmt.Sprintf("recording %s to %s (proxy %s, %s)", args[0], c.rec.Path(), base, mode))
			// Ctrl-C reaches the child from the terminal; record waits for
			// it rather than dying first, and passes a TERM on.
			sigs := make(chan os.Signal, 1)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigs)
			if err := child.Start(); err != nil {
				c.stop()
				return usageError("%s: %v", args[0], err)
			}
			exited := make(chan struct{})
			go func() {
				for {
					select {
					case s := <-sigs:
						if s != os.Interrupt {
							child.Process.Signal(s)
						}
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
					child.Process.Signal(syscall.SIGTERM)
				}
			}
			werr := child.Wait()
			close(exited)
			if serr := c.stop(); serr != nil {
				return serr
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
	return cmd
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
