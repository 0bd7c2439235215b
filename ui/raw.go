package ui

// The Raw JSON view: the request body as recorded, or wirelens's model of it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
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
	return rawView{st: m.st, req: c, loaded: m.rawKey == c && (m.raw.text != "" || m.raw.key != ""), body: &m.raw}
}

// Render draws the view in a w×h box.
func (p rawView) Render(w, h int) []string {
	st := p.st
	c := p.req
	if c < 0 {
		return box(st, st.Header.Render("Raw JSON"), nil, w, h, true)
	}
	title := "Raw JSON · #" + strconv.Itoa(c+1)
	if !p.loaded {
		return box(st, st.Header.Render(title), []string{st.Muted.Render("reading…")}, w, h, true)
	}
	title += " · " + scan.VisibleLine(p.body.key) + " · " + strconv.Itoa(p.body.progress(h-2)) + "%"
	return box(st, st.Header.Render(title), p.body.render(st, w-2, h-2), w, h, true)
}

type rawMsg struct {
	gen  int
	req  int
	text string
	note string
}

// maxRaw is the largest raw body read back from a file.
const maxRaw = 32 << 20

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
		text, note := rawText(&r)
		return rawMsg{gen: gen, req: c, text: text, note: note}
	}}
}

// rawText reads the request's body back from its file (pretty-printed when
// it is JSON; decode.ReadBody has masked its credentials), or, when it
// cannot be read again (standard input, a built request, a file that
// changed), renders wirelens's model of the request as JSON and says why.
func rawText(r *wire.Request) (string, string) {
	body, err := decode.ReadBody(r, maxRaw)
	if err == nil {
		where := fmt.Sprintf("body from %s, bytes %d-%d", r.Source, r.Offset, r.Offset+r.Length)
		var pretty bytes.Buffer
		if json.Indent(&pretty, body, "", "  ") == nil {
			return pretty.String(), where
		}
		return string(body), where + " (not JSON)"
	}
	note := "the body is not on disk: wirelens's model of the request"
	if !errors.Is(err, decode.ErrNotOnDisk) {
		note = err.Error() + ": wirelens's model of the request"
	}
	type segJSON struct {
		ID       string        `json:"id"`
		Channel  string        `json:"channel"`
		Role     string        `json:"role"`
		Kind     string        `json:"kind"`
		Trust    string        `json:"trust"`
		Envelope string        `json:"envelope"`
		Label    string        `json:"label,omitempty"`
		Text     string        `json:"text"`
		Escapes  []wire.Escape `json:"escapes,omitempty"`
	}
	out := struct {
		Source   string      `json:"source"`
		Index    int         `json:"index"`
		Format   string      `json:"format"`
		Model    string      `json:"model"`
		Segments []segJSON   `json:"segments"`
		Usage    *wire.Usage `json:"usage,omitempty"`
	}{Source: r.Source, Index: r.Index, Format: string(r.Format), Model: r.Model, Usage: r.Usage}
	for _, s := range r.Segments {
		out.Segments = append(out.Segments, segJSON{s.ID, string(s.Channel), s.Role, string(s.Kind), string(s.Trust), s.Envelope, s.Label, s.Text, s.Escapes})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
	return b.String(), note
}

func (m *Model) onRaw(msg rawMsg) tea.Cmd {
	if msg.gen != m.rawGen {
		return nil
	}
	jobs := m.raw.set(1, msg.note, msg.text, nil, nil, false, m.w-2, "json")
	return tea.Batch(jobCmds(jobs)...)
}
