// Package act is what the viewer's action keys do outside the screen: y
// and Y put text on the terminal's clipboard (OSC 52, through Bubble Tea),
// o and e open it in the user's pager or editor on a temporary file, w
// writes an export to a file the user names.
//
// Everything it hands out is made safe first, as on the screen: secrets
// masked (package wire/redact) and every control, escape sequence, bidi
// control, tag and invisible character shown visibly by the one sanitiser
// (package wire/scan). It runs only on a key the user pressed: nothing a
// payload holds starts an action.
package act

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Text is text as the screen shows it, for the clipboard, a pager or an
// editor: every secret redact finds masked, every hazard shown visibly
// (newlines and tabs kept).
func Text(s string) string { return scan.Visible(redact.MaskSecrets(s)) }

// Lines is rows as the screen shows them, one a line: each masked and
// sanitised as one line, so no row spills onto the next.
func Lines(rows []string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(scan.VisibleLine(redact.MaskSecrets(r)))
		b.WriteByte('\n')
	}
	return b.String()
}

// JSON is a request body for the clipboard or a file: a JSON text keeps its
// meaning with every hazard written as a \u escape (scan.SafeJSON), any
// other text is shown as Text shows it; secrets are masked in both.
func JSON(s string) string {
	s = redact.MaskSecrets(s)
	if json.Valid([]byte(s)) {
		return string(scan.SafeJSON([]byte(s)))
	}
	return scan.Visible(s)
}

// FindingLine is a finding as one line of text: severity, rule, request
// (#n as the viewer counts them, from 1), segment, offset, message and
// excerpt. The caller sanitises it (Lines).
func FindingLine(f audit.Finding, req int) string {
	s := strings.ToUpper(string(f.Severity)) + "  " + f.Rule + "  #" + strconv.Itoa(req+1) + " " + f.Segment +
		" @" + strconv.Itoa(f.Offset) + "  " + f.Message
	if f.Excerpt != "" {
		s += "  excerpt: " + f.Excerpt
	}
	return s
}

// Command is the command line of the program that env names ($PAGER,
// $EDITOR: a program and its arguments, split at blanks, as `less -R`), or
// fallback when env is unset or blank.
func Command(env, fallback string) []string {
	if f := strings.Fields(os.Getenv(env)); len(f) > 0 {
		return f
	}
	return []string{fallback}
}

// Open runs the program that Env names (Fallback when unset) on a
// temporary file holding Text: made in os.TempDir with mode 0600 and a name
// no other file has (so never a file the user reads, never through a
// link), and removed when the program ends. It is a tea.ExecCommand: Bubble
// Tea hands it the terminal while it runs.
type Open struct {
	Env, Fallback string
	Text          string
	// Ext ends the temporary file's name (".txt", ".json"): an editor
	// highlights by it.
	Ext string

	stdin          io.Reader
	stdout, stderr io.Writer
	// Path is the temporary file while the program runs (tests).
	Path string
}

func (o *Open) SetStdin(r io.Reader)  { o.stdin = r }
func (o *Open) SetStdout(w io.Writer) { o.stdout = w }
func (o *Open) SetStderr(w io.Writer) { o.stderr = w }

// Name is the program's name as the status line says it (without its
// folder).
func (o *Open) Name() string { return filepath.Base(Command(o.Env, o.Fallback)[0]) }

// Msg is Opened, to hand the terminal to the program, or, when there is
// no such program, Done saying so: the terminal is not released for a
// program that cannot start.
func (o *Open) Msg() Msg {
	if _, err := o.program(); err != nil {
		return Done("could not open: " + err.Error())
	}
	return Opened{Open: o}
}

// program is the path of the program to run.
func (o *Open) program() (string, error) {
	prog, err := exec.LookPath(Command(o.Env, o.Fallback)[0])
	if err != nil {
		return "", fmt.Errorf("$%s: %w", o.Env, err)
	}
	return prog, nil
}

// Run writes the file, runs the program on it and removes the file; the
// error says which program failed (not found, or its exit status).
func (o *Open) Run() error {
	argv := Command(o.Env, o.Fallback)
	prog, err := o.program()
	if err != nil {
		return err
	}
	f, err := os.CreateTemp("", "wirelens-*"+o.Ext)
	if err != nil {
		return err
	}
	o.Path = f.Name()
	defer os.Remove(f.Name())
	_, err = io.WriteString(f, o.Text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	cmd := exec.Command(prog, append(argv[1:], f.Name())...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.stdin, o.stdout, o.stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	return nil
}

// ErrExists is why Write did not write over a file: it asks first.
var ErrExists = errors.New("exists")

// ErrInput is why Write refused a file: the viewer reads it.
var ErrInput = errors.New("is a file this viewer reads, and wirelens never writes to its inputs")

// Write writes what write writes to path (a leading ~/ is the home folder)
// and returns how many bytes. It refuses a file the viewer reads (inputs,
// compared as files, whatever their spelling), an existing file unless
// overwrite (ErrExists), and, by wire.CreateOutput, a link, a named pipe, a
// device, a folder and a file of more than one name.
func Write(path string, inputs []string, overwrite bool, write func(io.Writer) error) (string, int64, error) {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	if strings.TrimSpace(path) == "" {
		return path, 0, errors.New("no file named")
	}
	if st, err := os.Stat(path); err == nil {
		for _, in := range inputs {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return path, 0, &fs.PathError{Op: "write", Path: path, Err: ErrInput}
			}
		}
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return path, 0, &fs.PathError{Op: "write", Path: path, Err: ErrExists}
	}
	f, err := wire.CreateOutput(path, false)
	if err != nil {
		return path, 0, err
	}
	cw := &counter{w: f}
	err = write(cw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, cw.n, err
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Export is how w writes (the command plugs in its writers): a request as
// `inspect --json --redact` writes it, findings as `check --json` does. A
// nil one says this build does not export it.
type Export struct {
	Request  func(w io.Writer, r *wire.Request) error
	Findings func(w io.Writer, fs []audit.Finding) error
}
