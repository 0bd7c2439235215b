package ui

import (
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/wire"
)

// The content panes (the selected segment, the Raw view) are drawn by
// package render; these are its types under the names the viewer uses.
type (
	content        = render.Content
	mark           = render.Mark
	contentPrepMsg = render.PrepMsg
	contentLitMsg  = render.LitMsg
)

// runeBoundary moves i forward to the next UTF-8 boundary of s.
func runeBoundary(s string, i int) int { return render.RuneBoundary(s, i) }

// The helpers the viewer's tables and titles share with package render.
func pad(s string, w int) string                        { return render.Pad(s, w) }
func plural(n int, what string) string                  { return render.Plural(n, what) }
func shortNum(n int) string                             { return render.ShortNum(n) }
func shortSize(n int) string                            { return render.ShortSize(n) }
func trustBadge(st *themes.Styles, t wire.Trust) string { return render.TrustBadge(st, t) }

// fit cuts or pads a styled line to exactly w cells (cells.Fit).
func fit(s string, w int) string { return cells.Fit(s, w) }

// contentPane is the content of the selected segment: the shown text (its
// scroll and highlighting live in body, which the root owns) under a title
// that says what the segment is.
type contentPane struct {
	st      *themes.Styles
	body    *content
	seg     *wire.Segment // nil when nothing is selected
	tok     int
	loading bool
	focused bool
}

// contentPane is the content pane as the model stands.
func (m *Model) contentPane() contentPane {
	p := contentPane{st: m.st, body: &m.body, loading: m.loading, focused: m.focus == focusContent}
	if c, si := m.cur(), m.curSeg(); si >= 0 {
		p.seg, p.tok = &m.reqs[c].req.Segments[si], m.reqs[c].segTok[si]
	}
	return p
}

// Render draws the content in a w×h box.
func (p contentPane) Render(w, h int) []string {
	st := p.st
	title := "content"
	var lines []string
	if s := p.seg; s != nil {
		title = render.ContentTitle(s, p.tok, p.body.LitCovers(h-2), p.body.Progress(h-2))
		lines = p.body.Render(st, w-2, h-2)
		if s.Text == "" && len(lines) > 0 {
			lines[0] = st.Muted.Render("(empty)")
		}
	} else if p.loading {
		lines = []string{st.Muted.Render("loading… the first request shows as soon as it is read")}
	}
	return box(st, st.Header.Render(title), lines, w, h, p.focused)
}
