package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newCacheCmd) }

func newCacheCmd(app *App) *cobra.Command {
	var asJSON, byModel bool
	cmd := &cobra.Command{
		Use:   "cache FILE... [--json] [--by-model]",
		Short: "Prompt-cache stability over a sequence of requests",
		Long: `cache compares each request with the one before it in the provider's cache order (tools,
then system, then messages): how much of the previous request it starts with, in bytes and
estimated tokens (o200k_base; providers' own tokenizers differ), and where and why the shared
prefix breaks: the segment, its channel and kind, the offset, and the changing value it falls
in (a timestamp, a UUID, a counter, ...). A change of model is named as a cause: providers keep
one cache per model.

From the provider's cache rules (OpenAI automatic prefix caching, Anthropic cache_control
breakpoints, Gemini implicit caching, Moonshot/Kimi automatic caching) it predicts the cached
tokens of each request from what the earlier requests of the same model left in the cache
(entries are taken to be alive: their time to live is not modelled), and sets the recorded
cache reads beside them, saying plainly where they disagree. The summary gives the reuse
ratio, the tokens re-processed because of breaks, the breaks grouped by cause, and the worst
requests.

All FILE arguments form one sequence, in the order given (a JSONL session, a HAR export, a
recording, or one request per file). FILE may be "-" for standard input. With --by-model each
request is compared with the previous request of the same model instead (for agents that
interleave a small model's requests with the main conversation's).`,
		Example: `  wirelens cache session.jsonl
  wirelens cache capture.har --json | jq '.summary.reuse_ratio'
  wirelens cache req1.json req2.json req3.json
  wirelens cache --by-model claude-trace.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var (
				seq   = diff.Sequence{ByModel: byModel}
				steps []*diff.Step
				errs  []error
			)
			for _, src := range args {
				app.decode(src, func(r wire.Request, err error) bool {
					if err != nil {
						errs = append(errs, err)
						return true
					}
					if st := seq.Add(&r); st != nil {
						steps = append(steps, st)
					}
					return true
				})
			}
			sum := seq.Summary()
			var err error
			if asJSON {
				err = writeJSON(app.Stdout, cacheJSON(steps, sum, errs))
			} else {
				err = writeCacheText(app.Stdout, steps, sum, terminalWidth(app.Stdout), localeUnicode())
			}
			if err != nil {
				return err
			}
			return app.finish(errs, 0)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the shape of CONTRACT.md)")
	cmd.Flags().BoolVar(&byModel, "by-model", false, "compare each request with the previous one of the same model")
	return cmd
}

// cacheBreakJSON is a break in `cache --json`.
type cacheBreakJSON struct {
	Segment  string `json:"segment"`
	Channel  string `json:"channel"`
	Kind     string `json:"kind"`
	Offset   int    `json:"offset"`
	Before   string `json:"before"`
	After    string `json:"after"`
	Volatile string `json:"volatile"`
	Cause    string `json:"cause"`
	Label    string `json:"label,omitempty"`
}

// cacheRequestJSON is one compared request in `cache --json`.
type cacheRequestJSON struct {
	Source                    string          `json:"source"`
	Index                     int             `json:"index"`
	Line                      int             `json:"line,omitempty"`
	Format                    string          `json:"format"`
	Model                     string          `json:"model"`
	Provider                  string          `json:"provider"`
	TotalTokens               int             `json:"total_tokens"`
	PrefixTokens              int             `json:"prefix_tokens"`
	PrefixBytes               int             `json:"prefix_bytes"`
	Break                     *cacheBreakJSON `json:"break"`
	TextBreak                 *cacheBreakJSON `json:"text_break,omitempty"`
	PredictedCachedTokens     int             `json:"predicted_cached_tokens"`
	PredictedCacheWriteTokens int             `json:"predicted_cache_write_tokens,omitempty"`
	PredictedFrom             string          `json:"predicted_from,omitempty"`
	RecordedCachedTokens      *int            `json:"recorded_cached_tokens"`
	ReprocessedTokens         int             `json:"reprocessed_tokens"`
	Disagreement              string          `json:"disagreement,omitempty"`
	Notes                     []string        `json:"notes,omitempty"`
}

type cacheWorstJSON struct {
	Source            string `json:"source"`
	Index             int    `json:"index"`
	ReprocessedTokens int    `json:"reprocessed_tokens"`
	Segment           string `json:"segment"`
	Cause             string `json:"cause"`
	Volatile          string `json:"volatile"`
}

type cacheSummaryJSON struct {
	Requests              int              `json:"requests"`
	ReuseRatio            float64          `json:"reuse_ratio"`
	Breaks                map[string]int   `json:"breaks"`
	ReprocessedTokens     int              `json:"reprocessed_tokens"`
	BreaksByKind          map[string]int   `json:"breaks_by_kind"`
	BreaksByVolatile      map[string]int   `json:"breaks_by_volatile"`
	BreaksByCause         map[string]int   `json:"breaks_by_cause"`
	Worst                 []cacheWorstJSON `json:"worst"`
	PredictedCachedTokens int              `json:"predicted_cached_tokens"`
	RecordedCachedTokens  *int             `json:"recorded_cached_tokens"`
	Disagreements         int              `json:"disagreements"`
	Note                  string           `json:"note,omitempty"`
}

type cacheJSONDoc struct {
	Requests []cacheRequestJSON `json:"requests"`
	Summary  cacheSummaryJSON   `json:"summary"`
	Errors   []errorJSON        `json:"errors"`
}

func cacheBreakToJSON(b *diff.Break) *cacheBreakJSON {
	if b == nil {
		return nil
	}
	return &cacheBreakJSON{Segment: scan.VisibleLine(b.Segment), Channel: string(b.Channel), Kind: string(b.Kind),
		Offset: b.Offset, Before: scan.VisibleLine(b.Before), After: scan.VisibleLine(b.After),
		Volatile: string(b.Volatile), Cause: string(b.Cause), Label: scan.VisibleLine(b.Label)}
}

func cacheJSON(steps []*diff.Step, sum diff.Summary, errs []error) cacheJSONDoc {
	doc := cacheJSONDoc{Requests: make([]cacheRequestJSON, 0, len(steps)), Errors: errorsJSON(errs)}
	for _, st := range steps {
		rj := cacheRequestJSON{Source: st.Source, Index: st.Index, Line: st.Line, Format: string(st.Format),
			Model: scan.VisibleLine(st.Model), Provider: st.Rule.Provider, TotalTokens: st.TotalTokens,
			PrefixTokens: st.PrefixTokens, PrefixBytes: st.PrefixBytes, Break: cacheBreakToJSON(st.Break),
			TextBreak:             cacheBreakToJSON(st.TextBreak),
			PredictedCachedTokens: st.Prediction.Cached, PredictedCacheWriteTokens: st.Prediction.CacheWrite,
			PredictedFrom:        scan.VisibleLine(st.Prediction.From),
			RecordedCachedTokens: st.Recorded, ReprocessedTokens: st.Reprocessed,
			Disagreement: scan.VisibleLine(st.Disagreement)}
		for _, n := range st.Notes {
			rj.Notes = append(rj.Notes, scan.VisibleLine(n))
		}
		doc.Requests = append(doc.Requests, rj)
	}
	s := cacheSummaryJSON{Requests: sum.Requests, ReuseRatio: math.Round(sum.ReuseRatio*10000) / 10000,
		Breaks: sum.BreaksByChannel, ReprocessedTokens: sum.ReprocessedTokens, BreaksByKind: sum.BreaksByKind,
		BreaksByVolatile: sum.BreaksByVolatile, BreaksByCause: sum.BreaksByCause,
		Worst: make([]cacheWorstJSON, 0, len(sum.Worst)), PredictedCachedTokens: sum.Predicted,
		Disagreements: sum.Disagreements}
	if sum.RecordedRequests > 0 {
		rec := sum.Recorded
		s.RecordedCachedTokens = &rec
	}
	for _, st := range sum.Worst {
		w := cacheWorstJSON{Source: st.Source, Index: st.Index, ReprocessedTokens: st.Reprocessed}
		if st.Break != nil {
			w.Segment, w.Cause, w.Volatile = scan.VisibleLine(st.Break.Segment), string(st.Break.Cause), string(st.Break.Volatile)
		}
		s.Worst = append(s.Worst, w)
	}
	switch sum.Requests {
	case 0:
		s.Note = "no request read"
	case 1:
		s.Note = "one request: nothing to compare"
	}
	doc.Summary = s
	return doc
}

// localeUnicode reports whether the locale can show block characters: yes
// unless it names a character set other than UTF-8.
func localeUnicode() bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := os.Getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8") || v == "c.utf-8"
		}
	}
	return true
}

// barWidth is the width of the bar when the terminal leaves room.
const barWidth = 24

// barGlyphs are the bar's cells for cached, shared-but-not-cached and new
// tokens: blocks, or ASCII when the locale cannot show them.
func barGlyphs(unicode bool) (full, mid, empty string) {
	if !unicode {
		return "#", "+", "."
	}
	return "█", "▒", "░"
}

// tokenBar draws cached, shared-but-not-cached and new tokens of total in
// width cells.
func tokenBar(cached, shared, total, width int, unicode bool) string {
	full, mid, empty := barGlyphs(unicode)
	if total <= 0 || width <= 0 {
		return strings.Repeat(empty, max(width, 0))
	}
	shared = min(max(shared, 0), total)
	cached = min(max(cached, 0), shared)
	c := cached * width / total
	s := shared * width / total
	if cached > 0 && c == 0 {
		c = 1
	}
	if shared > cached && s == c && s < width {
		s = c + 1
	}
	s = max(s, c)
	return strings.Repeat(full, c) + strings.Repeat(mid, s-c) + strings.Repeat(empty, width-s)
}

// breakLabel is the break column: "system[0]/time timestamp".
func breakLabel(b *diff.Break) string {
	if b == nil {
		return "-"
	}
	switch b.Cause {
	case diff.CauseModel, diff.CauseProvider:
		return string(b.Cause) + " changed"
	}
	s := scan.VisibleLine(b.Segment) + " " + string(b.Cause)
	if b.Volatile != "" {
		s += " (" + string(b.Volatile) + ")"
	}
	return s
}

// breakSentence says what broke the cache in words.
func breakSentence(b *diff.Break) string {
	where := fmt.Sprintf("%s (%s, %s)", scan.VisibleLine(b.Segment), b.Channel, b.Kind)
	switch b.Cause {
	case diff.CauseModel:
		return fmt.Sprintf("the model changed from %s to %s: providers keep one cache per model", scan.VisibleLine(b.Before), scan.VisibleLine(b.After))
	case diff.CauseProvider:
		return fmt.Sprintf("the provider changed (%s to %s): nothing is shared", scan.VisibleLine(b.Before), scan.VisibleLine(b.After))
	case diff.CauseAdded:
		return where + " was inserted before the end of the previous request"
	case diff.CauseRemoved:
		return where + " of the previous request is gone"
	case diff.CauseReordered:
		return where + " moved: the same segments in another order"
	}
	if b.Volatile != "" {
		article := "a"
		if strings.ContainsRune("aeiou", rune(b.Volatile[0])) {
			article = "an"
		}
		return fmt.Sprintf("%s %s in %s changed at byte %d", article, b.Volatile, where, b.Offset)
	}
	return fmt.Sprintf("%s changed at byte %d", where, b.Offset)
}

// cacheReport is the text report of cache as it is written: lines wrapped
// to the terminal's width (when known) with continuation lines indented under
// their first, and requests named as the report names them.
type cacheReport struct {
	b       strings.Builder
	width   int
	unicode bool
	name    func(st *diff.Step) string
}

// line writes text (already sanitised) indented by indent spaces.
func (r *cacheReport) line(indent int, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	pad := strings.Repeat(" ", indent)
	if r.width <= indent+20 {
		r.b.WriteString(pad + text + "\n")
		return
	}
	for i, l := range strings.Split(ansi.Wrap(text, r.width-indent-2, ""), "\n") {
		if i > 0 {
			r.b.WriteString(pad + "  " + l + "\n")
			continue
		}
		r.b.WriteString(pad + l + "\n")
	}
}

// capped writes a section of items (already sanitised) under its title: at
// most limit of them, then how many more there are. An empty section is left
// out.
func (r *cacheReport) capped(title string, items []string, limit int) {
	if len(items) == 0 {
		return
	}
	r.b.WriteString("\n" + title + "\n")
	for i, item := range items {
		if i == limit {
			r.line(2, "… and %d more", len(items)-limit)
			break
		}
		r.line(2, "%s", item)
	}
}

// writeCacheText prints what the requests come to: a heading, the
// per-request table, the breaks in words, where prediction and record
// disagree, the notes and the summary.
func writeCacheText(w io.Writer, steps []*diff.Step, sum diff.Summary, width int, unicode bool) error {
	r := &cacheReport{width: width, unicode: unicode}
	switch sum.Requests {
	case 0:
		r.line(0, "no request read: nothing to compare")
	case 1:
		r.line(0, "one request: nothing to compare (the cache is compared between consecutive requests)")
	default:
		var source string
		r.name, source = requestNamer(steps)
		r.heading(steps, sum, source)
		r.table(steps)
		r.breaks(steps)
		r.disagreements(steps)
		r.notes(steps)
		r.summary(sum)
	}
	_, err := io.WriteString(w, r.b.String())
	return err
}

// requestNamer is how the report names requests: "@N" when they all come
// from one source (returned, for the heading to name it once), else FILE@N.
func requestNamer(steps []*diff.Step) (func(*diff.Step) string, string) {
	for _, st := range steps {
		if st.Source != steps[0].Source {
			return func(st *diff.Step) string { return scan.VisibleLine(stepName(st)) }, ""
		}
	}
	if len(steps) == 0 {
		return nil, ""
	}
	return func(st *diff.Step) string { return fmt.Sprintf("@%d", st.Index) }, steps[0].Source
}

// heading names the source (when all requests share one) and says how many
// requests were compared under which providers' rules.
func (r *cacheReport) heading(steps []*diff.Step, sum diff.Summary, source string) {
	providers := map[string]bool{}
	for _, st := range steps {
		providers[st.Rule.Provider] = true
	}
	provs := slices.Sorted(maps.Keys(providers))
	head := ""
	if source != "" {
		head = scan.VisibleLine(source) + ": "
	}
	r.line(0, "%s%d requests, %d compared with the one before (cache rules: %s; tokens are o200k_base estimates)",
		head, sum.Requests, sum.Compared, strings.Join(provs, ", "))
	r.b.WriteByte('\n')
}

// table is one row per compared request: its tokens, the prefix shared, a
// bar of cached, shared and new tokens, the predicted and recorded cache
// reads and the break; then the bar's legend.
func (r *cacheReport) table(steps []*diff.Step) {
	bar := barWidth
	rows := [][]string{{"REQUEST", "TOKENS", "PREFIX", "CACHED/NEW", "PRED", "REC", "BREAK"}}
	for _, st := range steps {
		rec := "-"
		if st.Recorded != nil {
			rec = groupDigits(*st.Recorded)
			if st.Disagreement != "" {
				rec += "!"
			}
		}
		rows = append(rows, []string{r.name(st), groupDigits(st.TotalTokens),
			groupDigits(st.PrefixTokens), "", groupDigits(st.Prediction.Cached), rec, breakLabel(st.Break)})
	}
	if r.width > 0 {
		// The bar and then the break column give way to a narrow terminal.
		colW := func(c int) int {
			wc := 0
			for _, row := range rows {
				wc = max(wc, ansi.StringWidth(row[c]))
			}
			return wc
		}
		fixed := 2 + (len(rows[0])-1)*2
		for _, c := range []int{0, 1, 2, 4, 5} {
			fixed += colW(c)
		}
		breakW := colW(6)
		bar = max(8, min(barWidth, r.width-fixed-breakW))
		if room := r.width - fixed - bar; room < breakW {
			room = max(room, 12)
			for _, row := range rows {
				row[6] = ansi.Truncate(row[6], room, "…")
			}
		}
	}
	rows[0][3] = ansi.Truncate(rows[0][3], bar, "")
	for i, st := range steps {
		rows[i+1][3] = tokenBar(st.Prediction.Cached, st.PrefixTokens, st.TotalTokens, bar, r.unicode)
	}
	writeTable(&r.b, rows, r.width, map[int]bool{1: true, 2: true, 4: true, 5: true})
	full, mid, empty := barGlyphs(r.unicode)
	r.line(2, "%s predicted cached  %s shared with the previous request, not cached  %s new;  ! recorded disagrees",
		full, mid, empty)
}

// breaks says in words what broke the cache, each kind of break once (by
// segment, cause and value, or by the change of model) with how often and
// where first.
func (r *cacheReport) breaks(steps []*diff.Step) {
	type group struct {
		first *diff.Step
		n     int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, st := range steps {
		if st.Break == nil {
			continue
		}
		br := st.Break
		key := br.Segment + "\x00" + string(br.Cause) + "\x00" + string(br.Volatile)
		if br.Cause == diff.CauseModel || br.Cause == diff.CauseProvider {
			key = string(br.Cause) + "\x00" + br.Before + "\x00" + br.After
		}
		g := byKey[key]
		if g == nil {
			g = &group{first: st}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.n++
	}
	if len(groups) == 0 {
		return
	}
	r.b.WriteString("\nBreaks\n")
	const maxGroups = 12
	for i, g := range groups {
		if i == maxGroups {
			r.line(2, "… and %d more kinds of break", len(groups)-maxGroups)
			break
		}
		br := g.first.Break
		times := "once"
		if g.n > 1 {
			times = fmt.Sprintf("%d times", g.n)
		}
		r.line(2, "%s (%s, first at %s)", breakSentence(br), times, r.name(g.first))
		if br.Cause != diff.CauseModel && br.Cause != diff.CauseProvider {
			r.b.WriteString("    before: " + excerptLine(br.Before, r.width) + "\n")
			r.b.WriteString("    after:  " + excerptLine(br.After, r.width) + "\n")
		}
	}
}

// disagreements lists the requests whose recorded cache reads disagree with
// the prediction.
func (r *cacheReport) disagreements(steps []*diff.Step) {
	var items []string
	for _, st := range steps {
		if st.Disagreement != "" {
			items = append(items, r.name(st)+": "+scan.VisibleLine(st.Disagreement))
		}
	}
	r.capped("Predicted against recorded", items, 10)
}

// notes lists each distinct note of the comparisons once, at the first
// request that has it.
func (r *cacheReport) notes(steps []*diff.Step) {
	var items []string
	seen := map[string]bool{}
	for _, st := range steps {
		for _, n := range st.Notes {
			if !seen[n] {
				seen[n] = true
				items = append(items, r.name(st)+": "+scan.VisibleLine(n))
			}
		}
	}
	r.capped("Notes", items, 10)
}

// summary is the reuse ratio, the breaks and the tokens they cost by
// channel, kind, value and cause, the predicted and recorded cache reads,
// and the worst requests.
func (r *cacheReport) summary(sum diff.Summary) {
	r.b.WriteString("\nSummary\n")
	r.line(2, "reuse ratio %.2f: %s of %s tokens shared with the request before",
		sum.ReuseRatio, groupDigits(sum.PrefixTokens), groupDigits(sum.TotalTokens))
	r.line(2, "%s, %s tokens re-processed because of them", plural(sum.Breaks, "break"), groupDigits(sum.ReprocessedTokens))
	if sum.Breaks > 0 {
		if len(sum.BreaksByChannel) > 0 {
			r.line(2, "by channel: %s", countList(sum.BreaksByChannel))
			r.line(2, "by kind: %s", countList(sum.BreaksByKind))
		}
		if len(sum.BreaksByVolatile) > 0 {
			r.line(2, "by changing value: %s", countList(sum.BreaksByVolatile))
		}
		r.line(2, "by cause: %s", countList(sum.BreaksByCause))
	}
	pred := fmt.Sprintf("predicted cached: %s tokens", groupDigits(sum.Predicted))
	if sum.RecordedRequests > 0 {
		pred += fmt.Sprintf("; recorded: %s tokens over %s (%d disagree)", groupDigits(sum.Recorded),
			plural(sum.RecordedRequests, "request"), sum.Disagreements)
	}
	r.line(2, "%s", pred)
	if len(sum.Worst) > 0 {
		r.line(2, "worst requests:")
		for _, st := range sum.Worst {
			r.line(4, "%s  %s tokens re-processed: %s", r.name(st), groupDigits(st.Reprocessed), breakLabel(st.Break))
		}
	}
}

// stepName names a request as FILE@N (always with the number, which a
// cache table needs).
func stepName(st *diff.Step) string {
	return fmt.Sprintf("%s@%d", st.Source, st.Index)
}

// excerptLine shows an excerpt on one line, cut to the terminal.
func excerptLine(s string, width int) string {
	v := "…" + scan.VisibleLine(s) + "…"
	if width > 14 {
		v = ansi.Truncate(v, width-14, "…")
	}
	return v
}

// countList writes "system 4, tools 1", largest first.
func countList(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool {
		if kvs[i].v != kvs[j].v {
			return kvs[i].v > kvs[j].v
		}
		return kvs[i].k < kvs[j].k
	})
	parts := make([]string, len(kvs))
	for i, e := range kvs {
		parts[i] = fmt.Sprintf("%s %d", e.k, e.v)
	}
	return strings.Join(parts, ", ")
}
