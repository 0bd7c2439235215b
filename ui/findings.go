package ui

// The Findings view: the audit of `check` over every request.

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// findingRow is a row of the Findings view: a finding of the audit and the
// index of its request in the viewer's list (the finding's own Request
// counts within its source).
type findingRow struct {
	req int
	audit.Finding
	// server is the MCP server of the tool the finding is in, "" none.
	server string
}

// findingServer is the MCP server of the tool a finding is about or in.
func (m *Model) findingServer(f *findingRow) string {
	if f.Tool != nil {
		return f.Tool.Server
	} else if s := m.segIndex(f.req, f.Segment); s >= 0 {
		return m.reqs[f.req].req.Segments[s].Server
	}
	return ""
}

// nextServer filters the Findings view by the next MCP server, or none.
func (m *Model) nextServer() {
	var servers []string
	for _, f := range m.findings {
		if f.server != "" && !slices.Contains(servers, f.server) {
			servers = append(servers, f.server)
		}
	}
	k := slices.Index(servers, m.findServer) // -1 for all
	m.findServer, m.status, m.table = "", "findings of every source", widget.Cursor{}
	if k+1 < len(servers) {
		m.findServer, m.status = servers[k+1], "findings of MCP server "+scan.VisibleLine(servers[k+1])
	}
}

// findingRows lists the findings of every request (findings[i] are those of
// request i) by request, most severe first.
func findingRows(findings [][]audit.Finding) []findingRow {
	var out []findingRow
	for i, fs := range findings {
		from := len(out)
		for _, f := range fs {
			out = append(out, findingRow{req: i, Finding: f})
		}
		rows := out[from:]
		sort.SliceStable(rows, func(a, b int) bool { return rows[a].Severity.Rank() > rows[b].Severity.Rank() })
	}
	return out
}

// findingsView is the Findings view.
type findingsView struct {
	st       *themes.Styles
	findings []findingRow
	server   string // the MCP server the rows are filtered by, "" none
	audit    bool   // an audit is plugged in
	pending  bool   // it has not answered yet
	cur      widget.Cursor
}

// findingsView is the Findings view as the model stands.
func (m *Model) findingsView() findingsView {
	return findingsView{st: m.st, findings: m.shownFindings(), server: m.findServer, audit: m.opts.Analysis.Findings != nil,
		pending: m.analysing || !m.anaDone, cur: m.table}
}

// Render draws the view in a w×h box.
func (p findingsView) Render(w, h int) []string {
	st := p.st
	fs := p.findings
	// The rule's and the segment's columns take what they need, the
	// message at least half of what is left.
	rw := render.ColumnWidth(len(fs), p.cur.Top, func(i int) string { return fs[i].Rule }, 12, 30)
	sw := render.ColumnWidth(len(fs), p.cur.Top, func(i int) string { return fs[i].Segment }, 14, max(14, (w-4-8-rw-6-8)/2))
	rowAt := func(i int) string {
		f := fs[i]
		sev := st.Low
		switch f.Severity {
		case audit.SeverityHigh:
			sev = st.High
		case audit.SeverityMedium:
			sev = st.Medium
		}
		return sev.Render(pad(strings.ToUpper(string(f.Severity)), 8)) + pad(scan.VisibleLine(f.Rule), rw) +
			pad("#"+strconv.Itoa(f.req+1), 6) + pad(scan.VisibleLine(f.Segment), sw) + pad("@"+strconv.Itoa(f.Offset), 8) +
			scan.VisibleLine(f.Message)
	}
	empty := "no findings"
	switch {
	case !p.audit:
		empty = "findings come from the audit of `wirelens check`, which this build does not provide"
	case p.pending:
		empty = "analysing…"
	}
	head := pad("sev", 8) + pad("rule", rw) + pad("req", 6) + pad("segment", sw) + pad("offset", 8) + "message"
	var detail []string
	if p.cur.Sel < len(fs) {
		f := fs[p.cur.Sel]
		for _, l := range strings.Split(ansi.Wordwrap(scan.VisibleLine(f.Message), max(20, w-4), " "), "\n") {
			if len(detail) < 2 {
				detail = append(detail, l)
			}
		}
		if f.Requests != nil && f.Requests.Count > 1 {
			detail = append(detail, st.Muted.Render("in "+strconv.Itoa(f.Requests.Count)+" requests from this one"))
		}
		if f.Excerpt != "" {
			detail = append(detail, st.Muted.Render("excerpt: ")+scan.VisibleLine(f.Excerpt))
		}
	}
	title := "Findings · " + strconv.Itoa(len(fs))
	if p.server != "" {
		title += " · MCP server " + scan.VisibleLine(p.server) + " (s: next)"
	}
	return widget.Table{St: st, Cur: p.cur, Title: title, Head: "  " + head, Count: len(fs), Row: rowAt,
		Empty: empty, Detail: detail}.Render(w, h)
}
