package render

// The Diff view's trust map: two requests' segments side by side by
// channel, each with its trust.

import (
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
)

// TrustItem is a segment of one side of the trust map and its tokens.
type TrustItem struct {
	Seg *wire.Segment
	Tok int
}

// TrustRow is one row of the trust map: a segment of one side (Seg), or a
// channel heading (Head).
type TrustRow struct {
	Head string
	TrustItem
}

// TrustRows lays two requests' segments (in cache order) out by channel,
// side by side, each channel under a heading with its count and tokens.
func TrustRows(a, b []TrustItem) [][2]*TrustRow {
	side := func(items []TrustItem) map[wire.Channel][]*TrustRow {
		out := map[wire.Channel][]*TrustRow{}
		for _, it := range items {
			out[it.Seg.Channel] = append(out[it.Seg.Channel], &TrustRow{TrustItem: it})
		}
		return out
	}
	head := func(ch wire.Channel, rs []*TrustRow) *TrustRow {
		t := 0
		for _, r := range rs {
			t += r.Tok
		}
		return &TrustRow{Head: string(ch) + " · " + Plural(len(rs), "segment") + " · " + ShortNum(t) + " tok"}
	}
	sa, sb := side(a), side(b)
	var rows [][2]*TrustRow
	for _, ch := range []wire.Channel{wire.ChannelTools, wire.ChannelSystem, wire.ChannelMessages} {
		la, lb := sa[ch], sb[ch]
		if len(la) == 0 && len(lb) == 0 {
			continue
		}
		rows = append(rows, [2]*TrustRow{head(ch, la), head(ch, lb)})
		for i := 0; i < max(len(la), len(lb)); i++ {
			var row [2]*TrustRow
			if i < len(la) {
				row[0] = la[i]
			}
			if i < len(lb) {
				row[1] = lb[i]
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// TrustMapRow draws one row of the trust map, the sides lw and rw cells
// wide with a rule between them.
func TrustMapRow(st *themes.Styles, row [2]*TrustRow, lw, rw int) string {
	cell := func(r *TrustRow, w int) string {
		switch {
		case r == nil:
			return cells.Fit("", w)
		case r.Head != "":
			return st.Accent.Render(cells.Fit("── "+r.Head+" ", w))
		}
		return TrustCell(st, r.Seg, r.Tok, w)
	}
	return cell(row[0], lw) + st.Subtle.Render("│") + cell(row[1], rw)
}
