package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/scan"
)

// Loaded is what a command read from its FILE arguments: every request that
// could be decoded, in order, and every problem met on the way.
type Loaded struct {
	Requests []wire.Request
	Errors   []error
}

// decodeOptions are the wire options for one source.
func (a *App) decodeOptions(source string) decode.Options {
	return decode.Options{Source: source, Format: wire.Format(a.Format), Interner: a.In, Provenance: a.Provenance}
}

// decode reads the requests a FILE argument names: every request of FILE,
// or only the N-th of FILE@N (with the errors met on the way to it, and an
// error when FILE holds fewer).
func (a *App) decode(source string, each func(wire.Request, error) bool) {
	file, n, err := splitRef(source)
	if err != nil {
		each(wire.Request{}, err)
		return
	}
	if file == source {
		a.decodeSource(source, each)
		return
	}
	count, failed, stopped := 0, false, false
	a.decodeSource(file, func(r wire.Request, err error) bool {
		if err != nil {
			failed = true
			stopped = !each(r, err)
			return !stopped
		}
		if count++; count < n {
			return true
		}
		stopped = true
		each(r, nil)
		return false
	})
	if !stopped && (count > 0 || !failed) {
		each(wire.Request{}, refRangeError(file, count, n))
	}
}

// refRangeError is the error of FILE@N when FILE holds fewer requests.
func refRangeError(file string, count, n int) error {
	if count == 1 {
		return fmt.Errorf("%s has 1 request, no request %d", file, n)
	}
	return fmt.Errorf("%s has %d requests, no request %d", file, count, n)
}

// decodeSource reads every request of a FILE argument ("-" is standard
// input). Directories are left to decode.Path, which finds recordings inside
// them; every file is opened by wire.OpenInput, which reads regular files
// only.
func (a *App) decodeSource(source string, each func(wire.Request, error) bool) {
	each = a.markTools(each)
	if source == "-" {
		for r, err := range decode.Ahead(decode.Decode(a.Stdin, a.decodeOptions("-")), aheadRequests) {
			if !each(r, err) {
				return
			}
		}
		return
	}
	for r, err := range decode.Ahead(decode.Path(source, a.decodeOptions(source)), aheadRequests) {
		if !each(r, err) {
			return
		}
	}
}

// markTools wraps each so that the tool definitions of every request are
// given their MCP server where the name conventions could not tell it, but
// the workspace's configured servers or the agent's list of its own tools
// can (classify.MarkTools; the request's segments are copied, never
// written).
func (a *App) markTools(each func(wire.Request, error) bool) func(wire.Request, error) bool {
	return func(r wire.Request, err error) bool {
		if err == nil {
			if segs := classify.MarkTools(r.Segments, a.ToolServers); segs != nil {
				r.Segments = segs
			}
		}
		return each(r, err)
	}
}

// useWorkspaceServers reads the MCP servers a workspace configures
// (--workspace) into ToolServers.
func (a *App) useWorkspaceServers(dir string) error {
	if dir == "" {
		return nil
	}
	d, c, err := assemble.OpenDir(dir)
	if err != nil {
		return usageError("--workspace: %v", err)
	}
	defer c.Close()
	servers, errs := assemble.MCPServers(d)
	if len(errs) > 0 {
		return usageError("--workspace: %s", scan.VisibleLine(filepath.Join(dir, errs[0].Error())))
	}
	a.ToolServers = assemble.MCPServerNames(servers)
	return nil
}

// aheadRequests is how many requests decoding may run ahead of the command
// that reads them (decode.Ahead): a few, since a request of a long session
// holds little of its own (its segments are shared with the one before).
const aheadRequests = 4

// decodeContext is decode for the viewer, which must close at once when
// the user quits, whatever its input does: a FIFO, a terminal or another
// file that is not regular is opened in a goroutine of its own (opening a
// FIFO waits for a writer, and nothing interrupts it: that goroutine is left
// behind and closes the file if it ever opens) and closed when ctx ends,
// which ends a read that waits on it. Regular files and directories never
// wait and go to decode.
func (a *App) decodeContext(ctx context.Context, source string, each func(wire.Request, error) bool) {
	st, err := os.Stat(source)
	if source == "-" || err != nil || st.Mode().IsRegular() || st.IsDir() {
		a.decode(source, each)
		return
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened)
	go func() {
		f, err := os.Open(source)
		select {
		case ch <- opened{f, err}:
		case <-ctx.Done():
			if f != nil {
				f.Close()
			}
		}
	}()
	var o opened
	select {
	case o = <-ch:
	case <-ctx.Done():
		return
	}
	if o.err != nil {
		each(wire.Request{}, &decode.Error{Source: source, Msg: decode.DescribeOSError(o.err)})
		return
	}
	defer o.f.Close()
	defer context.AfterFunc(ctx, func() { o.f.Close() })()
	each = a.markTools(each)
	for r, err := range decode.Ahead(decode.Decode(o.f, a.decodeOptions(source)), aheadRequests) {
		if !each(r, err) {
			return
		}
	}
}

// Load decodes every FILE argument. Errors are collected, not fatal: what
// could be decoded is still returned.
func (a *App) Load(args []string) *Loaded {
	l := &Loaded{}
	for _, src := range args {
		a.decode(src, func(r wire.Request, err error) bool {
			if err != nil {
				l.Errors = append(l.Errors, err)
			} else {
				l.Requests = append(l.Requests, r)
			}
			return true
		})
	}
	return l
}

// splitRef splits "FILE@N" into FILE and N (N is 1 when absent). A file that
// really is named with an "@" is found first.
func splitRef(ref string) (string, int, error) {
	at := strings.LastIndexByte(ref, '@')
	if at <= 0 || at == len(ref)-1 {
		return ref, 1, nil
	}
	if _, err := os.Stat(ref); err == nil {
		return ref, 1, nil
	}
	n, err := strconv.Atoi(ref[at+1:])
	if err != nil {
		return ref, 1, nil
	}
	if n < 1 {
		return "", 0, fmt.Errorf("%s: request numbers count from 1", ref)
	}
	return ref[:at], n, nil
}

// LoadRef reads the request a reference names: FILE (its first request) or
// FILE@N (its N-th). Decoding stops once the request is found. Problems met
// on the way are returned with it.
func (a *App) LoadRef(ref string) (wire.Request, []error, error) {
	file, n, err := splitRef(ref)
	if err != nil {
		return wire.Request{}, nil, err
	}
	var (
		found bool
		got   wire.Request
		count int
		errs  []error
	)
	a.decodeSource(file, func(r wire.Request, err error) bool {
		if err != nil {
			errs = append(errs, err)
			return true
		}
		count++
		if count == n {
			got, found = r, true
			return false
		}
		return true
	})
	if !found {
		if count == 0 {
			if len(errs) > 0 {
				return wire.Request{}, errs[1:], errs[0]
			}
			return wire.Request{}, nil, fmt.Errorf("%s: no request found", file)
		}
		return wire.Request{}, errs, refRangeError(file, count, n)
	}
	return got, errs, nil
}

// ReportErrors prints each error as one "wirelens: ..." line on standard
// error and reports whether there were any.
func (a *App) ReportErrors(errs []error) bool {
	for _, err := range errs {
		fmt.Fprintln(a.Stderr, "wirelens: "+scan.VisibleLine(err.Error()))
	}
	return len(errs) > 0
}

// finish turns a command's result into its exit: input errors make exit 2
// (after everything readable was reported), otherwise code.
func (a *App) finish(errs []error, code int) error {
	if a.ReportErrors(errs) {
		return &ExitError{Code: 2}
	}
	if code != 0 {
		return &ExitError{Code: code}
	}
	return nil
}

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	b, err := marshalJSON(v, "")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// marshalJSON is v as indented JSON (prefix before every line but the
// first, no trailing newline), with "<", ">" and "&" left readable and every
// hazardous code point inside strings written as a \u escape (wire.SafeJSON):
// the same value for a parser, nothing raw for a terminal. Every JSON report
// goes through it.
func marshalJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Indented as SetIndent(prefix, "  ") would, without json.Indent's scanner.
	return scan.SafeJSON(scan.IndentJSON(nil, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), prefix, "  ")), nil
}

// errorJSON is the shape of an input error in the "errors" arrays.
type errorJSON struct {
	Source  string `json:"source"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// errorsJSON converts input errors for JSON output (never null).
func errorsJSON(errs []error) []errorJSON {
	out := make([]errorJSON, 0, len(errs))
	for _, err := range errs {
		var de *decode.Error
		if errors.As(err, &de) {
			out = append(out, errorJSON{Source: de.Source, Line: de.Line, Message: de.Msg})
			continue
		}
		out = append(out, errorJSON{Message: err.Error()})
	}
	return out
}

// isTerminal reports whether w (a standard stream) is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// terminalWidth is the width of w when it is a terminal, else 0 (no limit).
func terminalWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok && isTerminal(w) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 0 {
			return cols
		}
	}
	return 0
}
