package ui

// The Raw JSON view: the request body as recorded, or wirelens's model of
// it; and the Response view, the response recorded with it, in the same
// pane.

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/scan"
)

// rawView is the Raw JSON view of request req (-1 none): the body the root
// read back in a command, shown (scroll and highlighting) in body.
type rawView struct {
	st     *themes.Styles
	title  string
	req    int
	loaded bool // body holds request req
	body   *content
}

// rawView is the Raw JSON view as the model stands.
func (m *Model) rawView() rawView {
	c := m.cur()
	title := "Raw JSON"
	if m.view == viewResponse {
		title = "Response"
	}
	return rawView{st: m.st, title: title, req: c, loaded: m.rawKey == c && m.rawOf == m.view && (m.raw.Text != "" || m.raw.Key != ""), body: &m.raw}
}

// Render draws the view in a w×h box.
func (p rawView) Render(w, h int) []string {
	st := p.st
	c := p.req
	if c < 0 {
		return widget.Box(st, st.Header.Render(p.title), nil, w, h, true)
	}
	title := p.title + " · #" + strconv.Itoa(c+1)
	if !p.loaded {
		return widget.Box(st, st.Header.Render(title), []string{st.Muted.Render("reading…")}, w, h, true)
	}
	title += " · " + scan.VisibleLine(p.body.Key) + " · " + strconv.Itoa(p.body.Progress(h-2)) + "%"
	return widget.Box(st, st.Header.Render(title), p.body.Render(st, w-2, h-2), w, h, true)
}

type rawMsg struct {
	gen  int
	req  int
	text string
	note string
}

func (m *Model) startRaw() []tea.Cmd {
	c := m.cur()
	if c < 0 || c == m.rawKey && m.rawOf == m.view {
		return nil
	}
	m.rawKey, m.rawOf = c, m.view
	m.rawGen++
	gen, doc := m.rawGen, render.RawBody
	if m.view == viewResponse {
		doc = render.ResponseDoc
	}
	r := m.reqs[c].req
	return []tea.Cmd{func() tea.Msg {
		text, note := doc(&r)
		return rawMsg{gen: gen, req: c, text: text, note: note}
	}}
}

func (m *Model) onRaw(msg rawMsg) tea.Cmd {
	if msg.gen != m.rawGen {
		return nil
	}
	lang := "json"
	if m.rawOf == viewResponse {
		lang = "text" // no lexer: a document, not JSON
	}
	jobs := m.raw.Set(1, msg.note, msg.text, nil, nil, false, m.w-2, lang)
	return tea.Batch(jobCmds(jobs)...)
}
