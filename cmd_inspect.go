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
	var asJSON bool
	cmd := &cobra.Command{
		Use:         "inspect FILE... [--json]",
		Annotations: map[string]string{globalsAnnotation: inputGlobals},
		Short:       "List each request's segments: channel, role, kind, trust, envelope, size, escapes",
		Long: `inspect prints every request of the given files, one block per request and one line per
segment: its id, channel, role, kind, trust, envelope, size in bytes and estimated tokens
(o200k_base; providers' own tokenizers differ), and the escapes found in it.

FILE may be "-" for standard input. Input problems are reported one line each on standard
error (exit 2) and everything that could be read is still printed.`,
		Example: `  wirelens inspect request.json
  wirelens inspect session.jsonl --json | jq '.requests[].segments[].trust'
  wirelens build . | wirelens inspect -`,
		Args: needInputs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Requests are written as they are decoded, so a long session is
			// never held whole.
			var (
				errs  []error
				werr  error
				count int
			)
			bw := bufio.NewWriterSize(app.Stdout, 64<<10)
			width := terminalWidth(app.Stdout)
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
						werr = writeInspectRequestJSON(bw, &r, count > 0)
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
	return cmd
}

// inspectSegmentJSON is one segment in `inspect --json`.
type inspectSegmentJSON struct {
	ID         string        `json:"id"`
	Channel    wire.Channel  `json:"channel"`
	Role       string        `json:"role"`
	Kind       wire.Kind     `json:"kind"`
	Trust      wire.Trust    `json:"trust"`
	Envelope   string        `json:"envelope"`
	Label      string        `json:"label,omitempty"`
	Bytes      int           `json:"bytes"`
	Tokens     int           `json:"tokens"`
	Breakpoint bool          `json:"cache_breakpoint,omitempty"`
	Escapes    []wire.Escape `json:"escapes"`
}

type inspectRequestJSON struct {
	Source   string               `json:"source"`
	Index    int                  `json:"index"`
	Line     int                  `json:"line,omitempty"`
	Format   wire.Format          `json:"format"`
	Model    string               `json:"model"`
	Endpoint string               `json:"endpoint,omitempty"`
	Tokens   int                  `json:"tokens"`
	Bytes    int                  `json:"bytes"`
	Segments []inspectSegmentJSON `json:"segments"`
	Usage    *wire.Usage          `json:"usage,omitempty"`
	Notes    []string             `json:"notes,omitempty"`
}

// inspectRequest is the JSON form of one request.
func inspectRequest(r *wire.Request) inspectRequestJSON {
	rj := inspectRequestJSON{Source: r.Source, Index: r.Index, Line: r.Line, Format: r.Format, Model: r.Model,
		Endpoint: r.Endpoint, Usage: r.Usage, Notes: r.Notes, Bytes: r.Bytes(),
		Segments: make([]inspectSegmentJSON, 0, len(r.Segments))}
	for j := range r.Segments {
		s := &r.Segments[j]
		esc := s.Escapes
		if esc == nil {
			esc = []wire.Escape{}
		}
		n := s.Tokens()
		rj.Tokens += n
		rj.Segments = append(rj.Segments, inspectSegmentJSON{ID: s.ID, Channel: s.Channel, Role: s.Role,
			Kind: s.Kind, Trust: s.Trust, Envelope: s.Envelope, Label: s.Label, Bytes: len(s.Text),
			Tokens: n, Breakpoint: s.CacheBreakpoint, Escapes: esc})
	}
	return rj
}

// writeInspectRequestJSON writes one element of the "requests" array,
// indented as writeJSON would indent the whole document.
func writeInspectRequestJSON(w io.Writer, r *wire.Request, comma bool) error {
	b, err := marshalJSON(inspectRequest(r), "    ")
	if err != nil {
		return err
	}
	sep := "\n    "
	if comma {
		sep = ",\n    "
	}
	if _, err := io.WriteString(w, sep); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// writeInspectText prints one block per request and one line per segment.
func writeInspectText(w io.Writer, reqs []wire.Request, width int) error {
	return writeInspectBlocks(w, reqs, width, false)
}

// writeInspectBlocks is writeInspectText for requests that follow others: a
// blank line goes before each block but the first, and before the first too
// when sep says blocks were written already.
func writeInspectBlocks(w io.Writer, reqs []wire.Request, width int, sep bool) error {
	var b strings.Builder
	for i := range reqs {
		r := &reqs[i]
		if i > 0 || sep {
			b.WriteByte('\n')
		}
		model := r.Model
		if model == "" {
			model = "(no model)"
		}
		fmt.Fprintf(&b, "%s  %s  %s  %d segments  %s bytes  ~%s tokens\n",
			scan.VisibleLine(r.Name()), r.Format, scan.VisibleLine(model), len(r.Segments),
			wire.GroupDigits(r.Bytes()), wire.GroupDigits(r.Tokens()))
		if u := r.Usage; u != nil && u.CachedUnknown {
			fmt.Fprintf(&b, "  recorded usage: input %s (cached not recorded)\n", wire.GroupDigits(u.InputTokens))
		} else if u != nil {
			fmt.Fprintf(&b, "  recorded usage: input %s (cached %s, cache write %s)\n",
				wire.GroupDigits(u.InputTokens), wire.GroupDigits(u.CachedTokens), wire.GroupDigits(u.CacheWriteTokens))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  note: %s\n", scan.VisibleLine(n))
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
			if s.CacheBreakpoint {
				id += " " + markBreakpoint
				breakpoints = true
			}
			rows = append(rows, []string{scan.VisibleLine(id), string(s.Channel), scan.VisibleLine(s.Role),
				string(s.Kind), string(s.Trust), scan.VisibleLine(env), wire.GroupDigits(len(s.Text)),
				wire.GroupDigits(s.Tokens()), strconv.Itoa(len(s.Escapes))})
		}
		writeSegmentTable(&b, rows, width)
		if breakpoints {
			b.WriteString("  " + markBreakpoint + " cache breakpoint (cache_control: the provider caches the prefix up to here)\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSegmentTable writes inspect's table of segments: one row a segment
// when it fits width (or the width is unknown), else each segment's id on a
// line of its own and its other columns on the next, further in, so that no
// id is cut.
func writeSegmentTable(b *strings.Builder, rows [][]string, width int) {
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
		writeTable(b, rows, width, right)
		return
	}
	shifted := map[int]bool{}
	for c := range right {
		shifted[c-1] = true
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
