package main

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/capture"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() {
	register(newProxyCmd)
	register(newRecordCmd)
}

// captureFlags are the flags proxy and record share.
type captureFlags struct {
	listen, out, upstream, har string
	mock                       bool
	allowOrigins, allowHosts   []string
}

// defaultCaptureName is the recording's name when --out is not given.
func defaultCaptureName() string {
	return "wirelens-capture-" + time.Now().UTC().Format("20060102-150405") + ".jsonl"
}

// capture is a running proxy and its recording.
type captureRun struct {
	app    *App
	flags  captureFlags
	server *capture.Server
	rec    *capture.Recorder
	logMu  sync.Mutex
}

// stderr is standard error for a child of record: the same stream as
// logLine's, written under the same lock when it is not a file (a file is
// handed to the child as it is; anything else is copied by a goroutine of
// exec, which would race with logLine).
func (c *captureRun) stderr() io.Writer {
	if _, ok := c.app.Stderr.(*os.File); ok {
		return c.app.Stderr
	}
	return lockedWriter{&c.logMu, c.app.Stderr}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// logLine writes one "wirelens: ..." line on standard error.
func (c *captureRun) logLine(s string) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintln(c.app.Stderr, "wirelens: "+scan.VisibleLine(s))
}

// serveFunc serves the recording proxy on a listener (capture.Serve, or
// record's forward proxy in front of it); log is the run's stderr line.
type serveFunc func(ln net.Listener, p *capture.Proxy, log func(string)) *capture.Server

// startCapture opens the recording and the listener and starts serving
// (with serve; nil is capture.Serve).
func startCapture(app *App, f captureFlags, serve serveFunc) (*captureRun, error) {
	if f.mock && f.upstream != "" {
		return nil, usageError("--mock and --upstream cannot be used together")
	}
	opts := capture.Options{Mock: f.mock, AllowOrigins: f.allowOrigins, AllowHosts: f.allowHosts}
	if f.upstream != "" {
		u, err := url.Parse(f.upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, usageError("--upstream %q: give a URL such as https://api.moonshot.ai", redact.URL(f.upstream))
		}
		opts.Upstream = u
	}
	if f.out == "" {
		f.out = defaultCaptureName()
	}
	if f.har != "" && sameFile(f.har, f.out) {
		// The HAR is written from the recording at exit: it would replace it.
		return nil, usageError("--har and --out name the same file (%s): the HAR would replace the recording", f.out)
	}
	c := &captureRun{app: app, flags: f}
	opts.Log = c.logLine
	ln, warning, err := capture.Listen(f.listen)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if warning != "" {
		c.logLine("warning: " + warning)
	}
	rec, err := capture.Create(f.out, c.logLine)
	if err != nil {
		ln.Close()
		return nil, usageError("%s: %v", f.out, describeCreateError(err))
	}
	c.rec = rec
	capture.SetGC()
	p := capture.New(rec, opts)
	if serve == nil {
		c.server = capture.Serve(ln, p)
	} else {
		c.server = serve(ln, p, c.logLine)
	}
	return c, nil
}

func describeCreateError(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// stop shuts the proxy down, closes the recording and writes the HAR.
func (c *captureRun) stop() error {
	err := c.server.Close(5 * time.Second)
	n, lost := c.rec.Counts()
	msg := fmt.Sprintf("%s recorded in %s", plural(n, "exchange"), c.flags.out)
	if lost > 0 {
		msg += fmt.Sprintf(" (%d could not be written)", lost)
	}
	if dropped, cut := c.rec.Behind(); dropped > 0 || cut > 0 {
		// The recording fell behind (a slow disk): the exchanges went on,
		// and the capture says which lines are incomplete.
		msg += fmt.Sprintf("; the recording fell behind the exchanges: %s recorded without bodies or not at all, %d bodies cut", plural(dropped, "exchange"), cut)
	}
	if n == 0 && lost == 0 {
		// The recorder removed the empty file it made (one that was
		// there before is left as it was): there is no HAR to write.
		msg = "no exchange recorded: no capture written"
	}
	c.logLine(msg)
	if c.flags.har != "" && n > 0 {
		if herr := writeHARFile(c.flags.har, c.flags.out); herr != nil {
			c.logLine(herr.Error())
			return &ExitError{Code: 2}
		}
	}
	if err != nil {
		c.logLine(err.Error())
	}
	return nil
}

// sameFile reports whether two paths name one file: the same path once
// cleaned and made absolute, or, when both exist, the same file.
func sameFile(a, b string) bool {
	if aa, err := filepath.Abs(a); err == nil {
		if bb, err := filepath.Abs(b); err == nil && aa == bb {
			return true
		}
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// writeHARFile writes the HAR of recording into path (mode 0600).
func writeHARFile(path, recording string) error {
	in, err := wire.OpenInput(recording, wire.MaxInputBytes)
	if err != nil {
		return fmt.Errorf("%s: %s", recording, describeCreateError(err))
	}
	defer in.Close()
	out, err := wire.CreateOutput(path, false)
	if err != nil {
		return fmt.Errorf("%s: %s", path, describeCreateError(err))
	}
	if err := capture.WriteHAR(out, in, programVersion()); err != nil {
		out.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return out.Close()
}

func addCaptureFlags(cmd *cobra.Command, f *captureFlags, proxy bool) {
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "", "address to listen on (default: a free port on 127.0.0.1; a non-loopback address is warned about)")
	fl.StringVar(&f.out, "out", "", "the recording to append to, created mode 0600, never through a link (default: wirelens-capture-DATE-TIME.jsonl)")
	fl.BoolVar(&f.mock, "mock", false, "answer every request in the proxy (no upstream, no network, no key needed)")
	fl.StringSliceVar(&f.allowOrigins, "allow-origin", nil, "accept requests with this Origin header (a browser page's; refused by default)")
	fl.StringSliceVar(&f.allowHosts, "allow-host", nil, "accept requests whose Host names this host (default: loopback names and addresses only)")
	if proxy {
		fl.StringVar(&f.upstream, "upstream", "", "send every request to this URL (default: the provider the request's path and headers name)")
		fl.StringVar(&f.har, "har", "", "also write the exchanges as HAR 1.2 to this file on exit (mode 0600, never through a link; not the --out file)")
	}
}

func newProxyCmd(app *App) *cobra.Command {
	var f captureFlags
	cmd := &cobra.Command{
		Use:   "proxy [--listen ADDR] [--out FILE] [--upstream URL | --mock] [--har FILE]",
		Short: "Run a loopback reverse proxy that records every model exchange",
		Long: `proxy listens on a loopback port and records every request a client sends through it, and
its response, one line per exchange in FILE (the claude-trace JSONL shape, which every
wirelens command reads). Point an agent's base URL at it (ANTHROPIC_BASE_URL=http://ADDR,
OPENAI_BASE_URL=http://ADDR/v1, GOOGLE_GEMINI_BASE_URL=http://ADDR; see "wirelens record").

Each request goes to its provider (Anthropic for Messages paths, Gemini for
generateContent paths, OpenAI otherwise), or to --upstream (OpenAI-compatible hosts such as
Moonshot's), and the answer streams back as it arrives: server-sent events are passed on
event by event, unbuffered. No TLS is intercepted and no certificate is needed.

With --mock nothing is forwarded: the proxy answers each request itself with a short valid
reply in the request's own API and mode (streamed or not, usage with zero cached tokens),
and model lists, token counts and health checks with plausible empty answers, so an agent
runs to its end offline with no key.

Credentials never reach the recording in the clear: Authorization, x-api-key,
x-goog-api-key, api-key, cookies and key-like query parameters become a hint that keeps the
known scheme and the last 4 characters (Bearer sk-…a1b2; Basic … keeps nothing of its
secret), and credential-named members of JSON request bodies (api_key, password, ...) are
masked. Stop it with Ctrl-C.`,
		Example: `  wirelens proxy --mock --listen 127.0.0.1:8787 --out capture.jsonl
  wirelens proxy --out moonshot.jsonl --upstream https://api.moonshot.ai --har moonshot.har`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := startCapture(app, f, nil)
			if err != nil {
				return err
			}
			mode := "forwarding to each provider"
			if f.mock {
				mode = "answering itself (mock)"
			} else if f.upstream != "" {
				mode = "forwarding to " + redact.URL(f.upstream) // no user:pass@ or ?key= on the screen
			}
			c.logLine(fmt.Sprintf("proxy on %s, %s, recording to %s; Ctrl-C stops it", c.server.URL(), mode, c.rec.Path()))
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			return c.stop()
		},
	}
	addCaptureFlags(cmd, &f, true)
	return cmd
}

// envSummary lists the variables record sets, for --help.
func envSummary() string {
	var names []string
	for _, v := range capture.BaseURLVars {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}
