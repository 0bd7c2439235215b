package main

import (
	"bufio"
	"fmt"
	"slices"
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
		Args: needInputs,
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
				doc := contextDocJSON{Requests: []breakdown.JSON{}, Errors: errorsJSON(errs)}
				for _, cs := range out {
					for _, c := range cs.all {
						doc.Requests = append(doc.Requests, c.ToJSON(tab))
					}
				}
				err = writeJSON(w, doc)
			} else {
				err = writeContextText(w, out, tab, tableWidth(app.Stdout))
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
	addProvenanceFlags(cmd, app)
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

// writeContextText writes each source: the growth table when it holds
// several requests, then the breakdown of its last request.
func writeContextText(w *bufio.Writer, srcs []contextSource, tab *price.Table, width int) error {
	if len(srcs) == 0 {
		w.WriteString("no request read\n")
		return nil
	}
	var unconfirmed []string
	for i, cs := range srcs {
		if i > 0 {
			w.WriteByte('\n')
		}
		if len(cs.growth.Rows) > 1 {
			title := scan.VisibleLine(cs.name) + ": " + plural(len(cs.growth.Rows), "request") +
				", estimated tokens by category (o200k_base)"
			w.WriteString(fitLine(title, width, 4) + "\n")
			rows := cs.growth.Table()
			right := numberColumns(1)
			delete(right, len(rows[0])-1) // the bar
			writeTable(w, rows, width, right)
			w.WriteByte('\n')
		}
		// The block's lines of prose (not the table's, which fits
		// already) wrap to a known width, four spaces further in.
		var sb strings.Builder
		bw := bufio.NewWriter(&sb)
		u := writeContextBlock(bw, cs.last, tab, width)
		bw.Flush()
		for _, l := range strings.SplitAfter(sb.String(), "\n") {
			if body, nl := strings.CutSuffix(l, "\n"); !strings.HasPrefix(l, "  ") {
				l = fitLine(body, width, 4)
				if nl {
					l += "\n"
				}
			}
			w.WriteString(l)
		}
		if u != "" && !slices.Contains(unconfirmed, u) {
			unconfirmed = append(unconfirmed, u)
		}
	}
	w.WriteString("\n" + fitLine(priceNote(tab, unconfirmed), width, 4) + "\n")
	return nil
}

// numberColumns marks the columns from first on as right-aligned.
func numberColumns(first int) map[int]bool {
	right := map[int]bool{}
	for c := first; c < 16; c++ {
		right[c] = true
	}
	return right
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
	fmt.Fprintf(w, "context: %s  (%s)\n", strings.Join(breakdown.Bar(c.ByGroup(), c.Tokens, 40), ""), breakdown.Legend)
	row, priced := tab.Lookup(c.Model)
	if priced {
		fmt.Fprintf(w, "price: %s (input %s, cached read %s per million tokens); this prompt ~%s\n",
			scan.VisibleLine(row.Name), price.Rate(row.Input, tab.Currency), price.Rate(row.CachedRead, tab.Currency),
			money(c.PromptCost(row), tab.Currency))
	} else {
		fmt.Fprintf(w, "price: none for model %q in the price table\n", scan.VisibleLine(c.Model))
	}
	writeTable(w, c.Rows(row, priced, tab.Currency), width, numberColumns(2))
	if priced && row.Unconfirmed {
		return row.Name
	}
	return ""
}

// contextDocJSON is `context --json`.
type contextDocJSON struct {
	Requests []breakdown.JSON `json:"requests"`
	Errors   []errorJSON      `json:"errors"`
}
