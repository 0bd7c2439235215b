package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newInspectCmd) }

func newInspectCmd(app *App) *cobra.Command {
	var asJSON, redacted bool
	cmd := &cobra.Command{
		Use:         "inspect FILE... [--json [--redact]]",
		Annotations: map[string]string{globalsAnnotation: inputGlobals},
		Short:       "List each request's segments: channel, role, kind, trust, envelope, size, escapes",
		Long: `inspect prints every request of the given files, one block per request and one line per
segment: its id, channel, role, kind, trust, envelope, size in bytes and estimated tokens
(o200k_base; providers' own tokenizers differ), and the escapes found in it.

With --json --redact, each segment also carries its text, with every secret that
secret-in-context finds (API keys, tokens, private keys, credential-like values) replaced by
"[redacted by wirelens]", as are credential-named JSON members and NAME=value assignments
whose name says password, secret, token or key; every other string (the model, tool names,
labels, notes) is masked the same way, so the output can be shared: what was sent, without
the secrets.

FILE may be "-" for standard input. Input problems are reported one line each on standard
error (exit 2) and everything that could be read is still printed.`,
		Example: `  wirelens inspect request.json
  wirelens inspect session.jsonl --json | jq '.requests[].segments[].trust'
  wirelens build . | wirelens inspect -
  wirelens inspect session.jsonl --json --redact > shareable.json`,
		Args: needInputs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if redacted && !asJSON {
				return usageError("--redact needs --json: it adds each segment's text, masked, to the JSON")
			}
			// Requests are written as they are decoded, so a long session is
			// never held whole.
			var (
				errs  []error
				werr  error
				count int
			)
			bw := bufio.NewWriterSize(app.Stdout, 64<<10)
			width := tableWidth(app.Stdout)
			if asJSON {
				bw.WriteString("{\n  \"requests\": [")
			}
			for _, src := range args {
				app.decode(src, func(r wire.Request, err error) bool {
					if err != nil {
						errs = append(errs, err)
						return true
					}
					if asJSON {
						werr = writeInspectRequestJSON(bw, &r, count > 0, redacted)
					} else {
						werr = writeInspectBlocks(bw, []wire.Request{r}, width, count > 0)
					}
					count++
					return werr == nil
				})
				if werr != nil {
					return werr
				}
			}
			if asJSON {
				if count > 0 {
					bw.WriteString("\n  ")
				}
				bw.WriteString("],\n  \"errors\": ")
				b, err := marshalJSON(errorsJSON(errs), "  ")
				if err != nil {
					return err
				}
				bw.Write(b)
				bw.WriteString("\n}\n")
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			return app.finish(errs, 0)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the shape of CONTRACT.md)")
	cmd.Flags().BoolVar(&redacted, "redact", false, "with --json: add each segment's text, every secret in it masked")
	addProvenanceFlags(cmd, app)
	return cmd
}

// writeInspectText prints one block per request and one line per segment.
func writeInspectText(w io.Writer, reqs []wire.Request, width int) error {
	return writeInspectBlocks(w, reqs, width, false)
}

// writeInspectBlocks is writeInspectText for requests that follow others: a
// blank line goes before each block but the first, and before the first too
// when sep says blocks were written already.
func writeInspectBlocks(w io.Writer, reqs []wire.Request, width int, sep bool) error {
	// Into w itself when it buffers (a bufio.Writer: its error comes with
	// Flush), or into one string written at the end.
	type textOut interface {
		io.Writer
		textWriter
	}
	b, direct := w.(textOut)
	var sb *strings.Builder
	if !direct {
		sb = &strings.Builder{}
		b = sb
	}
	for i := range reqs {
		r := &reqs[i]
		if i > 0 || sep {
			b.WriteByte('\n')
		}
		model := r.Model
		if model == "" {
			model = "(no model)"
		}
		head := fmt.Sprintf("%s  %s  %s  %s  %s bytes  ~%s tokens",
			scan.VisibleLine(r.Name()), r.Format, scan.VisibleLine(model), plural(len(r.Segments), "segment"),
			wire.GroupDigits(r.Bytes()), wire.GroupDigits(r.Tokens()))
		b.WriteString(fitLine(head, width, 4) + "\n")
		if u := r.Usage; u != nil && u.CachedUnknown {
			fmt.Fprintf(b, "  recorded usage: input %s (cached not recorded)\n", wire.GroupDigits(u.InputTokens))
		} else if u != nil {
			fmt.Fprintf(b, "  recorded usage: input %s (cached %s, cache write %s)\n",
				wire.GroupDigits(u.InputTokens), wire.GroupDigits(u.CachedTokens), wire.GroupDigits(u.CacheWriteTokens))
		}
		for _, n := range r.Notes {
			b.WriteString(fitLine("  note: "+scan.VisibleLine(n), width, 8) + "\n")
		}
		rows := [][]string{{"SEGMENT", "CHANNEL", "ROLE", "KIND", "TRUST", "ENVELOPE", "BYTES", "TOKENS", "ESC"}}
		breakpoints := false
		for j := range r.Segments {
			s := &r.Segments[j]
			env := s.Envelope
			if env == "" {
				env = "-"
			}
			id := s.ID
			if r.Breakpoint(j) {
				id += " " + markBreakpoint
				breakpoints = true
			}
			if s.Label != "" {
				// What --json calls it: the tool's name, the file's path.
				id += " " + s.Label
			}
			rows = append(rows, []string{scan.VisibleLine(id), string(s.Channel), scan.VisibleLine(s.Role),
				string(s.Kind), string(s.Trust), scan.VisibleLine(env), wire.GroupDigits(len(s.Text)),
				wire.GroupDigits(s.Tokens()), strconv.Itoa(len(s.Escapes))})
		}
		writeSegmentTable(b, rows, width)
		if breakpoints {
			b.WriteString("  " + markBreakpoint + " cache breakpoint (cache_control: the provider caches the prefix up to here)\n")
		}
	}
	if direct {
		return nil
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// writeSegmentTable writes inspect's table of segments: one row a segment
// when it fits width (or the width is unknown), else each segment's id on a
// line of its own and its other columns on the next, further in, so that no
// id is cut.
func writeSegmentTable(b textWriter, rows [][]string, width int) {
	right := map[int]bool{6: true, 7: true, 8: true}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		measureRow(widths, row)
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	if width <= 0 || total <= width {
		// It fits as measured: the rows are written with these widths, not
		// measured again by writeTable.
		for _, row := range rows {
			writeRow(b, row, widths, right)
		}
		return
	}
	shifted := map[int]bool{}
	for c := range right {
		shifted[c-1] = true
	}
	// The second line still too wide: the envelope's column (the widest
	// name) gives up what is over, down to 5 cells, then the kind's, the
	// role's and the channel's, down to 8, 6 and 6 (names cut with …).
	rest := 4
	for _, w := range widths[1:] {
		rest += w + 2
	}
	rest -= 2
	over := rest - width
	for _, give := range [][2]int{{5, 5}, {3, 8}, {2, 6}, {1, 6}} {
		if over <= 0 {
			break
		}
		c, floor := give[0], give[1]
		cut := min(over, max(0, widths[c]-floor))
		widths[c] -= cut
		over -= cut
	}
	for i, row := range rows {
		if i > 0 {
			for _, l := range cells.WrapIndented("  "+row[0], width, 4) {
				b.WriteString(l + "\n")
			}
		}
		b.WriteString("  ")
		writeRow(b, row[1:], widths[1:], shifted)
	}
}
