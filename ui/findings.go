package ui

// The Findings view: the audit of `check` over every request.

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire/scan"
)

// findingsView is the Findings view.
type findingsView struct {
	st       *themes.Styles
	findings []Finding
	audit    bool // an audit is plugged in
	pending  bool // it has not answered yet
	cur      tableCursor
}

// findingsView is the Findings view as the model stands.
func (m *Model) findingsView() findingsView {
	return findingsView{st: m.st, findings: m.findings, audit: m.opts.Analysis.Findings != nil,
		pending: m.analysing || !m.anaDone, cur: m.table}
}

// Render draws the view in a w×h box.
func (p findingsView) Render(w, h int) []string {
	st := p.st
	sw := max(14, min(32, w/4))
	rw := max(12, min(22, w/6))
	fs := p.findings
	rowAt := func(i int) string {
		f := fs[i]
		sev := st.Low
		switch f.Severity {
		case "high":
			sev = st.High
		case "medium":
			sev = st.Medium
		}
		return sev.Render(uiPad(strings.ToUpper(f.Severity), 8)) + uiPad(scan.VisibleLine(f.Rule), rw) +
			uiPad("#"+itoa(f.Request+1), 6) + uiPad(scan.VisibleLine(f.Segment), sw) + uiPad("@"+itoa(f.Offset), 8) +
			scan.VisibleLine(f.Message)
	}
	empty := "no findings"
	switch {
	case !p.audit:
		empty = "findings come from the audit of `wirelens check`, which this build does not provide"
	case p.pending:
		empty = "analysing…"
	}
	head := uiPad("sev", 8) + uiPad("rule", rw) + uiPad("req", 6) + uiPad("segment", sw) + uiPad("offset", 8) + "message"
	var detail []string
	if p.cur.sel < len(fs) {
		f := fs[p.cur.sel]
		for _, l := range strings.Split(ansi.Wordwrap(scan.VisibleLine(f.Message), max(20, w-4), " "), "\n") {
			if len(detail) < 2 {
				detail = append(detail, l)
			}
		}
		if f.Excerpt != "" {
			detail = append(detail, st.Muted.Render("excerpt: ")+scan.VisibleLine(f.Excerpt))
		}
	}
	return table{st: st, cur: p.cur, title: "Findings · " + itoa(len(fs)), head: "  " + head, count: len(fs), row: rowAt,
		empty: empty, detail: detail}.Render(w, h)
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
