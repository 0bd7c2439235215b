package main

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/diff/whatif"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newWhatifCmd) }

func newWhatifCmd(app *App) *cobra.Command {
	var (
		layout, prices, ttl           string
		sortTools, freezeTime, asJSON bool
		demo                          bool
	)
	cmd := &cobra.Command{
		Use:   "whatif FILE... [--layout isolated] [--sort-tools] [--freeze-time] [--ttl 1h] [--json] | --demo",
		Short: "Replay a recorded session re-laid out: the cached tokens, re-processed tokens and money saved",
		Long: `whatif replays a recorded session as if it had been sent another way, and reports, request by
request and in total, the tokens the prompt cache would have read, the tokens breaks would have
made the provider process again, and the money, beside the same figures for the session as
recorded. Each option is a what-if of its own; given together, they are also replayed together:

  --layout isolated  the workspace text (listings, AGENTS.md, skills) and the time move out of
                     the system channel: the workspace as escaped <untrusted_*> envelopes in a
                     user message after the system prompt, then the time in a fringe message
                     (as "wirelens build --layout isolated" sends them)
  --sort-tools       the tool schemas sent in the order of their names
  --freeze-time      the clock's values of the first request kept wherever a later request
                     changed only them

It works on any recording in which wirelens finds the sections (the legacy layout's system
prompt, dated values). Both sides are predicted by the same cache rules on the same estimated
tokens (o200k_base), so they compare; the recorded cache reads are set beside them in --json.
Money is at the price table's prices (--prices FILE for your own). All FILE arguments form one
sequence. --demo replays a legacy session built from the demo's poisoned workspace.

--ttl 1h replays the session as recorded with every cache write living an hour (Anthropic's
cache_control ttl "1h"), at the 1-hour write price, against the recorded lifetimes: what the
re-writes after each expiry cost beside what the dearer writes would have. The recorded usage
stays on both sides to size what the file leaves out and to calibrate the estimates.`,
		Example: `  wirelens whatif --demo
  wirelens whatif session.jsonl --layout isolated
  wirelens whatif capture.har --sort-tools --freeze-time --json | jq '.scenarios[].totals.saved'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if layout != "" && layout != string(assemble.LayoutIsolated) {
				return usageError("--layout must be isolated, not %q (the what-if of the layout as recorded is the recording)", layout)
			}
			if demo {
				if len(args) > 0 {
					return usageError("--demo takes no FILE (got %q)", args[0])
				}
				if layout == "" && !sortTools && !freezeTime {
					layout = string(assemble.LayoutIsolated)
				}
			} else if len(args) == 0 {
				return usageError("whatif needs a FILE (or - for standard input), or --demo")
			}
			tab, err := loadPrices(prices)
			if err != nil {
				return err
			}
			rp := &whatif.Replay{Prices: tab, Scenarios: whatifScenarios(layout != "", sortTools, freezeTime)}
			switch ttl {
			case "":
			case "1h":
				rp.Scenarios = append(rp.Scenarios, whatif.Scenario{Name: "1-hour cache writes", TTL: diff.Lifetime1h, Same: true})
			default:
				return usageError("--ttl must be 1h, not %q", ttl)
			}
			if len(rp.Scenarios) == 0 {
				return usageError("whatif needs a what-if: --layout isolated, --sort-tools, --freeze-time or --ttl 1h")
			}
			var errs []error
			if demo {
				reqs, err := demoSession(5)
				if err != nil {
					return fmt.Errorf("demo: %v", err)
				}
				for i := range reqs {
					rp.Add(&reqs[i])
				}
			}
			for _, src := range args {
				app.decode(src, func(r wire.Request, err error) bool {
					if err != nil {
						errs = append(errs, err)
					} else {
						rp.Add(&r)
					}
					return true
				})
			}
			w := bufio.NewWriter(app.Stdout)
			if asJSON {
				err = writeJSON(w, struct {
					whatif.JSON
					Errors []errorJSON `json:"errors"`
				}{rp.JSON(wire.TokenEncoding), errorsJSON(errs)})
			} else {
				writeWhatifText(w, rp, terminalWidth(app.Stdout))
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
	fl := cmd.Flags()
	fl.StringVar(&layout, "layout", "", "replay in this layout: isolated")
	fl.BoolVar(&sortTools, "sort-tools", false, "replay with the tool schemas sorted by name")
	fl.BoolVar(&freezeTime, "freeze-time", false, "replay with the first request's clock values kept")
	fl.BoolVar(&asJSON, "json", false, "print JSON")
	fl.BoolVar(&demo, "demo", false, "replay a legacy session built from the demo's poisoned workspace")
	fl.StringVar(&ttl, "ttl", "", "replay with every cache write living this long: 1h (Anthropic's cache_control ttl)")
	pricesFlag(cmd, &prices)
	return cmd
}

// whatifScenarios is one scenario per option given, and all of them
// together when more than one is.
func whatifScenarios(isolate, sortTools, freezeTime bool) []whatif.Scenario {
	mk := func(name string, rw assemble.Rewrite) whatif.Scenario {
		return whatif.Scenario{Name: name, Rewrite: rw.Apply}
	}
	var out []whatif.Scenario
	if isolate {
		out = append(out, mk("layout isolated", assemble.Rewrite{Isolate: true}))
	}
	if sortTools {
		out = append(out, mk("sort tools", assemble.Rewrite{SortTools: true}))
	}
	if freezeTime {
		out = append(out, mk("freeze time", assemble.Rewrite{FreezeTime: true}))
	}
	if len(out) > 1 {
		out = append(out, mk("all together", assemble.Rewrite{Isolate: isolate, SortTools: sortTools, FreezeTime: freezeTime}))
	}
	return out
}

// writeWhatifText writes each scenario: a sentence of totals, the table
// of requests, its notes; then the price table used.
func writeWhatifText(w *bufio.Writer, rp *whatif.Replay, width int) {
	as, _ := rp.Totals()
	if as.Requests == 0 {
		w.WriteString("no request read: nothing to replay\n")
		return
	}
	for k, sc := range rp.Scenarios {
		if k > 0 {
			w.WriteByte('\n')
		}
		fmt.Fprintf(w, "what if: %s (%s; predicted by the cache rules on o200k_base estimates, both sides)\n", sc.Name, plural(as.Requests, "request"))
		for _, l := range rp.Summary(k) {
			w.WriteString("  " + l + "\n")
		}
		writeTable(w, rp.Table(k), width, map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true})
		for _, n := range rp.Notes(k) {
			w.WriteString("  note: " + scan.VisibleLine(n) + "\n")
		}
	}
	w.WriteString("\n" + priceNote(rp.Prices, rp.Unconfirmed()) + "\n")
}
