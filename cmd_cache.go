package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newCacheCmd) }

func newCacheCmd(app *App) *cobra.Command {
	var asJSON, consecutive bool
	var prices string
	cmd := &cobra.Command{
		Use:         "cache FILE... [--json] [--consecutive]",
		Annotations: map[string]string{globalsAnnotation: inputGlobals},
		Short:       "Prompt-cache stability over a sequence of requests",
		Long: `cache compares each request with the last earlier request of the same model and provider
(the provider's family and, when the input records it, the endpoint's host): providers keep one
cache per model, so an agent that sends a small model's requests (titles, summaries) between the
main conversation's is shown reading the main conversation's cache, not breaking it at every
switch. The first request of a model is compared with the request just before it, and its break
names the change of model (or provider). With --consecutive each request is compared with the
request just before it whatever its model (a "model changed" break at every switch).

The comparison is in the provider's cache order (tools, then system, then messages): how much of
the earlier request it starts with, in bytes and estimated tokens (o200k_base; providers' own
tokenizers differ), and where and why the shared prefix breaks: the segment, its channel and
kind, the offset, and the changing value it falls in (a timestamp, a UUID, a counter, ...).

From the provider's cache rules (OpenAI automatic prefix caching, Anthropic cache_control
breakpoints, Gemini implicit caching, Moonshot/Kimi automatic caching) it predicts the cached
tokens of each request from what the earlier requests of the same model left in the cache
(entries are taken to be alive: their time to live is not modelled), and sets the recorded
cache reads beside them, saying plainly where they disagree. The summary gives the reuse
ratio, the tokens re-processed because of breaks, the breaks grouped by cause, and the worst
requests.

Each break is priced (--prices FILE for a table of your own): the tokens processed or written
to the cache again instead of read, at the difference between the two prices, from the
recorded usage where both requests recorded it and predicted otherwise, and so is the session
as a whole; every amount says which.

All FILE arguments form one sequence, in the order given (a JSONL session, a HAR export, a
recording, or one request per file). FILE may be "-" for standard input. --by-model is accepted
for compatibility and does nothing: comparing by model is the default.`,
		Example: `  wirelens cache session.jsonl
  wirelens cache capture.har --json | jq '.summary.reuse_ratio'
  wirelens cache req1.json req2.json req3.json
  wirelens cache --consecutive claude-trace.jsonl`,
		Args: needInputs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Each step is written (JSON) or folded into the report (text)
			// as it is computed: only the last request of each model is held
			// (the previous one with --consecutive), never the session.
			tab, err := loadPrices(prices)
			if err != nil {
				return err
			}
			var (
				seq    = diff.Sequence{Consecutive: consecutive}
				ledger = diff.Ledger{Prices: tab}
				errs   []error
				werr   error
				out    cacheOutput
			)
			// Steps wait until the lanes' names are settled (a few
			// requests: diff.Sequence.Settled), then go out named.
			var held []heldStep
			flush := func() error {
				for _, h := range held {
					h.st.Lane, h.st.PrevLane = seq.Named(h.st.Lane), seq.Named(h.st.PrevLane)
					out.noteCost(h.cost)
					if err := out.add(h.st); err != nil {
						return err
					}
				}
				held = held[:0]
				return nil
			}
			bw := bufio.NewWriterSize(app.Stdout, 64<<10)
			if asJSON {
				out = newCacheJSON(bw)
				out.(*cacheJSON).prices = tab
			} else {
				text := newCacheText(bw, tableWidth(app.Stdout), localeUnicode())
				text.consecutive = consecutive
				text.costs.prices = tab
				out = text
			}
			// The inputs are decoded several at a time, each request's
			// segments counted (the counts are cached by content, once
			// a process), then added to the one sequence in the order
			// given.
			newWork := func() func(*wire.Request) struct{} {
				var prev []wire.Segment
				return func(r *wire.Request) struct{} {
					countNew(prev, r.Segments)
					prev = r.Segments
					return struct{}{}
				}
			}
			runBatch(app, args, newWork, func(r *wire.Request, err error, _ struct{}) bool {
				if err != nil {
					errs = append(errs, err)
					return true
				}
				st := seq.Add(r)
				cost := ledger.AddIn(seq.LastLane().ID, r, st)
				if st != nil {
					held = append(held, heldStep{st, cost})
				}
				if seq.Settled() {
					werr = flush()
				}
				return werr == nil
			})
			if werr != nil {
				return werr
			}
			seq.Settle()
			if err := flush(); err != nil {
				return err
			}
			out.noteTotals(ledger.Totals())
			if err := out.finish(seq.Summary(), errs); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			return app.finish(errs, 0)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the shape of CONTRACT.md)")
	cmd.Flags().BoolVar(&consecutive, "consecutive", false, "compare each request with the one just before it, whatever its model")
	cmd.Flags().Bool("by-model", false, "accepted for compatibility, does nothing: comparing by model is the default")
	pricesFlag(cmd, &prices)
	addProvenanceFlags(cmd, app)
	return cmd
}

// heldStep is a step cache holds until its lane's name is settled, with
// its cost.
type heldStep struct {
	st   *diff.Step
	cost diff.Cost
}

// countNew counts the tokens of segs (wire.CountTokensHashed caches them by
// content), past those it shares with prev: a recording's requests share one
// backing array of segments, each holding a longer prefix of it, so a
// session of N requests counts its segments once, not N times over.
func countNew(prev, segs []wire.Segment) {
	from := 0
	if len(prev) > 0 && len(segs) >= len(prev) && &prev[0] == &segs[0] {
		from = len(prev)
	}
	for i := from; i < len(segs); i++ {
		segs[i].Tokens()
	}
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

// breakLabel is the break column: "system[0]/time timestamp", "-" for none.
func breakLabel(b *diff.Break) string {
	if b == nil {
		return "-"
	}
	return b.Brief()
}

// cacheText is the text report of cache, gathered step by step and written
// once the summary is known (the heading needs the totals before the rows):
// lines wrapped to the terminal's width (when known) with continuation lines
// indented under their first, and requests named as the report names them.
// It keeps what the report shows of each step, never the step: a table row
// packed in a few bytes, with its source and break label by number, and in
// full only the first break of each kind and the first disagreements and
// notes. A long session costs a few bytes a request.
type cacheText struct {
	b       *bufio.Writer
	width   int
	unicode bool
	// consecutive says the requests were compared with the one just before
	// (cache --consecutive), not the last earlier one of their model.
	consecutive bool
	// name is how the report names a request (set when it is written).
	name func(source string, index int) string

	sources   []string // the steps' sources, each once
	sourceIDs map[string]int
	labels    []string // the rows' break labels, each once
	labelIDs  map[string]int
	rows      []byte // the table rows, packed by add
	providers map[string]bool

	groups    []*breakGroup  // the kinds of break shown, in order of appearance
	groupKeys map[string]int // every kind of break seen
	disagree  []stepNote     // the first disagreements
	disagreeN int
	verdicts  []stepNote // the first provider verdicts, beside wirelens's attribution
	verdictN  int
	notes     []stepNote // the first distinct notes
	seenNotes map[string]bool
	expiries  []stepNote // the first expiries
	expiryN   int
	laneNames []string // the rows' lane names, each once
	laneIDs   map[string]int
	timed     bool // some request's idle time is known

	costs cacheCosts
}

// stepRef names a step of the report: its source (by number) and index.
type stepRef struct{ source, index int }

// stepNote is a text the report shows for one step.
type stepNote struct {
	at   stepRef
	text string
}

// breakGroup is one kind of break: the first break of the kind, where, and
// how often it happened.
type breakGroup struct {
	first stepRef
	br    diff.Break
	n     int
}

// How many kinds of break, disagreements and notes the text report shows.
const (
	maxBreakGroups   = 12
	maxDisagreements = 10
	maxNotes         = 10
)

// The flags of a packed table row.
const (
	rowRecorded  = 1 // a recorded cache read follows
	rowDisagrees = 2 // the record disagrees with the prediction
	rowIdle      = 4 // the idle time, in milliseconds, follows
	rowExpired   = 8 // a prefix had expired
)

func newCacheText(b *bufio.Writer, width int, unicode bool) *cacheText {
	return &cacheText{b: b, width: width, unicode: unicode, sourceIDs: map[string]int{}, labelIDs: map[string]int{},
		laneIDs:   map[string]int{},
		providers: map[string]bool{}, groupKeys: map[string]int{}, seenNotes: map[string]bool{}}
}

// intern is the number of s in list, added when new.
func intern(list *[]string, ids map[string]int, s string) int {
	id, ok := ids[s]
	if !ok {
		id = len(*list)
		*list = append(*list, s)
		ids[s] = id
	}
	return id
}

// add folds st into the report. The row is packed as varints: source,
// index, tokens, prefix tokens, predicted cached tokens, flags, the recorded
// cache read (when there is one) and the break label.
func (t *cacheText) add(st *diff.Step) error {
	if st.PrevSource != "" {
		// The request compared with counts among the sources: "cache A B"
		// names B's request B@1, not @1 under A's heading.
		intern(&t.sources, t.sourceIDs, st.PrevSource)
	}
	at := stepRef{source: intern(&t.sources, t.sourceIDs, st.Source), index: st.Index}
	t.costs.keepBreak(at, t.costs.takeCost())
	t.providers[st.Rule.Provider] = true
	var flags byte
	if st.Recorded != nil {
		flags |= rowRecorded
		if st.Disagreement != "" {
			flags |= rowDisagrees
		}
	}
	if st.HasIdle {
		flags |= rowIdle
		t.timed = true
	}
	if st.Expired != nil {
		flags |= rowExpired
	}
	t.rows = binary.AppendUvarint(t.rows, uint64(at.source))
	pred := st.Prediction.Cached
	if st.Prediction.Unavailable != "" {
		pred = -1 // no prediction
	}
	for _, n := range []int{st.Index, st.TotalTokens, st.PrefixTokens, pred} {
		t.rows = binary.AppendVarint(t.rows, int64(n))
	}
	t.rows = append(t.rows, flags)
	if st.Recorded != nil {
		t.rows = binary.AppendVarint(t.rows, int64(*st.Recorded))
	}
	if st.HasIdle {
		t.rows = binary.AppendVarint(t.rows, st.Idle.Milliseconds())
	}
	label := breakLabel(st.Break)
	if e := st.Expired; e != nil {
		exp := "expired, " + e.Sentence()
		if st.Break == nil {
			label = exp
		} else {
			label += "; " + exp
		}
	}
	t.rows = binary.AppendUvarint(t.rows, uint64(intern(&t.labels, t.labelIDs, label)))
	t.rows = binary.AppendUvarint(t.rows, uint64(intern(&t.laneNames, t.laneIDs, st.Lane.Name)))
	if e := st.Expired; e != nil {
		if t.expiryN < maxDisagreements {
			t.expiries = append(t.expiries, stepNote{at, e.Sentence() + ": " + wire.GroupDigits(e.Tokens) +
				" tokens of the prefix written by " + e.From + " were written again"})
		}
		t.expiryN++
	}

	if br := st.Break; br != nil {
		key := br.Segment + "\x00" + string(br.Cause) + "\x00" + string(br.Volatile)
		if br.Cause.Switch() {
			key = string(br.Cause) + "\x00" + br.Before + "\x00" + br.After
		}
		if i, ok := t.groupKeys[key]; !ok {
			t.groupKeys[key] = len(t.groups)
			if len(t.groups) < maxBreakGroups {
				t.groups = append(t.groups, &breakGroup{first: at, br: *br, n: 1})
			}
		} else if i < len(t.groups) {
			t.groups[i].n++
		}
	}
	if st.Verdict != nil {
		if t.verdictN < maxDisagreements {
			t.verdicts = append(t.verdicts, stepNote{at, verdictText(st)})
		}
		t.verdictN++
	}
	if st.Disagreement != "" {
		if t.disagreeN < maxDisagreements {
			t.disagree = append(t.disagree, stepNote{at, st.Disagreement})
		}
		t.disagreeN++
	}
	for _, n := range st.Notes {
		if !t.seenNotes[n] {
			t.seenNotes[n] = true
			if len(t.notes) < maxNotes {
				t.notes = append(t.notes, stepNote{at, n})
			}
		}
	}
	return nil
}

// cacheRow is a table row as add packed it.
type cacheRow struct {
	at                        stepRef
	tokens, prefix, predicted int
	recorded                  int
	hasRecorded, disagrees    bool
	idle                      time.Duration
	hasIdle                   bool
	label, lane               int
}

// eachRow unpacks the table rows in order.
func (t *cacheText) eachRow(f func(row *cacheRow)) {
	buf := t.rows
	uvarint := func() int {
		v, n := binary.Uvarint(buf)
		buf = buf[n:]
		return int(v)
	}
	varint := func() int {
		v, n := binary.Varint(buf)
		buf = buf[n:]
		return int(v)
	}
	var row cacheRow
	for len(buf) > 0 {
		row.at.source = uvarint()
		row.at.index, row.tokens, row.prefix, row.predicted = varint(), varint(), varint(), varint()
		flags := buf[0]
		buf = buf[1:]
		row.hasRecorded, row.disagrees, row.recorded = flags&rowRecorded != 0, flags&rowDisagrees != 0, 0
		row.hasIdle, row.idle = flags&rowIdle != 0, 0
		if row.hasRecorded {
			row.recorded = varint()
		}
		if row.hasIdle {
			row.idle = time.Duration(varint()) * time.Millisecond
		}
		row.label = uvarint()
		row.lane = uvarint()
		f(&row)
	}
}

// finish writes the report: a heading, the per-request table, the breaks in
// words, where prediction and record disagree, the notes and the summary.
// Input errors go to standard error, not into the report.
func (t *cacheText) finish(sum diff.Summary, _ []error) error {
	switch sum.Requests {
	case 0:
		t.line(0, "no request read: nothing to compare")
	case 1:
		t.line(0, "one request: nothing to compare (the cache is compared between consecutive requests)")
	default:
		// Requests are "@N" when they all come from one source (named once
		// in the heading), else FILE@N.
		source := ""
		t.name = func(src string, index int) string { return scan.VisibleLine(src + "@" + strconv.Itoa(index)) }
		if len(t.sources) == 1 {
			source = t.sources[0]
			t.name = func(_ string, index int) string { return "@" + strconv.Itoa(index) }
		} else {
			source = sourceList(t.sources)
		}
		t.heading(sum, source)
		t.table()
		t.breaks()
		t.capped("Expired", t.expiries, t.expiryN)
		t.capped("Predicted against recorded", t.disagree, t.disagreeN)
		t.capped("Provider verdicts", t.verdicts, t.verdictN)
		t.capped("Notes", t.notes, len(t.seenNotes))
		t.summary(sum)
		t.writeCosts()
	}
	return nil
}

// sourceList names the files of a sequence for the heading: the first
// three, then how many more.
func sourceList(sources []string) string {
	const shown = 3
	if len(sources) <= shown {
		return strings.Join(sources, ", ")
	}
	return strings.Join(sources[:shown], ", ") + " and " + plural(len(sources)-shown, "more file")
}
func (t *cacheText) noteCost(c diff.Cost)             { t.costs.noteCost(c) }
func (t *cacheText) noteTotals(tot diff.LedgerTotals) { t.costs.noteTotals(tot) }

// writeCacheText writes the text report of steps and their summary at once,
// as cache writes it (the viewer's plain-text output shares it).
func writeCacheText(w io.Writer, steps []*diff.Step, sum diff.Summary, width int, unicode bool) error {
	b := bufio.NewWriter(w)
	t := newCacheText(b, width, unicode)
	for _, st := range steps {
		t.add(st)
	}
	if err := t.finish(sum, nil); err != nil {
		return err
	}
	return b.Flush()
}

// line writes text (already sanitised) indented by indent spaces.
func (t *cacheText) line(indent int, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	pad := strings.Repeat(" ", indent)
	if t.width <= indent+20 {
		t.b.WriteString(pad + text + "\n")
		return
	}
	for i, l := range strings.Split(ansi.Wrap(text, t.width-indent-2, ""), "\n") {
		if i > 0 {
			t.b.WriteString(pad + "  " + l + "\n")
			continue
		}
		t.b.WriteString(pad + l + "\n")
	}
}

// capped writes a section under its title: the first items, each as the
// request it belongs to and its text, then how many more of total there are.
// An empty section is left out.
func (t *cacheText) capped(title string, items []stepNote, total int) {
	if len(items) == 0 {
		return
	}
	t.b.WriteString("\n" + title + "\n")
	for _, it := range items {
		t.line(2, "%s", t.nameOf(it.at)+": "+scan.VisibleLine(it.text))
	}
	if total > len(items) {
		t.line(2, "… and %d more", total-len(items))
	}
}

// nameOf is how the report names the request of a step.
func (t *cacheText) nameOf(at stepRef) string { return t.name(t.sources[at.source], at.index) }

// heading names the source (when all requests share one) and says how many
// requests were compared under which providers' rules.
func (t *cacheText) heading(sum diff.Summary, source string) {
	provs := slices.Sorted(maps.Keys(t.providers))
	head := ""
	if source != "" {
		head = scan.VisibleLine(source) + ": "
	}
	of := " of the same model and provider"
	if t.consecutive {
		of = ""
	}
	est := "tokens are o200k_base estimates"
	if sum.ScaleSamples > 0 {
		est += fmt.Sprintf(", scaled by %.2f to this session's recorded usage for the predictions", sum.TokenScale)
	}
	t.line(0, "%s%d requests, %d compared with the one before%s (cache rules: %s; %s)",
		head, sum.Requests, sum.Compared, of, strings.Join(provs, ", "), est)
	t.b.WriteByte('\n')
}

// cacheCols are the indices of the table's columns: LANE and IDLE are
// there only when the report has more than one lane, or times (-1 when not).
type cacheCols struct {
	lane, idle, tokens, prefix, bar, pred, rec, brk, n int
}

func (t *cacheText) columns() cacheCols {
	c := cacheCols{lane: -1, idle: -1}
	n := 1
	if len(t.laneNames) > 1 {
		c.lane, n = n, n+1
	}
	if t.timed {
		c.idle, n = n, n+1
	}
	c.tokens, c.prefix, c.bar, c.pred, c.rec, c.brk, c.n = n, n+1, n+2, n+3, n+4, n+5, n+6
	return c
}

// cells are the table cells of row (the bar's left empty).
func (t *cacheText) cells(cells []string, row *cacheRow, c cacheCols) []string {
	rec := "-"
	if row.hasRecorded {
		rec = wire.GroupDigits(row.recorded)
		if row.disagrees {
			rec += "!"
		}
	}
	cells[0], cells[c.tokens], cells[c.prefix], cells[c.bar] = t.nameOf(row.at), wire.GroupDigits(row.tokens), wire.GroupDigits(row.prefix), ""
	if c.lane >= 0 {
		cells[c.lane] = scan.VisibleLine(t.laneNames[row.lane])
	}
	if c.idle >= 0 {
		cells[c.idle] = "-"
		if row.hasIdle {
			cells[c.idle] = "+" + diff.Duration(row.idle)
		}
	}
	pred := "n/a"
	if row.predicted >= 0 {
		pred = wire.GroupDigits(row.predicted)
	}
	cells[c.pred], cells[c.rec], cells[c.brk] = pred, rec, t.labels[row.label]
	return cells
}

// table is one row per compared request: its lane and the time since the
// request it was compared with (when there are several lanes, and times),
// its tokens, the prefix shared, a bar of cached, shared and new tokens, the
// predicted and recorded cache reads and the break; then the bar's legend.
// The rows are gone through twice: to measure the columns, then to write
// them.
func (t *cacheText) table() {
	c := t.columns()
	head := make([]string, c.n)
	head[0], head[c.tokens], head[c.prefix], head[c.bar], head[c.pred], head[c.rec], head[c.brk] =
		"REQUEST", "TOKENS", "PREFIX", "CACHED/NEW", "PRED", "REC", "BREAK"
	right := map[int]bool{c.tokens: true, c.prefix: true, c.pred: true, c.rec: true}
	if c.lane >= 0 {
		head[c.lane] = "LANE"
	}
	if c.idle >= 0 {
		head[c.idle] = "IDLE"
		right[c.idle] = true
	}
	cells := make([]string, len(head))
	widths := make([]int, len(head))
	measureRow(widths, head)
	rows := 0
	t.eachRow(func(row *cacheRow) {
		measureRow(widths, t.cells(cells, row, c))
		rows++
	})
	bar := barWidth
	labels := t.labels
	if t.width > 0 {
		// The bar and then the break column give way to a narrow terminal.
		fixed := 2 + (len(head)-1)*2
		for i := range head {
			if i != c.bar && i != c.brk {
				fixed += widths[i]
			}
		}
		bar = max(8, min(barWidth, t.width-fixed-widths[c.brk]))
		if room := t.width - fixed - bar; room < widths[c.brk] {
			// Every label is cut once; the column is as wide as the widest
			// cut cell.
			room = max(room, 12)
			head[c.brk] = ansi.Truncate(head[c.brk], room, "…")
			labels = make([]string, len(t.labels))
			widths[c.brk] = ansi.StringWidth(head[c.brk])
			for i, l := range t.labels {
				labels[i] = ansi.Truncate(l, room, "…")
				widths[c.brk] = max(widths[c.brk], ansi.StringWidth(labels[i]))
			}
		}
	}
	head[c.bar] = ansi.Truncate(head[c.bar], bar, "")
	widths[c.bar] = ansi.StringWidth(head[c.bar])
	if rows > 0 {
		widths[c.bar] = max(widths[c.bar], bar)
	}
	fitFirstColumn(widths, t.width)
	writeRow(t.b, head, widths, right)
	t.eachRow(func(row *cacheRow) {
		t.cells(cells, row, c)
		cells[c.bar] = tokenBar(row.predicted, row.prefix, row.tokens, bar, t.unicode)
		cells[c.brk] = labels[row.label]
		writeRow(t.b, cells, widths, right)
	})
	full, mid, empty := barGlyphs(t.unicode)
	t.line(2, "%s predicted cached  %s shared with the previous request, not cached  %s new;  ! recorded disagrees",
		full, mid, empty)
	if c.idle >= 0 {
		t.line(2, "IDLE is the time since the request compared with was sent")
	}
}

// breaks says in words what broke the cache, each kind of break once (by
// segment, cause and value, or by the change of model) with how often and
// where first.
func (t *cacheText) breaks() {
	if len(t.groups) == 0 {
		return
	}
	t.b.WriteString("\nBreaks\n")
	for _, g := range t.groups {
		br := &g.br
		times := "once"
		if g.n > 1 {
			times = fmt.Sprintf("%d times", g.n)
		}
		t.line(2, "%s (%s, first at %s)", br.Sentence(), times, t.nameOf(g.first))
		if !br.Cause.Switch() {
			t.b.WriteString("    before: " + excerptLine(br.Before, t.width) + "\n")
			t.b.WriteString("    after:  " + excerptLine(br.After, t.width) + "\n")
		}
	}
	if more := len(t.groupKeys) - len(t.groups); more > 0 {
		t.line(2, "… and %d more kinds of break", more)
	}
}

// summary is the reuse ratio, the breaks and the tokens they cost by
// channel, kind, value and cause, the predicted and recorded cache reads,
// and the worst requests.
func (t *cacheText) summary(sum diff.Summary) {
	t.b.WriteString("\nSummary\n")
	before := "the earlier request of their model"
	if t.consecutive {
		before = "the request before"
	}
	t.line(2, "reuse ratio %.2f: %s of %s tokens shared with %s",
		sum.ReuseRatio, wire.GroupDigits(sum.PrefixTokens), wire.GroupDigits(sum.TotalTokens), before)
	t.line(2, "%s, %s tokens re-processed because of them", plural(sum.Breaks, "break"), wire.GroupDigits(sum.ReprocessedTokens))
	if sum.Breaks > 0 {
		if len(sum.BreaksByChannel) > 0 {
			t.line(2, "by channel: %s", countList(sum.BreaksByChannel))
			t.line(2, "by kind: %s", countList(sum.BreaksByKind))
		}
		if len(sum.BreaksByVolatile) > 0 {
			t.line(2, "by changing value: %s", countList(sum.BreaksByVolatile))
		}
		t.line(2, "by cause: %s", countList(sum.BreaksByCause))
	}
	pred := fmt.Sprintf("predicted cached: %s tokens", wire.GroupDigits(sum.Predicted))
	if sum.Unpredicted > 0 {
		pred += fmt.Sprintf(" (no prediction for %s: see Notes)", plural(sum.Unpredicted, "request"))
	}
	if sum.RecordedRequests > 0 {
		pred += fmt.Sprintf("; recorded: %s tokens over %s (%d disagree)", wire.GroupDigits(sum.Recorded),
			plural(sum.RecordedRequests, "request"), sum.Disagreements)
	}
	t.line(2, "%s", pred)
	if sum.Expiries > 0 {
		exp := "1 expiry"
		if sum.Expiries != 1 {
			exp = strconv.Itoa(sum.Expiries) + " expiries"
		}
		t.line(2, "%s: %s tokens written again after the cache had expired", exp, wire.GroupDigits(sum.ExpiredTokens))
	}
	if sum.ScaleSamples > 0 {
		t.line(2, "estimates scaled by %.2f to this session's recorded usage (the median over %s)", sum.TokenScale,
			plural(sum.ScaleSamples, "request"))
	}
	if len(sum.Lanes) > 1 {
		t.line(2, "lanes:")
		for _, l := range sum.Lanes {
			text := fmt.Sprintf("%s (%s): %s, reuse %.2f, %s, %d expired", scan.VisibleLine(l.Name), l.ID, plural(l.Requests, "request"),
				l.ReuseRatio(), plural(l.Breaks, "break"), l.Expiries)
			if c := t.costs.totals.Lanes[l.ID]; c != nil && t.costs.prices != nil {
				cur := t.costs.totals.Currency
				text += fmt.Sprintf("; cost %s (breaks %s, expiries %s)", price.Money(c.SpendUSD, cur),
					price.Money(c.BreakUSD, cur), price.Money(c.ExpiryUSD, cur))
			}
			t.line(4, "%s", text)
		}
	}
	if sum.Verdicts > 0 {
		t.line(2, "provider verdicts: %d read, %d agree with wirelens, %d disagree, %d inconclusive",
			sum.Verdicts, sum.VerdictsAgree, sum.VerdictsDisagree, sum.VerdictsInconclusive)
	}
	if len(sum.Worst) > 0 {
		t.line(2, "worst requests:")
		for _, st := range sum.Worst {
			t.line(4, "%s  %s tokens re-processed: %s", t.name(st.Source, st.Index), wire.GroupDigits(st.Reprocessed), breakLabel(st.Break))
		}
	}
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
