package ui

import (
	"cmp"
	"slices"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
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
	return widget.Box(st, st.Header.Render(title), lines, w, h, p.focused)
}

// findingMarks are the audit's findings in segment s of request r, at the
// bytes each is about (render.FindingSpan), most severe first where two
// meet; nil when none.
func (m *Model) findingMarks(r, s int) []render.FindingMark {
	if r < 0 || s < 0 || r >= len(m.reqs) || m.perSeg[segKey{r, m.reqs[r].req.Segments[s].ID}] == 0 {
		return nil
	}
	seg := &m.reqs[r].req.Segments[s]
	var out []render.FindingMark
	for _, f := range m.allFindings {
		// Workspace text in the system prompt is about the whole segment:
		// its badge says so.
		if f.req == r && f.Segment == seg.ID && f.Rule != audit.RuleUntrustedInSystem {
			lo, hi := render.FindingSpan(seg.Text, f.Offset)
			if lo < hi {
				out = append(out, render.FindingMark{Start: lo, End: hi, Severity: string(f.Severity)})
			}
		}
	}
	// Ranges of one layer do not overlap: the most severe keeps its bytes.
	slices.SortStableFunc(out, func(a, b render.FindingMark) int { return cmp.Compare(a.Start, b.Start) })
	kept := out[:0]
	for _, f := range out {
		if k := len(kept) - 1; k >= 0 && f.Start < kept[k].End {
			if severity(f.Severity) > severity(kept[k].Severity) {
				kept[k] = f
			}
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

// severity ranks a severity's name: high 3, medium 2, low 1.
func severity(s string) int { return audit.Severity(s).Rank() }
