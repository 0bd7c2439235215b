package main

import (
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff/report"
	"github.com/wirelens/wirelens/wire"
)

func init() { register(newReportCmd) }

func newReportCmd(app *App) *cobra.Command {
	var before, after, format, prices string
	var redacted bool
	cmd := &cobra.Command{
		Use:   "report --before A --after B [--format markdown|html] [--redact]",
		Short: "A self-contained before/after report for a pull request (Markdown or HTML)",
		Long: `report compares two recordings (or builds) of the wire, before and after a change, and
writes one document a reviewer pastes into a pull request or opens in a browser:

  - the trust map of the first request: bytes and tokens by channel and trust, and which
    workspace bytes moved out of (or into) the system channel;
  - the findings of check introduced and fixed (a finding carried by several requests counts once);
  - prompt-cache stability per session: reuse ratio, breaks, tokens re-processed, and the money
    of the breaks and of the session at the price table's rates (--prices FILE for your own);
  - the token breakdown of the first request by category, before, after and the difference;
  - a segment-aligned diff of the first requests.

--format markdown (the default) is GitHub-flavoured Markdown within a comment's size limit
(65,536 characters); when the diffs do not all fit, it stops and says where. --format html is one
HTML file with no script and nothing loaded from elsewhere. Payload text is shown with every
hazard visible ([U+202E], ␛) and escaped, so no markup, link or mention in it takes effect;
--redact also masks every secret secret-in-context finds.

A and B are files (or FILE@N for one request); "-" reads standard input for one of them.`,
		Example: `  wirelens report --before legacy.json --after isolated.json > report.md
  wirelens report --before base.jsonl --after head.jsonl --format html > report.html
  gh pr comment 42 --body-file <(wirelens report --before base.jsonl --after head.jsonl --redact)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if before == "" || after == "" {
				return usageError("report needs --before A and --after B")
			}
			if format != "markdown" && format != "html" {
				return usageError("--format must be markdown or html, not %q", format)
			}
			tab, err := loadPrices(prices)
			if err != nil {
				return err
			}
			var errs []error
			read := func(src string) report.Side {
				side := report.Side{Name: src}
				app.decode(src, func(r wire.Request, err error) bool {
					if err != nil {
						errs = append(errs, err)
					} else {
						side.Requests = append(side.Requests, r)
					}
					return true
				})
				return side
			}
			a, b := read(before), read(after)
			rep := report.Build(a, b, report.Options{Prices: tab, Redact: redacted})
			if format == "html" {
				err = rep.HTML(app.Stdout)
			} else {
				err = rep.Markdown(app.Stdout)
			}
			if err != nil {
				return err
			}
			return app.finish(errs, 0)
		},
	}
	cmd.Flags().StringVar(&before, "before", "", "the recording before the change (FILE or FILE@N)")
	cmd.Flags().StringVar(&after, "after", "", "the recording after the change (FILE or FILE@N)")
	cmd.Flags().StringVar(&format, "format", "markdown", "the document: markdown (GitHub-flavoured, within a comment's size limit) or html (one self-contained file)")
	cmd.Flags().BoolVar(&redacted, "redact", false, "mask every secret in the payload text the report shows")
	pricesFlag(cmd, &prices)
	addProvenanceFlags(cmd, app)
	return cmd
}
