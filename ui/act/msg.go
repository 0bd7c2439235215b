package act

// The answers of the actions' commands, which the viewer applies: a
// message for its status line and a command for Bubble Tea.

import (
	"errors"
	"io"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/wire/scan"
)

// Msg is the answer of an action's command: what the status line says
// ("" leaves it), and what Bubble Tea is to do next (nil: nothing).
type Msg interface {
	Status() string
	Cmd() tea.Cmd
}

// Copied is text for the clipboard, made safe (Text, Lines, JSON), and
// what it is.
type Copied struct{ Text, What string }

// MaxClipboard is the most Copied puts on the clipboard: an OSC 52 is the
// text in base64 in one escape sequence, and terminals drop (or choke on)
// long ones.
const MaxClipboard = 1 << 20

func (c Copied) Status() string {
	if len(c.Text) > MaxClipboard {
		return "not copied: " + c.What + " is " + strconv.Itoa(len(c.Text)) + " bytes, more than the clipboard takes (1 MiB); o opens it in $PAGER, w writes it"
	}
	return "copied " + c.What + ": " + strconv.Itoa(len(c.Text)) + " bytes to the clipboard, secrets masked, hazards shown"
}

// Cmd sets the clipboard through OSC 52 (nothing past MaxClipboard).
func (c Copied) Cmd() tea.Cmd {
	if len(c.Text) > MaxClipboard {
		return nil
	}
	return tea.SetClipboard(c.Text)
}

// Opened is a program to run on a text (o, e).
type Opened struct{ Open *Open }

func (o Opened) Status() string { return "" }

// Cmd hands the terminal to the program; Done says what came of it.
func (o Opened) Cmd() tea.Cmd { return tea.Exec(o.Open, o.Done) }

// Done is what the status line says when the program has ended.
func (o Opened) Done(err error) tea.Msg {
	if err != nil {
		return Done("could not open: " + err.Error())
	}
	return Done(o.Open.Name() + " closed; its temporary file is removed")
}

// Done is an outcome to say in the status line.
type Done string

func (d Done) Status() string { return scan.VisibleLine(string(d)) }
func (d Done) Cmd() tea.Cmd   { return nil }

// Written is what w wrote, or why it did not.
type Written struct {
	Path, What string
	N          int64
	Err        error
}

// Exists reports whether the file named exists, and was left as it is.
func (w Written) Exists() bool { return errors.Is(w.Err, ErrExists) }

func (w Written) Status() string {
	if w.Err != nil {
		return "not written: " + scan.VisibleLine(w.Err.Error())
	}
	return "wrote " + strconv.FormatInt(w.N, 10) + " bytes to " + scan.VisibleLine(w.Path) + ": " + w.What
}

func (w Written) Cmd() tea.Cmd { return nil }

// Pending is the export a write prompt names a file for: what it is, the
// files the viewer reads (never written), and its writer.
type Pending struct {
	What   string
	Inputs []string
	Write  func(io.Writer) error
	// Confirm is the file named that exists: enter on the same name
	// again writes over it.
	Confirm string
}

// Label is the write prompt's label: what it writes, or, once the file
// named exists (kind "overwrite"), that enter writes over it.
func (p Pending) Label(kind string) string {
	switch kind {
	case "write":
		return "write " + p.What + " to: "
	case "overwrite":
		return "exists; enter overwrites it: "
	}
	return ""
}

// Cmd writes to path (over an existing file only when it is the one
// confirmed), in a command.
func (p Pending) Cmd(path string) tea.Cmd {
	overwrite := path == p.Confirm && p.Confirm != ""
	return func() tea.Msg {
		at, n, err := Write(path, p.Inputs, overwrite, p.Write)
		return Written{Path: at, What: p.What, N: n, Err: err}
	}
}
