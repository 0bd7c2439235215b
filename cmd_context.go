package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/breakdown"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newContextCmd) }

func newContextCmd(app *App) *cobra.Command {
	var (
		asJSON bool
		prices string
	)
	cmd := &cobra.Command{
		Use:   "context FILE[@N]... [--json] [--prices FILE]",
		Short: "What a request's context is made of: tokens and bytes by category, with trust and cached share",
		Long: `context breaks a request down by category: host rules, tool schemas (per tool, and per MCP
server where the tool's name says it, as mcp__server__tool), workspace instruction files (per
file), listings, skills (per skill), the time and other host facts, the user's and the model's
turns, tool results (per tool) and the model's reasoning. Each line gives its trust, its
estimated tokens (o200k_base: each provider's own tokenizer differs) and share, its bytes, and
how many of its tokens lie in the cached prefix: the recorded cache read where the response's
usage was recorded, else the cache rules' prediction (as "wirelens cache" makes it, comparing
the request with the earlier ones of its file). The recorded totals are shown beside the
estimate, and, when the price table knows the model, what each line costs (cached tokens at the
cached-read price, the rest at the input price).

FILE@N names one request. A FILE of several requests shows its last request and, above it, how
each category grew over the session, one row a request; --json lists every request.`,
		Example: `  wirelens context request.json
  wirelens context session.jsonl@12
  wirelens context ~/.claude/projects/-home-me-app/0c1e....jsonl
  wirelens context capture.har --json | jq '.requests[-1].groups'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tab, err := loadPrices(prices)
			if err != nil {
				return err
			}
			var (
				errs []error
				out  []contextSource
			)
			for _, src := range args {
				cs := contextSource{name: src}
				var seq diff.Sequence
				app.decode(src, func(r wire.Request, err error) bool {
					if err != nil {
						errs = append(errs, err)
						return true
					}
					st := seq.Add(&r)
					c := breakdown.Of(&r)
					if r.Usage != nil && !r.Usage.CachedUnknown {
						c.SplitCached(r.Usage.CachedTokens, string(diff.BasisRecorded))
					} else if st != nil {
						c.SplitCached(st.Prediction.Cached, string(diff.BasisPredicted))
					} else {
						c.SplitCached(0, string(diff.BasisPredicted))
					}
					cs.growth.Add(c)
					cs.last = c
					if asJSON {
						cs.all = append(cs.all, c)
					}
					return true
				})
				if cs.last != nil {
					out = append(out, cs)
				}
			}
			w := bufio.NewWriter(app.Stdout)
			if asJSON {
				doc := contextDocJSON{Requests: []contextJSON{}, Errors: errorsJSON(errs)}
				for _, cs := range out {
					for _, c := range cs.all {
						doc.Requests = append(doc.Requests, contextToJSON(c, tab))
					}
				}
				err = writeJSON(w, doc)
			} else {
				err = writeContextText(w, out, tab, terminalWidth(app.Stdout))
			}
			if err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
			return app.finish(errs, 0)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: every request's breakdown")
	pricesFlag(cmd, &prices)
	return cmd
}

// contextSource is what context keeps of one FILE argument: the breakdown
// of its last request, its growth, and (for --json) every breakdown.
type contextSource struct {
	name   string
	last   *breakdown.Context
	all    []*breakdown.Context
	growth breakdown.Growth
}

// groupTitle is how the text report names a group.
var groupTitle = map[breakdown.Group]string{
	breakdown.GroupHostRules:   "host rules",
	breakdown.GroupTools:       "tool schemas",
	breakdown.GroupInstruction: "workspace files",
	breakdown.GroupListings:    "listings",
	breakdown.GroupSkills:      "skills",
	breakdown.GroupHostFacts:   "time and host facts",
	breakdown.GroupUser:        "user",
	breakdown.GroupModel:       "model",
	breakdown.GroupToolResults: "tool results",
	breakdown.GroupReasoning:   "reasoning",
	breakdown.GroupOther:       "other",
}

// groupShort is the growth table's column heading of a group.
var groupShort = map[breakdown.Group]string{
	breakdown.GroupHostRules:   "RULES",
	breakdown.GroupTools:       "TOOLS",
	breakdown.GroupInstruction: "FILES",
	breakdown.GroupListings:    "LISTS",
	breakdown.GroupSkills:      "SKILLS",
	breakdown.GroupHostFacts:   "FACTS",
	breakdown.GroupUser:        "USER",
	breakdown.GroupModel:       "MODEL",
	breakdown.GroupToolResults: "RESULTS",
	breakdown.GroupReasoning:   "REASON",
	breakdown.GroupOther:       "OTHER",
}

// itemsShown is how many named items of a group the text report lists.
const itemsShown = 12

// itemCost is what an item's tokens cost at row's prices: cached tokens at
// the cached-read price, the rest at the input price.
func itemCost(tokens, cached int, row price.Row) float64 {
	return row.Cost(price.Tokens{Input: max(0, tokens-cached), CachedRead: cached})
}

// share is part over whole as a percentage, one decimal.
func share(part, whole int) string {
	if whole <= 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}

// writeContextText writes each source: the growth table when it holds
// several requests, then the breakdown of its last request.
func writeContextText(w *bufio.Writer, srcs []contextSource, tab *price.Table, width int) error {
	var unconfirmed []string
	for i, cs := range srcs {
		if i > 0 {
			w.WriteByte('\n')
		}
		if len(cs.growth.Rows) > 1 {
			writeGrowth(w, cs, width)
			w.WriteByte('\n')
		}
		if u := writeContextBlock(w, cs.last, tab, width); u != "" && !strings.Contains(strings.Join(unconfirmed, "\x00"), u) {
			unconfirmed = append(unconfirmed, u)
		}
	}
	if len(srcs) == 0 {
		w.WriteString("no request read\n")
		return nil
	}
	w.WriteString("\n" + priceNote(tab, unconfirmed) + "\n")
	return nil
}

// writeGrowth writes how each group grew over a session: one row a request,
// one column a group found in any of them.
func writeGrowth(w *bufio.Writer, cs contextSource, width int) {
	used := make([]bool, len(breakdown.Groups))
	for _, row := range cs.growth.Rows {
		for i, n := range row.ByGroup {
			used[i] = used[i] || n > 0
		}
	}
	head := []string{"REQUEST", "TOKENS", "CACHED"}
	for i, g := range breakdown.Groups {
		if used[i] {
			head = append(head, groupShort[g])
		}
	}
	right := map[int]bool{}
	for c := 1; c < len(head); c++ {
		right[c] = true
	}
	rows := [][]string{head}
	for _, row := range cs.growth.Rows {
		cells := []string{"@" + strconv.Itoa(row.Index), wire.GroupDigits(row.Tokens), wire.GroupDigits(row.Cached)}
		for i, n := range row.ByGroup {
			if used[i] {
				cells = append(cells, wire.GroupDigits(n))
			}
		}
		rows = append(rows, cells)
	}
	w.WriteString(scan.VisibleLine(cs.name) + ": " + plural(len(cs.growth.Rows), "request") +
		", estimated tokens by category (o200k_base)\n")
	writeTable(w, rows, width, right)
}

// writeContextBlock writes the breakdown of one request and returns the
// name of its price row when that row is unconfirmed.
func writeContextBlock(w *bufio.Writer, c *breakdown.Context, tab *price.Table, width int) string {
	name := c.Source
	if c.Index > 1 {
		name += "@" + strconv.Itoa(c.Index)
	}
	fmt.Fprintf(w, "%s  %s  %s  ~%s tokens (%s estimate)  %s bytes\n", scan.VisibleLine(name), c.Format,
		scan.VisibleLine(c.Model), wire.GroupDigits(c.Tokens), c.Encoding, wire.GroupDigits(c.Bytes))
	if u := c.Recorded; u != nil {
		rec := "recorded: " + wire.GroupDigits(u.InputTokens) + " input tokens"
		if u.CachedUnknown {
			rec += " (cached tokens not recorded)"
		} else {
			rec += ", " + wire.GroupDigits(u.CachedTokens) + " read from the cache, " + wire.GroupDigits(u.CacheWriteTokens) + " written to it"
		}
		if u.OutputTokens > 0 {
			rec += ", " + wire.GroupDigits(u.OutputTokens) + " output"
		}
		w.WriteString(rec + "\n")
		if u.InputTokens > c.Tokens*3/2+64 {
			w.WriteString("the recorded input is larger than this request as the file holds it: the recording leaves out part of what was sent (inspect lists what)\n")
		}
	}
	fmt.Fprintf(w, "cached prefix: %s tokens (%s)\n", wire.GroupDigits(c.CachedTokens), c.CachedBasis)
	row, priced := tab.Lookup(c.Model)
	if priced {
		total := 0.0
		for _, t := range c.Totals() {
			total += itemCost(t.Tokens, t.Cached, row)
		}
		fmt.Fprintf(w, "price: %s (input %s, cached read %s per million tokens); this prompt ~%s\n",
			scan.VisibleLine(row.Name), rate(row.Input, tab.Currency), rate(row.CachedRead, tab.Currency), money(total, tab.Currency))
	} else {
		fmt.Fprintf(w, "price: none for model %q in the price table\n", scan.VisibleLine(c.Model))
	}
	head := []string{"CATEGORY", "TRUST", "TOKENS", "SHARE", "CACHED", "BYTES"}
	if priced {
		head = append(head, "COST")
	}
	rows := [][]string{head}
	add := func(indent int, label, trust string, tokens, cached, bytes int) {
		cells := []string{strings.Repeat("  ", indent) + label, trust, wire.GroupDigits(tokens), share(tokens, c.Tokens),
			wire.GroupDigits(cached), wire.GroupDigits(bytes)}
		if priced {
			cells = append(cells, money(itemCost(tokens, cached, row), tab.Currency))
		}
		rows = append(rows, cells)
	}
	servers := c.Servers()
	for _, t := range c.Totals() {
		var trusts []string
		for _, tr := range t.Trusts {
			trusts = append(trusts, string(tr))
		}
		add(0, groupTitle[t.Group], strings.Join(trusts, "+"), t.Tokens, t.Cached, t.Bytes)
		if t.Group == breakdown.GroupTools {
			for _, s := range servers {
				add(1, "MCP "+scan.VisibleLine(s.Name)+" ("+plural(s.Tools, "tool")+")", "", s.Tokens, s.Cached, s.Bytes)
			}
		}
		shown, more, moreTok := 0, 0, 0
		for _, it := range c.Items {
			if it.Group != t.Group || it.Name == "" && len(t.Trusts) == 1 {
				continue
			}
			if shown == itemsShown {
				more++
				moreTok += it.Tokens
				continue
			}
			shown++
			label := scan.VisibleLine(it.Name)
			if label == "" {
				label = "(unnamed)"
			}
			add(1, label, string(it.Trust), it.Tokens, it.Cached, it.Bytes)
		}
		if more > 0 {
			rows = append(rows, []string{"  … and " + plural(more, "more"), "", wire.GroupDigits(moreTok), share(moreTok, c.Tokens), "", ""})
			if priced {
				rows[len(rows)-1] = append(rows[len(rows)-1], "")
			}
		}
	}
	cachedAll := 0
	for _, t := range c.Totals() {
		cachedAll += t.Cached
	}
	add(0, "total", "", c.Tokens, cachedAll, c.Bytes)
	right := map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true}
	writeTable(w, rows, width, right)
	if priced && row.Unconfirmed {
		return row.Name
	}
	return ""
}

// contextDocJSON is `context --json`.
type contextDocJSON struct {
	Requests []contextJSON `json:"requests"`
	Errors   []errorJSON   `json:"errors"`
}

type contextJSON struct {
	Source       string              `json:"source"`
	Index        int                 `json:"index"`
	Format       string              `json:"format"`
	Model        string              `json:"model"`
	Encoding     string              `json:"encoding"`
	Tokens       int                 `json:"tokens"`
	Bytes        int                 `json:"bytes"`
	Recorded     *wire.Usage         `json:"recorded"`
	CachedTokens int                 `json:"cached_tokens"`
	CachedBasis  string              `json:"cached_basis"`
	Price        *contextPriceJSON   `json:"price"`
	Groups       []contextGroupJSON  `json:"groups"`
	Items        []contextItemJSON   `json:"items"`
	MCPServers   []contextServerJSON `json:"mcp_servers"`
}

type contextPriceJSON struct {
	Name        string  `json:"name"`
	Currency    string  `json:"currency"`
	Date        string  `json:"date"`
	Input       float64 `json:"input"`
	CachedRead  float64 `json:"cached_read"`
	Unconfirmed bool    `json:"unconfirmed,omitempty"`
	// Cost is the prompt's: cached tokens at the cached-read price, the
	// rest at the input price.
	Cost float64 `json:"cost"`
}

type contextGroupJSON struct {
	Group        string   `json:"group"`
	Trust        []string `json:"trust"`
	Segments     int      `json:"segments"`
	Tokens       int      `json:"tokens"`
	Bytes        int      `json:"bytes"`
	Share        float64  `json:"share"`
	CachedTokens int      `json:"cached_tokens"`
	Cost         *float64 `json:"cost,omitempty"`
}

type contextItemJSON struct {
	Group        string   `json:"group"`
	Name         string   `json:"name"`
	Server       string   `json:"server,omitempty"`
	Trust        string   `json:"trust"`
	Segments     int      `json:"segments"`
	Tokens       int      `json:"tokens"`
	Bytes        int      `json:"bytes"`
	CachedTokens int      `json:"cached_tokens"`
	Cost         *float64 `json:"cost,omitempty"`
}

type contextServerJSON struct {
	Name         string `json:"name"`
	Tools        int    `json:"tools"`
	Tokens       int    `json:"tokens"`
	Bytes        int    `json:"bytes"`
	CachedTokens int    `json:"cached_tokens"`
}

// contextToJSON is one request of `context --json`.
func contextToJSON(c *breakdown.Context, tab *price.Table) contextJSON {
	j := contextJSON{Source: c.Source, Index: c.Index, Format: string(c.Format), Model: scan.VisibleLine(c.Model),
		Encoding: c.Encoding, Tokens: c.Tokens, Bytes: c.Bytes, Recorded: c.Recorded, CachedTokens: c.CachedTokens,
		CachedBasis: c.CachedBasis, Groups: []contextGroupJSON{}, Items: []contextItemJSON{},
		MCPServers: []contextServerJSON{}}
	row, priced := tab.Lookup(c.Model)
	cost := func(tokens, cached int) *float64 {
		if !priced {
			return nil
		}
		v := roundMoney(itemCost(tokens, cached, row))
		return &v
	}
	total := 0.0
	for _, t := range c.Totals() {
		g := contextGroupJSON{Group: string(t.Group), Trust: []string{}, Segments: t.Segments, Tokens: t.Tokens,
			Bytes: t.Bytes, CachedTokens: t.Cached, Cost: cost(t.Tokens, t.Cached)}
		if c.Tokens > 0 {
			g.Share = float64(int(10000*float64(t.Tokens)/float64(c.Tokens)+0.5)) / 10000
		}
		for _, tr := range t.Trusts {
			g.Trust = append(g.Trust, string(tr))
		}
		if priced {
			total += itemCost(t.Tokens, t.Cached, row)
		}
		j.Groups = append(j.Groups, g)
	}
	for _, it := range c.Items {
		j.Items = append(j.Items, contextItemJSON{Group: string(it.Group), Name: scan.VisibleLine(it.Name),
			Server: scan.VisibleLine(it.Server), Trust: string(it.Trust), Segments: it.Segments, Tokens: it.Tokens,
			Bytes: it.Bytes, CachedTokens: it.Cached, Cost: cost(it.Tokens, it.Cached)})
	}
	for _, s := range c.Servers() {
		j.MCPServers = append(j.MCPServers, contextServerJSON{Name: scan.VisibleLine(s.Name), Tools: s.Tools,
			Tokens: s.Tokens, Bytes: s.Bytes, CachedTokens: s.Cached})
	}
	if priced {
		j.Price = &contextPriceJSON{Name: row.Name, Currency: tab.Currency, Date: tab.Date, Input: row.Input,
			CachedRead: row.CachedRead, Unconfirmed: row.Unconfirmed, Cost: roundMoney(total)}
	}
	return j
}
