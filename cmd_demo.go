package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newDemoCmd) }

func newDemoCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:         "demo",
		Annotations: map[string]string{globalsAnnotation: themeGlobals},
		Short:       "Show a poisoned workspace in the legacy and the isolated layout, side by side",
		Long: `demo builds the same request twice, live, from a poisoned example workspace embedded in
wirelens (the repro of the bug report: an AGENTS.md that demands the word POISONED and asks for
rm -rf /, with a closing-tag breakout, a bidi override, tag characters and a terminal escape
sequence; a skill whose description tries to close its envelope; a file name with a bidi
override). The legacy layout pastes the workspace into the trusted system prompt; the isolated
layout keeps the system prompt to host rules and sends the workspace as escaped, untrusted user
fragments.

On a terminal it opens the viewer on both requests, marked for comparison, with a first-screen
hint of what to look at. When standard output is not a terminal it prints a report instead,
both side by side: the trusted system prefix, the untrusted fragments, and the escapes applied.
Every workspace byte is shown visibly, never raw.`,
		Example: `  wirelens demo
  wirelens demo | less`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if isTerminal(app.Stdout) && isTerminal(app.Stdin) {
				return openDemo(cmd.Context(), app)
			}
			return writeDemoReport(app.Stdout, reportWidth(app.Stdout))
		},
	}
}

// demoColumnWidth is the narrowest column of the side-by-side report: a
// narrower output stacks the two layouts.
const demoColumnWidth = 48

// hostRuleLines is how many lines of a host-rules segment the report
// shows: the rules are the same in both layouts and not the point.
const hostRuleLines = 3

// writeDemoReport writes the plain-text demo report at the given width: the
// legacy and isolated requests side by side (stacked when the width is too
// narrow for two columns).
func writeDemoReport(w io.Writer, width int) error {
	legacy, isolated, err := demoResults()
	if err != nil {
		return fmt.Errorf("demo: %v", err)
	}
	if width < 40 {
		width = 40
	}
	head := []string{
		"wirelens demo: one poisoned workspace, two layouts",
		"workspace " + scan.VisibleLine(demoPath) + " (embedded), time " + assemble.FormatTime(demoNow) +
			", api anthropic, escape entities, skill " + demoSkill + " activated",
		"",
	}
	cache, err := demoCacheLines(width)
	if err != nil {
		return fmt.Errorf("demo: %v", err)
	}
	head = append(head, cache...)
	for _, l := range head {
		for _, wl := range wrapLine(l, width) {
			if _, err := fmt.Fprintln(w, wl); err != nil {
				return err
			}
		}
	}
	const gap = " │ "
	if width < 2*demoColumnWidth+ansi.StringWidth(gap) {
		for _, col := range [][]string{
			layoutColumn("LEGACY (before the fix)", legacy, width),
			{""},
			layoutColumn("ISOLATED (the fix)", isolated, width),
		} {
			for _, l := range col {
				if _, err := fmt.Fprintln(w, l); err != nil {
					return err
				}
			}
		}
		return nil
	}
	cw := (width - ansi.StringWidth(gap)) / 2
	left := layoutColumn("LEGACY (before the fix)", legacy, cw)
	right := layoutColumn("ISOLATED (the fix)", isolated, cw)
	for i := 0; i < max(len(left), len(right)); i++ {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		line := l + strings.Repeat(" ", max(0, cw-ansi.StringWidth(l))) + gap + r
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	return nil
}

// layoutColumn renders one layout as lines at most width cells wide. Every
// payload byte goes through wire.Visible or wire.VisibleLine.
func layoutColumn(title string, res *assemble.Result, width int) []string {
	var out []string
	add := func(s string) { out = append(out, cells.WrapIndented(s, max(width, 8), 2)...) }
	rule := func(s string) {
		out = append(out, "")
		s = "── " + s + " "
		if ansi.StringWidth(s) > width {
			out = append(out, cells.WrapIndented(strings.TrimSpace(s), width, 3)...)
			return
		}
		out = append(out, s+strings.Repeat("─", max(0, width-ansi.StringWidth(s))))
	}
	r := &res.Request
	add(title)
	sys := 0
	for _, s := range r.Segments {
		if s.Channel == wire.ChannelSystem {
			sys += len(s.Text)
		}
	}
	add(fmt.Sprintf("system prompt %s bytes; %s; %s", wire.GroupDigits(sys), plural(len(r.Segments), "segment"), plural(len(res.Log), "escape")))

	rule("TRUSTED SYSTEM PREFIX (system channel)")
	for _, s := range r.Segments {
		if s.Channel == wire.ChannelSystem {
			appendSegment(&out, s, width)
		}
	}

	rule("REQUEST-TIME MESSAGES (messages channel)")
	untrusted := 0
	for _, s := range r.Segments {
		if s.Channel != wire.ChannelMessages {
			continue
		}
		if s.Trust == wire.Untrusted {
			untrusted++
		}
		appendSegment(&out, s, width)
	}
	if untrusted == 0 {
		add("No untrusted fragment: the workspace went into the trusted system prompt above, raw.")
	}

	rule("ESCAPES APPLIED")
	if len(res.Log) == 0 {
		add("None: the workspace is sent as it was read, breakouts, bidi controls, tag characters and escape sequences included.")
	}
	for _, e := range res.Log {
		repl := "(removed)"
		if e.Replacement != "" {
			repl = scan.VisibleLine(e.Replacement)
		}
		where := shortFragment(e.Fragment)
		if e.Attr != "" {
			where += " " + e.Attr + "="
		}
		add(fmt.Sprintf("%-9s %s @%d: %s → %s", e.Rule, scan.VisibleLine(where),
			e.SourceOffset, quoteShort(e.Original), repl))
	}

	// The audit of check and of the viewer: the volatile-value finder on.
	rule("CHECK FINDINGS")
	findings := audit.New().Audit(r)
	if len(findings) == 0 {
		add("None.")
	}
	counts := map[string]int{}
	sev := map[string]audit.Severity{}
	for _, f := range findings {
		counts[f.Rule]++
		sev[f.Rule] = f.Severity
	}
	var rules []string
	for k := range counts {
		rules = append(rules, k)
	}
	// Most severe first, then by name.
	sort.Slice(rules, func(i, j int) bool {
		if a, b := sev[rules[i]].Rank(), sev[rules[j]].Rank(); a != b {
			return a > b
		}
		return rules[i] < rules[j]
	})
	for _, k := range rules {
		add(fmt.Sprintf("%-6s %s ×%d", sev[k], k, counts[k]))
	}
	return out
}

// appendSegment writes one segment: a header line and its text (host rules
// cut to a few lines).
func appendSegment(out *[]string, s wire.Segment, width int) {
	trust := string(s.Trust)
	if s.Trust == wire.Untrusted && s.Channel == wire.ChannelSystem {
		trust = "UNTRUSTED IN SYSTEM"
	}
	env := ""
	if s.Envelope != "" {
		env = " <" + scan.VisibleLine(s.Envelope) + ">"
	}
	esc := ""
	if len(s.Escapes) > 0 {
		esc = fmt.Sprintf(", %d escapes", len(s.Escapes))
	}
	*out = append(*out, "")
	*out = append(*out, cells.WrapIndented(fmt.Sprintf("▌ %s  %s · %s%s, %s bytes%s", scan.VisibleLine(s.ID), s.Kind, trust, env, wire.GroupDigits(len(s.Text)), esc), max(width, 8), 2)...)
	text := strings.TrimRight(s.Text, "\n")
	lines := strings.Split(text, "\n")
	if s.Kind == wire.KindHostRules {
		// Host rules are the same in both layouts: their first lines say
		// enough.
		var shown []string
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				shown = append(shown, l)
			}
		}
		if len(shown) > hostRuleLines {
			shown = append(shown[:hostRuleLines:hostRuleLines],
				"… "+strings.Replace(plural(len(shown)-hostRuleLines, "line"), " ", " more ", 1)+" of host rules")
		}
		lines = shown
	}
	for _, l := range lines {
		// A wrapped line keeps its own indent: a listing stays a tree.
		*out = append(*out, wrapLine("  "+scan.VisibleLine(l), width)...)
	}
}

// wrapLine wraps one line of safe text to width cells (at least 8),
// continuation lines indented as the first.
func wrapLine(s string, width int) []string {
	return cells.WrapIndented(s, max(width, 8), 0)
}

// quoteShort shows an escaped original: visible, quoted, cut when long.
func quoteShort(s string) string {
	v := cells.ClipWhole(scan.VisibleLine(s), 40)
	return "“" + v + "”"
}

// shortFragment names a fragment without the workspace path.
func shortFragment(f string) string {
	return strings.ReplaceAll(f, demoPath+"/", "")
}

// demoCache is what the prompt cache makes of one layout's two builds (the
// second a minute after the first, after the one-line AGENTS.md edit).
type demoCache struct {
	step          *diff.Step
	systemChanged bool
}

// demoCaches compares each layout's two builds as cache does.
func demoCaches() (legacy, isolated demoCache, err error) {
	reqs, err := demoSequence()
	if err != nil {
		return demoCache{}, demoCache{}, err
	}
	one := func(a, b *wire.Request) demoCache {
		steps, _ := diff.Analyze([]wire.Request{*a, *b})
		return demoCache{step: steps[0], systemChanged: systemText(a) != systemText(b)}
	}
	return one(&reqs[0], &reqs[1]), one(&reqs[2], &reqs[3]), nil
}

// systemText is the text of a request's system channel.
func systemText(r *wire.Request) string {
	var b strings.Builder
	for _, s := range r.Segments {
		if s.Channel == wire.ChannelSystem {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// demoCacheLines are the report's prompt-cache section: the two layouts'
// figures side by side, as the viewer's Cache view and cache show them.
func demoCacheLines(width int) ([]string, error) {
	legacy, isolated, err := demoCaches()
	if err != nil {
		return nil, err
	}
	pct := func(st *diff.Step) string {
		if st.TotalTokens == 0 {
			return "0%"
		}
		// Rounded, as the viewer's Cache view rounds it.
		return fmt.Sprintf("%.0f%%", float64(st.PrefixTokens)*100/float64(st.TotalTokens))
	}
	system := func(c demoCache) string {
		if c.systemChanged {
			return "changed: not cached past the change"
		}
		return "unchanged: cached whole"
	}
	rows := [][]string{{"", "LEGACY", "ISOLATED"}}
	for _, r := range []struct {
		name string
		val  func(c demoCache) string
	}{
		{"tokens", func(c demoCache) string { return wire.GroupDigits(c.step.TotalTokens) }},
		{"reused prefix", func(c demoCache) string {
			return wire.GroupDigits(c.step.PrefixTokens) + " (" + pct(c.step) + ")"
		}},
		{"re-processed", func(c demoCache) string { return wire.GroupDigits(c.step.Reprocessed) }},
		{"prefix breaks at", func(c demoCache) string { return breakLabel(c.step.Break) }},
		{"system prompt", system},
	} {
		rows = append(rows, []string{r.name, r.val(legacy), r.val(isolated)})
	}
	out := []string{
		"PROMPT CACHE: each layout built again at " + assemble.FormatTime(demoLater) +
			", a minute later, after a one-line AGENTS.md edit (added: “" +
			scan.VisibleLine(strings.TrimSuffix(demoEditLine, "\n")) + "”); tokens are o200k_base estimates",
	}
	widths := make([]int, 3)
	for _, row := range rows {
		measureRow(widths, row)
	}
	if 2+widths[0]+2+widths[1]+2+widths[2] <= width {
		var b strings.Builder
		writeTable(&b, rows, 0, nil)
		out = append(out, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
	} else {
		// Too narrow for the table: one paragraph a layout.
		for c, name := range []string{"LEGACY", "ISOLATED"} {
			var parts []string
			for _, row := range rows[1:] {
				parts = append(parts, row[0]+" "+row[c+1])
			}
			out = append(out, "  "+name+": "+strings.Join(parts, "; "))
		}
	}
	out = append(out, "The legacy prefix breaks at the time in the middle of the system prompt, and the AGENTS.md "+
		"edit would break it again; the isolated system prompt holds, and only the request-time fragments "+
		"after it are processed again.", "")
	return out, nil
}
