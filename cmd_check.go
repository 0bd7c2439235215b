package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/provenance"
	"github.com/wirelens/wirelens/wire/recording"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newCheckCmd) }

// checkFlags are the flags of `wirelens check`.
type checkFlags struct {
	asJSON, asSARIF bool
	failOn          string
	workspace       string
	before, after   string
	rules           bool
	every           bool
	cache           bool   // --cache: the cache rules too
	maxReprocessed  string // --max-reprocessed
}

func newCheckCmd(app *App) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:         "check FILE... [--json | --sarif] [--fail-on SEV] [--workspace DIR]",
		Annotations: map[string]string{globalsAnnotation: viewerGlobals},
		Short:       "Report trust-boundary findings; exit 1 when any is at or above --fail-on",
		Long: `check audits every request of the given files for trust-boundary problems: workspace text in
the system channel (untrusted-in-system), envelope breakouts and forged authority markers in
untrusted text, bidi controls, Unicode tag smuggling, look-alike tags, invisible and control
characters, changing values in the cached prefix, workspace text pasted into a user message
without an envelope, MCP servers' tool definitions that carry instructions for the model
(tool-poisoning) and tool definitions that change within a session (tool-changed). Rule IDs and severities are listed by "wirelens check --rules".

Findings are printed grouped by request, most severe first, one line each, safe to print;
--json and --sarif (SARIF 2.1.0) are for scripts and code-scanning tools. A finding that
later requests of the same file carry again (the same segment, text and place) is listed
once, under the first request that carries it, with the number of requests that do
("requests": {"first": 3, "count": 40} in JSON and SARIF); --every-request lists it under
every request instead. SARIF locations name the line of the file that holds the flagged
text (the request's line when the text cannot be found in the file).

--workspace DIR judges every request by provenance: text of the workspace's files found on the
wire (after undoing line ends, entities, JSON escapes and stripped controls) becomes its own
segment, untrusted and labelled by path, so a workspace file pasted into the system channel is
untrusted-in-system whatever the agent; the user's agent files in HOME (--home, default $HOME)
are trust user. The exact matches of its AGENTS.md paragraphs, listing lines and skill
descriptions are still looked for in what provenance left trusted. A capture written by
"wirelens record" carries its own provenance record and needs no --workspace. The workspace is
only read.
It also names the tools of the MCP servers the workspace configures (.mcp.json, .cursor/mcp.json,
.vscode/mcp.json, .gemini/settings.json, .qwen/settings.json, .codex/config.toml, opencode.json).

--before A --after B compares two versions of the wire (for example built before and after a
patch with "wirelens build"): it lists the findings fixed and the findings introduced, and
exits 1 when a finding at or above --fail-on was introduced. A and B may name one request
(FILE@N).

Exit codes: 0 no finding at or above --fail-on (default high), 1 findings, 2 usage or input
errors (what could be read is still reported).`,
		Example: `  wirelens check request.json
  wirelens check --fail-on medium --json session.jsonl
  wirelens build . --layout legacy | wirelens check -
  wirelens check --sarif wire.json > wirelens.sarif
  wirelens check --before before.json --after after.json`,
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.asJSON, "json", false, "print JSON (the shape of CONTRACT.md)")
	fl.BoolVar(&f.asSARIF, "sarif", false, "print SARIF 2.1.0 for code-scanning tools")
	fl.StringVar(&f.failOn, "fail-on", "high", "exit 1 when a finding is at or above this severity: high, medium or low")
	fl.StringVar(&f.before, "before", "", "the wire before a change (FILE or FILE@N); use with --after")
	fl.StringVar(&f.after, "after", "", "the wire after a change (FILE or FILE@N); use with --before")
	fl.BoolVar(&f.rules, "rules", false, "list the rules, their severities and help, and exit")
	fl.BoolVar(&f.every, "every-request", false, "list a finding under every request that carries it, not once with a count")
	fl.BoolVar(&f.cache, "cache", false, "also the prompt-cache rules (unstable-prefix) over each FILE's sequence of requests")
	fl.StringVar(&f.maxReprocessed, "max-reprocessed", "1024", "with --cache: tokens (or a share such as 25%) of an earlier request a break may re-process")
	pf := addProvenanceFlags(cmd, app)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if f.rules {
			writeRules(app.Stdout)
			return nil
		}
		f.workspace = pf.workspace
		return runCheck(app, f, args)
	}
	return cmd
}

// writeRules prints the rule table, wrapped to the width help is: each
// rule's ID, severity and short text on its first lines (the text under
// its own column), its help below, indented.
func writeRules(w io.Writer) {
	width := helpWidth(w)
	var b strings.Builder
	for _, r := range audit.Rules {
		head := fmt.Sprintf("%-20s %-6s  ", r.ID, r.Severity)
		for _, l := range wrapItem(head, r.Short, width) {
			b.WriteString(l + "\n")
		}
		for _, l := range wrapWords(r.Help, width-4) {
			b.WriteString("    " + l + "\n")
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

// runCheck is `wirelens check`.
func runCheck(app *App, f checkFlags, args []string) error {
	failOn, ok := audit.ParseSeverity(f.failOn)
	if !ok {
		return usageError("--fail-on must be high, medium or low, not %q", f.failOn)
	}
	if f.asJSON && f.asSARIF {
		return usageError("--json and --sarif cannot be used together")
	}
	compare := f.before != "" || f.after != ""
	switch {
	case compare && (f.before == "" || f.after == ""):
		return usageError("--before and --after go together")
	case compare && len(args) > 0:
		return usageError("--before/--after take no FILE arguments (got %q)", args[0])
	case !compare && len(args) == 0:
		return usageError("check needs a FILE (or - for standard input), or --before A --after B")
	}
	aud, err := newAuditor(f.workspace)
	if err != nil {
		return err
	}
	if err := app.useWorkspaceServers(f.workspace); err != nil {
		return err
	}
	gate, err := newCacheGate(f)
	if err != nil {
		return err
	}
	if compare {
		return runCheckCompare(app, aud, f, failOn)
	}
	res := auditSources(app, aud, args, f.every, f.asSARIF, gate)
	res.observeVolatile()
	switch {
	case f.asJSON:
		sum := summarize(res.findings)
		sum.StableVolatile = res.stable
		err = writeJSON(app.Stdout, checkJSON{Findings: nonNil(res.findings), Summary: sum,
			Errors: errorsJSON(res.errs), Notes: res.notes})
	case f.asSARIF:
		res.alignNeedles()
		err = writeSARIF(app.Stdout, res.findings, nil, res.errs, findingLines(res.findings, res.needles))
	default:
		err = writeCheckText(app.Stdout, res, app.termTextFor(app.Stdout))
	}
	if err != nil {
		return err
	}
	return app.finish(res.errs, failCode(res.findings, failOn))
}

// newAuditor makes the auditor: the cache analysis's volatile finder and,
// with --workspace, the workspace's marks read with the build's collector.
func newAuditor(workspace string) (*audit.Auditor, error) {
	aud := audit.New()
	if workspace == "" {
		return aud, nil
	}
	in, closeIn, err := assemble.OpenInput(workspace, nil, nil, time.Now())
	if err != nil {
		return nil, usageError("--workspace: %v", err)
	}
	defer closeIn()
	b, err := assemble.Collect(in)
	if err != nil {
		return nil, usageError("--workspace: %v", err)
	}
	aud.Workspace = workspaceMarks(b)
	return aud, nil
}

// workspaceMarks turns a collected workspace into the audit's marks.
func workspaceMarks(b *assemble.Baseline) *audit.WorkspaceMarks {
	var agents []audit.WorkspaceFile
	for _, f := range b.AgentsMD {
		agents = append(agents, audit.WorkspaceFile{Path: f.Path, Text: f.Text})
	}
	var names []string
	for _, l := range strings.Split(b.Listing, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "[wirelens:") {
			names = append(names, t)
		}
	}
	var skills []audit.WorkspaceSkill
	for _, s := range b.Skills {
		skills = append(skills, audit.WorkspaceSkill{Name: s.Name, Description: s.Description})
	}
	return audit.NewWorkspaceMarks(agents, names, skills)
}

// checkResult is what check found in its sources.
type checkResult struct {
	requests int
	// every lists each request's findings apart; otherwise a finding that
	// later requests of its source carry again is kept once, under the
	// first, its Requests counting them.
	every    bool
	findings []audit.Finding
	// locate keeps needles: for each finding, the text at its place (a
	// short stretch of the segment around the flagged byte) and where its
	// request lies in its file, by which SARIF finds the line that holds it.
	locate  bool
	needles []needle
	// segAt indexes the segments of the request being audited by id
	// (reused from request to request).
	segAt map[string]int
	// distinct tells the distinct findings kept apart (audit.Distinct).
	distinct audit.Distinct
	// total counts the findings of every request, repeats included.
	total int
	// stable counts the volatile values seen the same in every request
	// that carried them (audit.ObserveVolatile), not reported.
	stable int
	errs   []error
	// notes are what a request said once of its source (the assumed trust
	// of provenance.AssumedNote), as "SOURCE: note".
	notes []string
	gate  *diff.Gate // check --cache, nil without
}

// audit counts r and adds its findings.
func (res *checkResult) audit(aud *audit.Auditor, r *wire.Request) {
	res.add(r, requestFindings(aud, r))
}

// requestFindings are the auditor's findings of r, with their tool diffs.
func requestFindings(aud *audit.Auditor, r *wire.Request) []audit.Finding {
	fs := aud.Audit(r)
	for k := range fs {
		fs[k].ToolChangeDiff(toolDiff)
	}
	return fs
}

// add counts r and adds its findings fs (requestFindings).
func (res *checkResult) add(r *wire.Request, fs []audit.Finding) {
	res.alignNeedles()
	res.requests++
	if res.gate != nil {
		// The cache rules' findings come after the request's own; each is
		// one break of one request, so it is never a repeat.
		defer func() {
			n := len(res.findings)
			res.gate.Add(r, &res.findings)
			res.total += len(res.findings) - n
			for k := n; !res.every && k < len(res.findings); k++ {
				res.findings[k].Requests = &audit.RequestSpan{First: res.findings[k].Request, Count: 1}
			}
		}()
	}
	res.total += len(fs)
	if len(fs) == 0 {
		return
	}
	if res.segAt == nil {
		res.segAt = map[string]int{}
	}
	clear(res.segAt)
	for i := range r.Segments {
		res.segAt[r.Segments[i].ID] = i
	}
	for _, f := range fs {
		var text string
		var seg *wire.Segment
		if i, ok := res.segAt[f.Segment]; ok {
			seg = &r.Segments[i]
			text = seg.Text
		}
		if !res.every {
			if k := res.distinct.Index(&f, seg, len(res.findings)); k >= 0 {
				res.findings[k].Requests.Count++
				continue
			}
		}
		res.findings = append(res.findings, f)
		if res.locate {
			n := needle{text: needleAt(text, f.Offset), off: -1}
			if r.Offset >= 0 && r.Length > 0 && !recordingFormat(r.Format) {
				n.off, n.length = r.Offset, r.Length
			}
			res.needles = append(res.needles, n)
		}
	}
}

// observeVolatile drops the volatile-in-prefix findings whose value was
// seen the same in every request that carried it, and names both values of
// one that changed (audit.ObserveVolatile).
func (res *checkResult) observeVolatile() {
	res.alignNeedles()
	keep, stable := audit.ObserveVolatile(res.findings)
	res.stable = stable
	fs, ns := res.findings[:0], res.needles[:0]
	for i, k := range keep {
		if !k {
			continue
		}
		fs = append(fs, res.findings[i])
		if res.locate {
			ns = append(ns, res.needles[i])
		}
	}
	res.findings = fs
	if res.locate {
		res.needles = ns
	}
}

// alignNeedles gives findings added without a needle (by another pass over
// the requests) an empty one, so that needles stay index for index with
// findings.
func (res *checkResult) alignNeedles() {
	for res.locate && len(res.needles) < len(res.findings) {
		res.needles = append(res.needles, needle{off: -1})
	}
}

// recordingFormat reports whether requests of this format are rebuilt from
// an agent's session file, whose bytes for a request are not one stretch of
// the file.
func recordingFormat(f wire.Format) bool { return slices.Contains(recording.Formats(), f) }

// auditSources audits every request of the sources as they stream in; only
// the findings are kept (each distinct one once unless every is set).
func auditSources(app *App, aud *audit.Auditor, sources []string, every, locate bool, gate *diff.Gate) *checkResult {
	res := &checkResult{every: every, locate: locate, gate: gate}
	// Each input is audited apart (an auditor of its own for each
	// goroutine: its state is a cache of scans and the tools seen by
	// source); counting, deduplicating and the cache gate follow the
	// order of the inputs.
	first := true
	if aud.Secrets == nil {
		aud.Secrets = audit.NewSharedSecrets()
	}
	newWork := func() func(*wire.Request) []audit.Finding {
		a := aud
		if !first {
			a = audit.New()
			a.Workspace, a.Secrets = aud.Workspace, aud.Secrets
		}
		first = false
		return func(r *wire.Request) []audit.Finding { return requestFindings(a, r) }
	}
	runBatch(app, sources, newWork, func(r *wire.Request, err error, fs []audit.Finding) bool {
		if err != nil {
			res.errs = append(res.errs, err)
			return true
		}
		res.noteOf(r)
		res.add(r, fs)
		return true
	})
	return res
}

// auditRef audits what a --before/--after reference names: a whole file, or
// one request of it (FILE@N).
func auditRef(app *App, aud *audit.Auditor, ref string, gate *diff.Gate) *checkResult {
	file, n, err := splitRef(ref)
	if err != nil {
		return &checkResult{errs: []error{err}}
	}
	if file == ref && n == 1 {
		return auditSources(app, aud, []string{ref}, true, false, gate)
	}
	r, errs, err := app.LoadRef(ref)
	res := &checkResult{every: true, errs: errs}
	if err != nil {
		res.errs = append(res.errs, err)
		return res
	}
	res.audit(aud, &r)
	return res
}

// failCode is 1 when a finding is at or above failOn.
func failCode(fs []audit.Finding, failOn audit.Severity) int {
	for _, f := range fs {
		if f.Severity.Rank() >= failOn.Rank() {
			return 1
		}
	}
	return 0
}

// checkSummary counts findings by severity.
type checkSummary struct {
	High   int `json:"high"`
	Medium int `json:"medium"`
	Low    int `json:"low"`
	// StableVolatile counts the values volatile-in-prefix would flag that
	// were the same in every request carrying them (not reported).
	StableVolatile int `json:"stable_volatile,omitempty"`
}

// summarize counts findings by severity.
func summarize(fs []audit.Finding) checkSummary {
	var s checkSummary
	for _, f := range fs {
		switch f.Severity {
		case audit.SeverityHigh:
			s.High++
		case audit.SeverityMedium:
			s.Medium++
		case audit.SeverityLow:
			s.Low++
		}
	}
	return s
}

// checkJSON is `check --json`.
type checkJSON struct {
	Findings []audit.Finding `json:"findings"`
	Summary  checkSummary    `json:"summary"`
	Errors   []errorJSON     `json:"errors"`
	// Notes say once a source what check had to assume (its system
	// text's trust, where no layout or provenance decided it).
	Notes []string `json:"notes,omitempty"`
}

// checkCompareJSON is `check --before A --after B --json`.
type checkCompareJSON struct {
	Before     string          `json:"before"`
	After      string          `json:"after"`
	Fixed      []audit.Finding `json:"fixed"`
	Introduced []audit.Finding `json:"introduced"`
	Unchanged  int             `json:"unchanged"`
	Summary    checkSummary    `json:"summary"` // of the introduced findings
	Errors     []errorJSON     `json:"errors"`
}

func nonNil(fs []audit.Finding) []audit.Finding {
	if fs == nil {
		return []audit.Finding{}
	}
	return fs
}

// compareFindings splits findings into fixed (only before), introduced (only
// after) and unchanged, matching them by Key as a multiset: ids and offsets
// move when a layout changes, the rule, kind and text found do not.
func compareFindings(before, after []audit.Finding) (fixed, introduced, unchanged []audit.Finding) {
	unchanged, introduced = matchByKey(after, before)
	_, fixed = matchByKey(before, after)
	return fixed, introduced, unchanged
}

// matchByKey splits fs into the findings that one of others matches by Key
// (each of others matching once) and the rest, keeping their order.
func matchByKey(fs, others []audit.Finding) (matched, rest []audit.Finding) {
	left := map[string]int{}
	for _, f := range others {
		left[f.Key]++
	}
	for _, f := range fs {
		if left[f.Key] > 0 {
			left[f.Key]--
			matched = append(matched, f)
		} else {
			rest = append(rest, f)
		}
	}
	return matched, rest
}

// runCheckCompare is `check --before A --after B`.
func runCheckCompare(app *App, aud *audit.Auditor, f checkFlags, failOn audit.Severity) error {
	gb, _ := newCacheGate(f)
	ga, _ := newCacheGate(f)
	b := auditRef(app, aud, f.before, gb)
	a := auditRef(app, aud, f.after, ga)
	errs := append(append([]error{}, b.errs...), a.errs...)
	fixed, introduced, unchanged := compareFindings(b.findings, a.findings)
	var err error
	switch {
	case f.asJSON:
		err = writeJSON(app.Stdout, checkCompareJSON{Before: f.before, After: f.after, Fixed: nonNil(fixed),
			Introduced: nonNil(introduced), Unchanged: len(unchanged), Summary: summarize(introduced),
			Errors: errorsJSON(errs)})
	case f.asSARIF:
		all := append(append(append([]audit.Finding{}, introduced...), unchanged...), fixed...)
		states := make([]string, 0, len(all))
		for i := range all {
			switch {
			case i < len(introduced):
				states = append(states, "new")
			case i < len(introduced)+len(unchanged):
				states = append(states, "unchanged")
			default:
				states = append(states, "absent")
			}
		}
		err = writeSARIF(app.Stdout, all, states, errs, nil)
	default:
		err = writeCheckCompareText(app.Stdout, f.before, f.after, fixed, introduced, len(unchanged), app.termTextFor(app.Stdout))
	}
	if err != nil {
		return err
	}
	return app.finish(errs, failCode(introduced, failOn))
}

// toolDiff is the segment diff of a tool's two definitions for a
// tool-changed finding (diff.TextDiff), each run made safe to print and the
// runs left alike cut to their ends.
func toolDiff(a, b string) []audit.ChangeHunk {
	const keep = 40
	var out []audit.ChangeHunk
	hunks := diff.TextDiff(a, b)
	if !strings.Contains(a, "\n") && !strings.Contains(b, "\n") {
		// A definition on one line (compact JSON): what lies between the
		// bytes both begin and end with.
		p := 0
		for p < len(a) && p < len(b) && a[p] == b[p] {
			p++
		}
		for p > 0 && (p < len(a) && !utf8.RuneStart(a[p]) || p < len(b) && !utf8.RuneStart(b[p])) {
			p--
		}
		q := 0
		for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
			q++
		}
		for q > 0 && (!utf8.RuneStart(a[len(a)-q]) || !utf8.RuneStart(b[len(b)-q])) {
			q--
		}
		hunks = nil
		for _, h := range []diff.Hunk{{Op: diff.OpEqual, Text: a[:p]}, {Op: diff.OpDelete, Text: a[p : len(a)-q]},
			{Op: diff.OpInsert, Text: b[p : len(b)-q]}, {Op: diff.OpEqual, Text: a[len(a)-q:]}} {
			if h.Text != "" {
				hunks = append(hunks, h)
			}
		}
	}
	for _, h := range hunks {
		t := h.Text
		if h.Op == diff.OpEqual && len(t) > 2*keep+3 {
			head, tail := keep, len(t)-keep
			for head > 0 && !utf8.RuneStart(t[head]) {
				head--
			}
			for tail < len(t) && !utf8.RuneStart(t[tail]) {
				tail++
			}
			t = t[:head] + "…" + t[tail:]
		}
		out = append(out, audit.ChangeHunk{Op: string(h.Op), Text: scan.VisibleLine(t)})
	}
	return out
}

// findingLine is one finding as a line of text, safe to print.
func findingLine(f audit.Finding) string {
	return fmt.Sprintf("%-6s  %-19s  %s@%d  %s  | %s", f.Severity, f.Rule, scan.VisibleLine(f.Segment), f.Offset,
		scan.VisibleLine(f.Message), scan.VisibleLine(f.Excerpt))
}

// requestHead names a request in the text report.
func requestHead(f audit.Finding) string {
	head := scan.VisibleLine(f.Ref())
	if f.Line > 0 {
		head += fmt.Sprintf(" (line %d)", f.Line)
	}
	return head
}

// termText is how a text report is laid out for a terminal: its width
// (0: not a terminal, one finding a line for grep) and its colours (nil:
// none).
type termText struct {
	width int
	p     *paint
}

// termTextFor is the layout of a text report written to w.
func (app *App) termTextFor(w io.Writer) termText {
	return termText{width: terminalWidth(w), p: app.paintFor(w)}
}

// findingIndent is where a finding's message starts on a terminal: under
// its rule, after "  high    ".
const findingIndent = 10

// writeFinding writes one finding: on one line (with tail after it) when
// t.width is 0, else its severity (coloured), rule and place on a line,
// then its message, excerpt and tail wrapped to the width under the rule.
func (t termText) writeFinding(b *strings.Builder, f audit.Finding, tail string) {
	if t.width == 0 {
		b.WriteString("  " + findingLine(f) + tail + "\n")
		return
	}
	head := fmt.Sprintf("%s  %s", scan.VisibleLine(string(f.Rule)), fmt.Sprintf("%s@%d", scan.VisibleLine(f.Segment), f.Offset))
	lines := []string{strings.Repeat(" ", findingIndent) + head}
	if ansi.StringWidth(lines[0]) > t.width {
		lines = wrapIndented(head, findingIndent, t.width)
	}
	b.WriteString("  " + t.p.severity(f.Severity, 6) + "  " + lines[0][findingIndent:] + "\n")
	for _, l := range lines[1:] {
		b.WriteString(l + "\n")
	}
	for _, part := range []string{scan.VisibleLine(f.Message), "| " + scan.VisibleLine(f.Excerpt), strings.TrimSpace(tail)} {
		if part == "" || part == "| " {
			continue
		}
		for _, l := range wrapIndented(part, findingIndent, t.width) {
			b.WriteString(l + "\n")
		}
	}
}

// writeCheckText prints the findings grouped by request (in input order),
// most severe first within a request, then a summary line: one finding a
// line, or on a terminal (t) wrapped to its width, severities coloured.
func writeCheckText(w io.Writer, res *checkResult, t termText) error {
	var b strings.Builder
	for _, n := range res.notes {
		b.WriteString(fitLine("note: "+scan.VisibleLine(n), t.width, 6) + "\n")
	}
	if len(res.notes) > 0 {
		b.WriteByte('\n')
	}
	cur := ""
	for _, f := range res.findings {
		key := f.Source + "\x00" + fmt.Sprint(f.Request)
		if key != cur {
			if cur != "" {
				b.WriteByte('\n')
			}
			cur = key
			fmt.Fprintf(&b, "%s\n", requestHead(f))
		}
		tail := ""
		if f.Requests != nil && f.Requests.Count > 1 {
			tail = fmt.Sprintf("  (in %s requests from here)", wire.GroupDigits(f.Requests.Count))
		}
		t.writeFinding(&b, f, tail)
		if f.Tool != nil {
			for _, h := range f.Tool.Diff {
				mark := " "
				switch h.Op {
				case string(diff.OpDelete):
					mark = "-"
				case string(diff.OpInsert):
					mark = "+"
				}
				fmt.Fprintf(&b, "          %s %s\n", mark, h.Text)
			}
		}
	}
	s := summarize(res.findings)
	if len(res.findings) > 0 {
		b.WriteByte('\n')
	}
	if res.stable > 0 {
		fmt.Fprintf(&b, "note: %s that volatile-in-prefix would flag stayed the same in every request that carried them (seen stable): not reported\n",
			plural(res.stable, "value"))
	}
	if len(res.findings) == 0 {
		fmt.Fprintf(&b, "%s checked: no findings\n", plural(res.requests, "request"))
	} else {
		sum := fmt.Sprintf("%s checked: %s (%d high, %d medium, %d low)",
			plural(res.requests, "request"), plural(len(res.findings), "finding"), s.High, s.Medium, s.Low)
		if res.total > len(res.findings) {
			sum += fmt.Sprintf("; %s findings counting each request's (--every-request lists them)", wire.GroupDigits(res.total))
		}
		if t.width > 0 {
			sum = strings.Join(wrapIndented(sum, 0, t.width), "\n")
		}
		b.WriteString(sum + "\n")
	}
	_, err := io.WriteString(colorWriter(w, t.p), b.String())
	return err
}

// writeCheckCompareText prints the findings a change fixed and introduced.
func writeCheckCompareText(w io.Writer, before, after string, fixed, introduced []audit.Finding, unchanged int, t termText) error {
	var b strings.Builder
	fmt.Fprintf(&b, "before %s, after %s: %d fixed, %d introduced, %d unchanged\n",
		scan.VisibleLine(before), scan.VisibleLine(after), len(fixed), len(introduced), unchanged)
	for _, part := range []struct {
		name string
		fs   []audit.Finding
	}{{"fixed", fixed}, {"introduced", introduced}} {
		if len(part.fs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s:\n", part.name)
		for _, f := range bySeverity(part.fs) {
			t.writeFinding(&b, f, "  "+requestHead(f))
		}
	}
	_, err := io.WriteString(colorWriter(w, t.p), b.String())
	return err
}

// bySeverity orders findings most severe first, keeping their order
// otherwise.
func bySeverity(fs []audit.Finding) []audit.Finding {
	out := make([]audit.Finding, 0, len(fs))
	for rank := 3; rank >= 0; rank-- {
		for _, f := range fs {
			if f.Severity.Rank() == rank {
				out = append(out, f)
			}
		}
	}
	return out
}

// noteOf keeps the note a request makes once of its source: that the trust
// of its system text was assumed.
func (res *checkResult) noteOf(r *wire.Request) {
	if slices.Contains(r.Notes, provenance.AssumedNote) {
		res.notes = append(res.notes, r.Source+": "+provenance.AssumedNote)
	}
}
