package ui

// The action keys (package act does the work): y copies what is selected
// and Y the request's raw JSON (OSC 52), o and e open what the view shows
// in $PAGER and $EDITOR, w writes the request or the findings to a file
// named on the prompt line. Each text is made, sanitised, in a command.

import (
	"io"
	"slices"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/act"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// onActionKey answers y, Y, o, e and w.
func (m *Model) onActionKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	if matches(k, km.Export) {
		return m.openWrite()
	}
	what, text, ext := m.subject(matches(k, km.Copy), matches(k, km.CopyRaw))
	switch {
	case text == nil:
		m.status = "nothing here to copy or open (y, o and e act on a segment, a table row, the Raw view)"
		return nil
	case matches(k, km.Copy, km.CopyRaw):
		return func() tea.Msg { return act.Copied{Text: text(), What: what} }
	}
	env, fallback := "PAGER", "less"
	if matches(k, km.Edit) {
		env, fallback = "EDITOR", "vi"
	}
	return func() tea.Msg { return (&act.Open{Env: env, Fallback: fallback, Text: text(), Ext: ext}).Msg() }
}

// subject is what y (row: the selected row of a table), Y (raw: the raw
// JSON) or o and e act on in the view: its name for the status line, a
// function making its text, safe, in a command (nil when there is none),
// and the extension of a file of it.
func (m *Model) subject(row, raw bool) (string, func() string, string) {
	c, s := m.cur(), m.curSeg()
	switch {
	case c >= 0 && (raw || m.view == viewRaw):
		r := m.reqs[c].req
		return "the raw JSON of request #" + strconv.Itoa(c+1), func() string { t, _ := render.RawBody(&r); return act.JSON(t) }, ".json"
	case m.view == viewWire && s >= 0:
		text := maskSecrets(m.reqs[c].req.Segments[s].Text, m.reqs[c].segSecrets[s])
		return scan.VisibleLine(m.reqs[c].req.Segments[s].ID) + " of #" + strconv.Itoa(c+1), func() string { return act.Text(text) }, ".txt"
	case m.view == viewEscapes || m.view == viewFindings || m.view == viewCache:
		var rows []string
		if m.view == viewFindings {
			for _, f := range m.shownFindings() {
				rows = append(rows, act.FindingLine(f.Finding, f.req))
			}
		} else {
			for _, i := range m.shownRows(m.view, map[viewKind]int{viewEscapes: len(m.escRows()), viewCache: len(m.reqs)}[m.view]) {
				rows = append(rows, m.rowText(m.view, i))
			}
		}
		what := strconv.Itoa(len(rows)) + " rows of " + viewNames[m.view]
		if row && m.table.Sel < len(rows) {
			rows, what = rows[m.table.Sel:m.table.Sel+1], "row "+strconv.Itoa(m.table.Sel+1)+" of "+viewNames[m.view]
		}
		if len(rows) > 0 {
			return what, func() string { return act.Lines(rows) }, ".txt"
		}
	}
	return "", nil, ""
}

// openWrite opens the write prompt for the request (the findings shown in
// the Findings view), a file name suggested.
func (m *Model) openWrite() tea.Cmd {
	ex, c, name := m.opts.Export, m.cur(), "wirelens-findings.json"
	var w act.Pending
	switch {
	case m.view == viewFindings && ex.Findings != nil:
		var fs []audit.Finding
		for _, f := range m.shownFindings() {
			fs = append(fs, f.Finding)
		}
		w.What, w.Write = strconv.Itoa(len(fs))+" findings (check --json)", func(out io.Writer) error { return ex.Findings(out, fs) }
	case m.view != viewFindings && c >= 0 && ex.Request != nil:
		r := m.reqs[c].req
		name = "wirelens-request-" + strconv.Itoa(c+1) + ".json"
		w.What, w.Write = "request #"+strconv.Itoa(c+1)+" (inspect --json --redact)", func(out io.Writer) error { return ex.Request(out, &r) }
	default:
		m.status = "nothing to write here (w writes the selected request, or the findings in Findings)"
		return nil
	}
	for i := range m.reqs {
		if src := m.reqs[i].req.Source; !slices.Contains(w.Inputs, src) {
			w.Inputs = append(w.Inputs, src)
		}
	}
	m.wr = w
	m.pr.Open("write", name, m.history)
	return nil
}

// onWritePrompt ends the write prompt: enter writes (over an existing file
// only when enter names it again), esc writes nothing.
func (m *Model) onWritePrompt(enter bool) tea.Cmd {
	m.pr.Active = false
	if !enter {
		m.status, m.wr = "nothing written", act.Pending{}
		return nil
	}
	m.history.Add("write", string(m.pr.Text))
	return m.wr.Cmd(string(m.pr.Text))
}

// onActed applies an action's answer: a file that exists asks again.
func (m *Model) onActed(msg act.Msg) tea.Cmd {
	if w, ok := msg.(act.Written); ok && w.Exists() {
		m.pr.Open("overwrite", w.Path, m.history)
		m.wr.Confirm = w.Path
		return nil
	}
	if s := msg.Status(); s != "" {
		m.status = s
	}
	return msg.Cmd()
}
