package ui

// The Findings view: the audit of `check` over every request.

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/wire"
)

func (m *Model) renderFindings(h int) []string {
	st := m.st
	sw := max(14, min(32, m.w/4))
	rw := max(12, min(22, m.w/6))
	fs := m.findings
	rowAt := func(i int) string {
		f := fs[i]
		sev := st.Low
		switch f.Severity {
		case "high":
			sev = st.High
		case "medium":
			sev = st.Medium
		}
		return sev.Render(uiPad(strings.ToUpper(f.Severity), 8)) + uiPad(wire.VisibleLine(f.Rule), rw) +
			uiPad("#"+itoa(f.Request+1), 6) + uiPad(wire.VisibleLine(f.Segment), sw) + uiPad("@"+itoa(f.Offset), 8) +
			wire.VisibleLine(f.Message)
	}
	empty := "no findings"
	switch {
	case m.opts.Analysis.Findings == nil:
		empty = "findings come from the audit of `wirelens check`, which this build does not provide"
	case m.analysing || !m.anaDone:
		empty = "analysing…"
	}
	head := uiPad("sev", 8) + uiPad("rule", rw) + uiPad("req", 6) + uiPad("segment", sw) + uiPad("offset", 8) + "message"
	var detail []string
	if m.tableSel < len(fs) {
		f := fs[m.tableSel]
		for _, l := range strings.Split(ansi.Wordwrap(wire.VisibleLine(f.Message), max(20, m.w-4), " "), "\n") {
			if len(detail) < 2 {
				detail = append(detail, l)
			}
		}
		if f.Excerpt != "" {
			detail = append(detail, st.Muted.Render("excerpt: ")+wire.VisibleLine(f.Excerpt))
		}
	}
	return m.tableBox("Findings · "+itoa(len(m.findings)), "  "+head, len(fs), rowAt, h, empty, detail)
}

// uiSortFindings orders findings by request, then most severe first.
func uiSortFindings(fs []Finding) []Finding {
	out := append([]Finding(nil), fs...)
	rank := func(s string) int {
		switch s {
		case "high":
			return 0
		case "medium":
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Request != out[j].Request {
			return out[i].Request < out[j].Request
		}
		return rank(out[i].Severity) < rank(out[j].Severity)
	})
	return out
}
