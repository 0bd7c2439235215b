package ui

// The action keys (package act does the work): y copies what is selected
// and Y the request's raw JSON (OSC 52), o and e open what the view shows
// in $PAGER and $EDITOR, w writes the request or the findings to a file
// named on the prompt line. Each text is made, sanitised, in a command.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/ui/act"
	"github.com/wirelens/wirelens/wire/audit"
)

// onActionKey answers y, Y, o, e and w.
func (m *Model) onActionKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.keys
	if matches(k, km.Export) {
		return m.openWrite()
	}
	s := m.subject(matches(k, km.Copy), matches(k, km.CopyRaw))
	switch {
	case s.Text == nil:
		m.status = "nothing here to copy or open (y, o and e act on a segment, a table row, the Raw view)"
		return nil
	case matches(k, km.Copy, km.CopyRaw):
		return s.Copy()
	}
	return s.Open(matches(k, km.Edit))
}

// subject is what y (row: the selected row of a table), Y (raw: the raw
// JSON) or o and e act on in the view.
func (m *Model) subject(row, raw bool) act.Subject {
	c, s, sel := m.cur(), m.curSeg(), -1
	if row {
		sel = m.table.Sel
	}
	var rows []string
	switch {
	case c >= 0 && (raw || m.view == viewRaw):
		return act.RawJSON(m.reqs[c].req, c+1)
	case m.view == viewWire && s >= 0:
		return act.Segment(m.reqs[c].req.Segments[s].ID, c+1, m.reqs[c].req.Segments[s].Text, m.reqs[c].segSecrets[s])
	case m.view == viewFindings:
		for _, f := range m.shownFindings() {
			rows = append(rows, act.FindingLine(f.Finding, f.req))
		}
	case m.view == viewEscapes || m.view == viewCache:
		for _, i := range m.shownRows(m.view) {
			rows = append(rows, m.rowText(m.view, i))
		}
	}
	return act.Rows(viewNames[min(int(m.view), len(viewNames)-1)], rows, sel)
}

// openWrite opens the write prompt for the request (the findings shown in
// the Findings view), a file name suggested.
func (m *Model) openWrite() tea.Cmd {
	var inputs []string
	for i := range m.reqs {
		if src := m.reqs[i].req.Source; !slices.Contains(inputs, src) {
			inputs = append(inputs, src)
		}
	}
	var w act.Pending
	var name string
	switch c := m.cur(); {
	case m.view == viewFindings:
		// The filtered findings only here: another view writes a request.
		var fs []audit.Finding
		for _, f := range m.shownFindings() {
			fs = append(fs, f.Finding)
		}
		w, name = m.opts.Export.OfFindings(fs, inputs)
	case c >= 0:
		w, name = m.opts.Export.OfRequest(m.reqs[c].req, c+1, inputs)
	}
	if w.Write == nil {
		m.status = "nothing to write here (w writes the selected request, or the findings in Findings)"
		return nil
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
