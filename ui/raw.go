package ui

// The Raw JSON view: the request body as recorded, or wirelens's model of it.

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
	req    int
	loaded bool // body holds request req
	body   *content
}

// rawView is the Raw JSON view as the model stands.
func (m *Model) rawView() rawView {
	c := m.cur()
	return rawView{st: m.st, req: c, loaded: m.rawKey == c && (m.raw.Text != "" || m.raw.Key != ""), body: &m.raw}
}

// Render draws the view in a w×h box.
func (p rawView) Render(w, h int) []string {
	st := p.st
	c := p.req
	if c < 0 {
		return widget.Box(st, st.Header.Render("Raw JSON"), nil, w, h, true)
	}
	title := "Raw JSON · #" + strconv.Itoa(c+1)
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
	if c < 0 || c == m.rawKey {
		return nil
	}
	m.rawKey = c
	m.rawGen++
	gen := m.rawGen
	r := m.reqs[c].req
	return []tea.Cmd{func() tea.Msg {
		text, note := render.RawBody(&r)
		return rawMsg{gen: gen, req: c, text: text, note: note}
	}}
}

func (m *Model) onRaw(msg rawMsg) tea.Cmd {
	if msg.gen != m.rawGen {
		return nil
	}
	jobs := m.raw.Set(1, msg.note, msg.text, nil, nil, false, m.w-2, "json")
	return tea.Batch(jobCmds(jobs)...)
}
