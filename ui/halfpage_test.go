package ui

import (
	"strconv"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestHalfPageKeys: ctrl+d and ctrl+u move half a page, as in less and vim
// (they moved a whole one), pgdn and pgup a whole one: in the request list
// and in the Findings table.
func TestHalfPageKeys(t *testing.T) {
	var reqs []wire.Request
	for i := range 60 {
		reqs = append(reqs, testReq("m", i+1, wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages,
			Role: "user", Type: "text", Text: "run rm -rf / now\u202e " + strconv.Itoa(i)}))
	}
	m := startModel(t, Options{Requests: reqs, Analysis: DefaultAnalysis()}, 120, 40)
	m.focus = focusList
	page := m.listHeight()
	for _, step := range []struct {
		key  string
		want int
	}{{"ctrl+d", page / 2}, {"ctrl+d", 2 * (page / 2)}, {"ctrl+u", page / 2}, {"pgdown", page/2 + page}, {"pgup", page / 2}} {
		pressKeys(t, m, step.key)
		if m.list.sel != step.want {
			t.Fatalf("%s in the request list (a page is %d rows): row %d, want %d", step.key, page, m.list.sel, step.want)
		}
	}
	pressKeys(t, m, "3")
	if len(m.shownFindings()) < 40 {
		t.Fatalf("%d findings: not enough to page", len(m.shownFindings()))
	}
	rows, from := m.tableRows(), m.table.Sel // the selected request's first finding
	pressKeys(t, m, "ctrl+d")
	if m.table.Sel != from+rows/2 {
		t.Fatalf("ctrl+d in the Findings table (%d rows shown) from row %d: row %d, want %d", rows, from, m.table.Sel, from+rows/2)
	}
	pressKeys(t, m, "ctrl+u")
	if m.table.Sel != from {
		t.Fatalf("ctrl+u in the Findings table: row %d, want %d", m.table.Sel, from)
	}
}
