package main

import (
	"fmt"
	"io"
	"math"
	"os"
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
				err = writeCacheText(app.Stdout, steps, sum, terminalWidth(app.Stdout), cacheUnicode())
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

// cacheUnicode reports whether the locale can show block characters: yes
// unless it names a character set other than UTF-8.
func cacheUnicode() bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := os.Getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8") || v == "c.utf-8"
		}
	}
	return true
}

// cacheBarWidth is the width of the bar when the terminal leaves room.
const cacheBarWidth = 24

// cacheBar draws cached, shared-but-not-cached and new tokens of total in
// width cells.
func cacheBar(cached, shared, total, width int, unicode bool) string {
	full, mid, empty := "█", "▒", "░"
	if !unicode {
		full, mid, empty = "#", "+", "."
	}
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

// cacheBreakShort is the break column: "system[0]/time timestamp".
func cacheBreakShort(b *diff.Break) string {
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

// cacheBreakSentence says what broke the cache in words.
func cacheBreakSentence(b *diff.Break) string {
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

// cacheWriter writes report lines, wrapped to the terminal's width (when
// known) with continuation lines indented under their first.
type cacheWriter struct {
	b     strings.Builder
	width int
}

// line writes text (already sanitised) indented by indent spaces.
func (w *cacheWriter) line(indent int, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	pad := strings.Repeat(" ", indent)
	if w.width <= indent+20 {
		w.b.WriteString(pad + text + "\n")
		return
	}
	for i, l := range strings.Split(ansi.Wrap(text, w.width-indent-2, ""), "\n") {
		if i > 0 {
			w.b.WriteString(pad + "  " + l + "\n")
			continue
		}
		w.b.WriteString(pad + l + "\n")
	}
}

// writeCacheText prints the per-request table, the breaks in words and the
// summary.
func writeCacheText(w io.Writer, steps []*diff.Step, sum diff.Summary, width int, unicode bool) error {
	cw := &cacheWriter{width: width}
	switch sum.Requests {
	case 0:
		cw.line(0, "no request read: nothing to compare")
		_, err := io.WriteString(w, cw.b.String())
		return err
	case 1:
		cw.line(0, "one request: nothing to compare (the cache is compared between consecutive requests)")
		_, err := io.WriteString(w, cw.b.String())
		return err
	}
	providers := map[string]bool{}
	sources := map[string]bool{}
	for _, st := range steps {
		providers[st.Rule.Provider] = true
		sources[st.Source] = true
	}
	var provs []string
	for p := range providers {
		provs = append(provs, p)
	}
	sort.Strings(provs)
	// One source: name it once and number the rows "@N".
	name := func(st *diff.Step) string { return scan.VisibleLine(cacheStepName(st)) }
	head := ""
	if len(sources) == 1 {
		name = func(st *diff.Step) string { return fmt.Sprintf("@%d", st.Index) }
		head = scan.VisibleLine(steps[0].Source) + ": "
	} else if len(steps) == 0 {
		name = func(st *diff.Step) string { return "" }
	}
	cw.line(0, "%s%d requests, %d compared with the one before (cache rules: %s; tokens are o200k_base estimates)",
		head, sum.Requests, sum.Compared, strings.Join(provs, ", "))
	cw.b.WriteByte('\n')

	bar := cacheBarWidth
	rows := [][]string{{"REQUEST", "TOKENS", "PREFIX", "CACHED/NEW", "PRED", "REC", "BREAK"}}
	for _, st := range steps {
		rec := "-"
		if st.Recorded != nil {
			rec = groupDigits(*st.Recorded)
			if st.Disagreement != "" {
				rec += "!"
			}
		}
		rows = append(rows, []string{name(st), groupDigits(st.TotalTokens),
			groupDigits(st.PrefixTokens), "", groupDigits(st.Prediction.Cached), rec, cacheBreakShort(st.Break)})
	}
	if width > 0 {
		// The bar and then the break column give way to a narrow terminal.
		colW := func(c int) int {
			wc := 0
			for _, r := range rows {
				wc = max(wc, ansi.StringWidth(r[c]))
			}
			return wc
		}
		fixed := 2 + (len(rows[0])-1)*2
		for _, c := range []int{0, 1, 2, 4, 5} {
			fixed += colW(c)
		}
		breakW := colW(6)
		bar = max(8, min(cacheBarWidth, width-fixed-breakW))
		if room := width - fixed - bar; room < breakW {
			room = max(room, 12)
			for _, r := range rows {
				r[6] = ansi.Truncate(r[6], room, "…")
			}
		}
	}
	rows[0][3] = ansi.Truncate(rows[0][3], bar, "")
	for i, st := range steps {
		rows[i+1][3] = cacheBar(st.Prediction.Cached, st.PrefixTokens, st.TotalTokens, bar, unicode)
	}
	writeTable(&cw.b, rows, width, map[int]bool{1: true, 2: true, 4: true, 5: true})
	full, mid, empty := "█", "▒", "░"
	if !unicode {
		full, mid, empty = "#", "+", "."
	}
	cw.line(2, "%s predicted cached  %s shared with the previous request, not cached  %s new;  ! recorded disagrees",
		full, mid, empty)

	// Breaks in words, grouped by segment, cause and value.
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
	if len(groups) > 0 {
		cw.b.WriteString("\nBreaks\n")
		const maxGroups = 12
		for i, g := range groups {
			if i == maxGroups {
				cw.line(2, "… and %d more kinds of break", len(groups)-maxGroups)
				break
			}
			br := g.first.Break
			times := "once"
			if g.n > 1 {
				times = fmt.Sprintf("%d times", g.n)
			}
			cw.line(2, "%s (%s, first at %s)", cacheBreakSentence(br), times, name(g.first))
			if br.Cause != diff.CauseModel && br.Cause != diff.CauseProvider {
				cw.b.WriteString("    before: " + cacheExcerpt(br.Before, width) + "\n")
				cw.b.WriteString("    after:  " + cacheExcerpt(br.After, width) + "\n")
			}
		}
	}

	var dis []*diff.Step
	for _, st := range steps {
		if st.Disagreement != "" {
			dis = append(dis, st)
		}
	}
	if len(dis) > 0 {
		cw.b.WriteString("\nPredicted against recorded\n")
		for i, st := range dis {
			if i == 10 {
				cw.line(2, "… and %d more", len(dis)-10)
				break
			}
			cw.line(2, "%s: %s", name(st), scan.VisibleLine(st.Disagreement))
		}
	}
	var notes []string
	seen := map[string]bool{}
	for _, st := range steps {
		for _, n := range st.Notes {
			if !seen[n] {
				seen[n] = true
				notes = append(notes, name(st)+": "+scan.VisibleLine(n))
			}
		}
	}
	if len(notes) > 0 {
		cw.b.WriteString("\nNotes\n")
		for i, n := range notes {
			if i == 10 {
				cw.line(2, "… and %d more", len(notes)-10)
				break
			}
			cw.line(2, "%s", n)
		}
	}

	cw.b.WriteString("\nSummary\n")
	cw.line(2, "reuse ratio %.2f: %s of %s tokens shared with the request before",
		sum.ReuseRatio, groupDigits(sum.PrefixTokens), groupDigits(sum.TotalTokens))
	cw.line(2, "%s, %s tokens re-processed because of them", cachePlural(sum.Breaks, "break"), groupDigits(sum.ReprocessedTokens))
	if sum.Breaks > 0 {
		if len(sum.BreaksByChannel) > 0 {
			cw.line(2, "by channel: %s", cacheCounts(sum.BreaksByChannel))
			cw.line(2, "by kind: %s", cacheCounts(sum.BreaksByKind))
		}
		if len(sum.BreaksByVolatile) > 0 {
			cw.line(2, "by changing value: %s", cacheCounts(sum.BreaksByVolatile))
		}
		cw.line(2, "by cause: %s", cacheCounts(sum.BreaksByCause))
	}
	pred := fmt.Sprintf("predicted cached: %s tokens", groupDigits(sum.Predicted))
	if sum.RecordedRequests > 0 {
		pred += fmt.Sprintf("; recorded: %s tokens over %s (%d disagree)", groupDigits(sum.Recorded),
			cachePlural(sum.RecordedRequests, "request"), sum.Disagreements)
	}
	cw.line(2, "%s", pred)
	if len(sum.Worst) > 0 {
		cw.line(2, "worst requests:")
		for _, st := range sum.Worst {
			cw.line(4, "%s  %s tokens re-processed: %s", name(st), groupDigits(st.Reprocessed), cacheBreakShort(st.Break))
		}
	}
	_, err := io.WriteString(w, cw.b.String())
	return err
}

// cachePlural writes "1 break", "2 breaks".
func cachePlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// cacheStepName names a request as FILE@N (always with the number, which a
// cache table needs).
func cacheStepName(st *diff.Step) string {
	return fmt.Sprintf("%s@%d", st.Source, st.Index)
}

// cacheExcerpt shows an excerpt on one line, cut to the terminal.
func cacheExcerpt(s string, width int) string {
	v := "…" + scan.VisibleLine(s) + "…"
	if width > 14 {
		v = ansi.Truncate(v, width-14, "…")
	}
	return v
}

// cacheCounts writes "system 4, tools 1", largest first.
func cacheCounts(m map[string]int) string {
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
