package render

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
)

// TestServerRun: the first row of a server's run heads it with the run's
// length, the others hang under it; the first row shown heads its run too
// when the list is scrolled into it; the host's tools head nothing.
func TestServerRun(t *testing.T) {
	tool := func(name, server string) wire.Segment {
		return wire.Segment{Channel: wire.ChannelTools, Kind: wire.KindToolSchema, Label: name, Server: server, Trust: wire.Untrusted}
	}
	segs := []wire.Segment{tool("Read", ""), tool("mcp__a__x", "a"), tool("mcp__a__y", "a"), tool("mcp__a__z", "a"),
		tool("Bash", ""), tool("mcp__b__q", "b")}
	segs[0].Trust, segs[4].Trust = wire.Trusted, wire.Trusted
	at := func(j int) int { return j }
	want := []int{0, 3, 0, 0, 0, 1}
	for k, w := range want {
		if got := ServerRun(segs, at, len(segs), k, 0); got != w {
			t.Errorf("row %d: %d, want %d", k, got, w)
		}
	}
	// Scrolled to row 2: it heads a's run, all three of it.
	if got := ServerRun(segs, at, len(segs), 2, 2); got != 3 {
		t.Errorf("scrolled: %d, want 3", got)
	}
	st := themes.New(themes.Mono)
	head, _ := SegmentRows(st, &segs[1], SegmentMarks{Break: -1, ServerTools: 3}, 80)
	under, _ := SegmentRows(st, &segs[2], SegmentMarks{Break: -1}, 80)
	if !strings.Contains(head, "UNTRUSTED") || !strings.Contains(head, "MCP a · 3 tools › x") || !strings.Contains(under, "└ y") {
		t.Errorf("rows %q / %q", head, under)
	}
}
