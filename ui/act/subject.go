package act

// What the action keys act on, and the commands they give.

import (
	"io"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Subject is what an action key acts on: its name for the status line, the
// function that makes its text, safe (it runs in a command), and the
// extension of a file of it. A nil Text is nothing to act on.
type Subject struct {
	What string
	Text func() string
	Ext  string
}

// RawJSON is request r's body as the Raw view has it (render.RawBody: read
// back in the command), made safe by JSON; n is its number in the list.
func RawJSON(r wire.Request, n int) Subject {
	return Subject{What: "the raw JSON of request #" + strconv.Itoa(n), Ext: ".json",
		Text: func() string { t, _ := render.RawBody(&r); return JSON(t) }}
}

// Segment is the text of segment id of request n as the content pane has
// it: masked with the secrets the loader found in it (looking for them
// again would cost as much as the loading did: redact's search takes
// seconds on a megabyte holding thousands of keys), its hazards made
// visible, both in the command (a copy of the segment, not made in
// Update).
func Segment(id string, n int, text string, secrets []redact.Secret) Subject {
	return Subject{What: scan.VisibleLine(id) + " of #" + strconv.Itoa(n), Ext: ".txt",
		Text: func() string { return scan.Visible(redact.Blank(text, secrets)) }}
}

// Rows is the rows of a table view, or its row sel alone when sel >= 0.
func Rows(view string, rows []string, sel int) Subject {
	what := strconv.Itoa(len(rows)) + " rows of " + view
	if sel >= 0 && sel < len(rows) {
		rows, what = rows[sel:sel+1], "row "+strconv.Itoa(sel+1)+" of "+view
	}
	if len(rows) == 0 {
		return Subject{}
	}
	return Subject{What: what, Ext: ".txt", Text: func() string { return Lines(rows) }}
}

// Copy is the command of y and Y: the text for the clipboard.
func (s Subject) Copy() tea.Cmd {
	return func() tea.Msg { return Copied{Text: s.Text(), What: s.What} }
}

// Open is the command of o ($PAGER, less when unset) and e (editor:
// $EDITOR, vi).
func (s Subject) Open(editor bool) tea.Cmd {
	env, fallback := "PAGER", "less"
	if editor {
		env, fallback = "EDITOR", "vi"
	}
	return func() tea.Msg { return (&Open{Env: env, Fallback: fallback, Text: s.Text(), Ext: s.Ext}).Msg() }
}

// OfRequest is the export of request r (n in the list) and the name
// suggested for it; a zero Pending when the export has no request writer.
func (ex Export) OfRequest(r wire.Request, n int, inputs []string) (Pending, string) {
	if ex.Request == nil {
		return Pending{}, ""
	}
	return Pending{What: "request #" + strconv.Itoa(n) + " (inspect --json --redact)", Inputs: inputs,
		Write: func(w io.Writer) error { return ex.Request(w, &r) }}, "wirelens-request-" + strconv.Itoa(n) + ".json"
}

// OfFindings is the export of findings and the name suggested for it; a
// zero Pending when the export has no findings writer.
func (ex Export) OfFindings(fs []audit.Finding, inputs []string) (Pending, string) {
	if ex.Findings == nil {
		return Pending{}, ""
	}
	return Pending{What: strconv.Itoa(len(fs)) + " findings (check --json)", Inputs: inputs,
		Write: func(w io.Writer) error { return ex.Findings(w, fs) }}, "wirelens-findings.json"
}
