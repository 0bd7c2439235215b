package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

func init() { register(newDiffCmd) }

func newDiffCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:         "diff A B [--json]",
		Annotations: map[string]string{globalsAnnotation: viewerGlobals},
		Short:       "Segment-aligned diff of two requests",
		Long: `diff aligns the segments of two requests (same id, else same text, else same kind and
envelope, else the same workspace or time kind anywhere, so a legacy system section is paired
with its isolated fragment) and marks each same, changed, added or removed. Changed segments
are diffed by line, and replaced lines by word: [-deleted-] and {+inserted+}. The first
divergence in cache order (tools, system, messages) is shown on top.

A and B are FILE (its first request) or FILE@N (its N-th, counting from 1); FILE may be "-"
for standard input (for one of the two). Exit 0 when the requests are identical, 1 when they
differ, 2 on errors.`,
		Example: `  wirelens build --layout legacy . > legacy.json
  wirelens build --layout isolated . > isolated.json
  wirelens diff legacy.json isolated.json
  wirelens diff session.jsonl@3 session.jsonl@4 --json`,
		Args: twoRequests,
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "-" && args[1] == "-" {
				return usageError("diff: standard input can be read for A or for B, not both")
			}
			a, errsA, err := app.LoadRef(args[0])
			if err != nil {
				app.ReportErrors(errsA)
				return usageError("%s", err.Error())
			}
			b, errsB, err := app.LoadRef(args[1])
			if err != nil {
				app.ReportErrors(append(errsA, errsB...))
				return usageError("%s", err.Error())
			}
			d := diff.Requests(&a, &b)
			if asJSON {
				err = writeJSON(app.Stdout, diffJSON(args[0], args[1], d, append(errsA, errsB...)))
			} else {
				err = writeDiffText(app.Stdout, args[0], args[1], &a, &b, d, terminalWidth(app.Stdout), app.paintFor(app.Stdout))
			}
			if err != nil {
				return err
			}
			code := 0
			if !d.Identical() {
				code = 1
			}
			return app.finish(append(errsA, errsB...), code)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the shape of CONTRACT.md)")
	return cmd
}

// diffHunkJSON is one hunk in `diff --json`. Text is the payload's own text
// (JSON escapes its control characters); words is the word diff of a
// replaced run of lines.
type diffHunkJSON struct {
	Op    string         `json:"op"`
	Text  string         `json:"text"`
	Words []diffHunkJSON `json:"words,omitempty"`
}

type diffSegmentJSON struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	From   string `json:"from,omitempty"`
	Moved  bool   `json:"moved,omitempty"`
	// Reordered: the segment comes before segments that were before it.
	Reordered bool `json:"reordered,omitempty"`
	// CacheBreakpoint is set when a cache_control breakpoint was added to
	// or removed from the segment: {"a": false, "b": true}.
	CacheBreakpoint *diffBoolPairJSON `json:"cache_breakpoint,omitempty"`
	Channel         string            `json:"channel"`
	Kind            string            `json:"kind"`
	Envelope        string            `json:"envelope"`
	Offset          int               `json:"offset,omitempty"`
	Hunks           []diffHunkJSON    `json:"hunks"`
}

type diffDivergenceJSON struct {
	Segment string `json:"segment"`
	Channel string `json:"channel"`
	Offset  int    `json:"offset"`
	Status  string `json:"status"`
}

type diffBoolPairJSON struct {
	A bool `json:"a"`
	B bool `json:"b"`
}

type diffPairJSON struct {
	A string `json:"a"`
	B string `json:"b"`
}

type diffJSONDoc struct {
	A               string              `json:"a"`
	B               string              `json:"b"`
	Identical       bool                `json:"identical"`
	FirstDivergence *diffDivergenceJSON `json:"first_divergence"`
	Model           *diffPairJSON       `json:"model,omitempty"`
	Format          *diffPairJSON       `json:"format,omitempty"`
	Counts          map[string]int      `json:"counts"`
	Segments        []diffSegmentJSON   `json:"segments"`
	Errors          []errorJSON         `json:"errors"`
}

func diffHunksJSON(hs []diff.Hunk) []diffHunkJSON {
	out := make([]diffHunkJSON, 0, len(hs))
	for _, h := range hs {
		hj := diffHunkJSON{Op: string(h.Op), Text: h.Text}
		if len(h.Words) > 0 {
			hj.Words = diffHunksJSON(h.Words)
		}
		out = append(out, hj)
	}
	return out
}

func diffJSON(a, b string, d *diff.RequestDiff, errs []error) diffJSONDoc {
	doc := diffJSONDoc{A: a, B: b, Identical: d.Identical(), Counts: map[string]int{},
		Segments: make([]diffSegmentJSON, 0, len(d.Segments)), Errors: errorsJSON(errs)}
	for st, n := range d.Counts() {
		doc.Counts[string(st)] = n
	}
	if d.First != nil {
		doc.FirstDivergence = &diffDivergenceJSON{Segment: d.First.Segment, Channel: string(d.First.Channel),
			Offset: d.First.Offset, Status: string(d.First.Status)}
	}
	if d.ModelA != d.ModelB {
		doc.Model = &diffPairJSON{A: d.ModelA, B: d.ModelB}
	}
	if d.FormatA != d.FormatB {
		doc.Format = &diffPairJSON{A: string(d.FormatA), B: string(d.FormatB)}
	}
	for i := range d.Segments {
		sd := &d.Segments[i]
		s := sd.Seg()
		sj := diffSegmentJSON{ID: sd.ID, Status: string(sd.Status), From: sd.FromID,
			Moved: sd.Moved, Reordered: sd.Reordered, Channel: string(s.Channel), Kind: string(s.Kind), Envelope: s.Envelope,
			Offset: sd.Offset, Hunks: diffHunksJSON(sd.Hunks)}
		if sd.BreakpointChanged {
			sj.CacheBreakpoint = &diffBoolPairJSON{A: sd.BreakA, B: sd.BreakB}
		}
		doc.Segments = append(doc.Segments, sj)
	}
	return doc
}

// contextLines is how many equal lines are shown around a change.
const contextLines = 3

// maxShownLines bounds the lines shown of one added or removed segment.
const maxShownLines = 12

// maxLineWidth is the widest line shown when there is no terminal.
const maxLineWidth = 2000

// writeDiffText prints the first divergence on top, then each segment that
// is not the same with its line and word diff.
func writeDiffText(w io.Writer, nameA, nameB string, a, b *wire.Request, d *diff.RequestDiff, width int, p *paint) error {
	var out strings.Builder
	lineW := maxLineWidth
	if width > 0 {
		lineW = max(width, 20)
	}
	desc := func(r *wire.Request) string {
		model := r.Model
		if model == "" {
			model = "(no model)"
		}
		return fmt.Sprintf("%s, %s, %s, %s bytes", r.Format, scan.VisibleLine(model), plural(len(r.Segments), "segment"), wire.GroupDigits(r.Bytes()))
	}
	fmt.Fprintf(&out, "a: %s (%s)\n", scan.VisibleLine(nameA), desc(a))
	fmt.Fprintf(&out, "b: %s (%s)\n", scan.VisibleLine(nameB), desc(b))
	if d.ModelA != d.ModelB {
		fmt.Fprintf(&out, "model: %s → %s\n", scan.VisibleLine(d.ModelA), scan.VisibleLine(d.ModelB))
	}
	if d.FormatA != d.FormatB {
		fmt.Fprintf(&out, "format: %s → %s\n", d.FormatA, d.FormatB)
	}
	if d.Identical() {
		out.WriteString("identical: every segment is the same\n")
		_, err := io.WriteString(w, out.String())
		return err
	}
	c := d.Counts()
	fmt.Fprintf(&out, "segments: %d same, %d changed, %d added, %d removed\n",
		c[diff.StatusSame], c[diff.StatusChanged], c[diff.StatusAdded], c[diff.StatusRemoved])
	if f := d.First; f != nil {
		fmt.Fprintf(&out, "first divergence (cache order): %s (%s) %s", scan.VisibleLine(f.Segment), f.Channel, f.Status)
		if f.Status == diff.StatusChanged {
			fmt.Fprintf(&out, " at byte %d", f.Offset)
		}
		out.WriteByte('\n')
	} else {
		out.WriteString("every segment is the same; only the model or format differs\n")
	}
	for i := range d.Segments {
		sd := &d.Segments[i]
		if sd.Status == diff.StatusSame {
			continue
		}
		s := sd.Seg()
		out.WriteByte('\n')
		mark := map[diff.Status]string{diff.StatusChanged: "~", diff.StatusAdded: "+", diff.StatusRemoved: "-"}[sd.Status]
		head := fmt.Sprintf("%s %s  %s %s", mark, scan.VisibleLine(sd.ID), s.Channel, s.Kind)
		if s.Envelope != "" {
			head += " <" + scan.VisibleLine(s.Envelope) + ">"
		}
		head += "  " + string(sd.Status)
		if sd.FromID != "" {
			head += " (was " + scan.VisibleLine(sd.FromID)
			if sd.Moved {
				head += fmt.Sprintf(", in %s", sd.A.Channel)
			}
			head += ")"
		}
		textChanged := false
		for _, h := range sd.Hunks {
			textChanged = textChanged || h.Op != diff.OpEqual
		}
		if sd.Status == diff.StatusChanged && textChanged {
			head += fmt.Sprintf(" at byte %d", sd.Offset)
		}
		if sd.Status == diff.StatusAdded || sd.Status == diff.StatusRemoved {
			head += fmt.Sprintf(", %s bytes", wire.GroupDigits(len(s.Text)))
		}
		if width > 0 && ansi.StringWidth(head) > width {
			lines := wrapIndented(head, 4, width)
			head = strings.TrimSpace(lines[0]) + "\n" + strings.Join(lines[1:], "\n")
		}
		out.WriteString(head + "\n")
		switch sd.Status {
		case diff.StatusAdded, diff.StatusRemoved:
			writeMarkedLines(&out, mark, s.Text, maxShownLines, lineW, p)
		case diff.StatusChanged:
			if sd.BreakpointChanged {
				if sd.BreakB {
					out.WriteString("    cache_control breakpoint added\n")
				} else {
					out.WriteString("    cache_control breakpoint removed\n")
				}
			}
			if !textChanged {
				if sd.Moved {
					out.WriteString("    same text, moved\n")
				} else if sd.Reordered {
					out.WriteString("    same text, reordered (it comes before segments that were before it)\n")
				}
				continue
			}
			writeHunks(&out, sd.Hunks, lineW, p)
		}
	}
	_, err := io.WriteString(colorWriter(w, p), out.String())
	return err
}

// splitLines cuts text into lines without their newlines.
func splitLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	return strings.Split(text, "\n")
}

// writeMarkedLines prints up to max lines of text, each with mark.
func writeMarkedLines(out *strings.Builder, mark, text string, maxLines, width int, p *paint) {
	lines := splitLines(text)
	for i, l := range lines {
		if i == maxLines {
			fmt.Fprintf(out, "    … %s more\n", plural(len(lines)-maxLines, "line"))
			return
		}
		out.WriteString(p.mark(mark, ansi.Truncate("  "+mark+" "+scan.VisibleLine(l), width, "…")) + "\n")
	}
}

// writeHunks prints a line diff: changed lines with contextLines equal
// lines around them, replaced lines with their word diff.
func writeHunks(out *strings.Builder, hs []diff.Hunk, width int, p *paint) {
	line := 1 // line number in B
	for k, h := range hs {
		switch h.Op {
		case diff.OpEqual:
			lines := splitLines(h.Text)
			n := len(lines)
			first, last := k == 0, k == len(hs)-1
			show := func(from, to int) {
				for i := from; i < to; i++ {
					out.WriteString(ansi.Truncate("    "+scan.VisibleLine(lines[i]), width, "…") + "\n")
				}
			}
			switch {
			case n <= 2*contextLines && !first && !last:
				show(0, n)
			default:
				head, tail := contextLines, contextLines
				if first {
					head = 0
				}
				if last {
					tail = 0
				}
				head, tail = min(head, n), min(tail, n)
				show(0, head)
				if n-head-tail > 0 {
					fmt.Fprintf(out, "    @@ %d unchanged lines; b line %d @@\n", n-head-tail, line+n-tail)
				}
				show(max(n-tail, head), n)
			}
			line += n
		case diff.OpDelete, diff.OpInsert:
			mark := "-"
			if h.Op == diff.OpInsert {
				mark = "+"
			}
			if len(h.Words) > 0 {
				writeWords(out, mark, h.Words, width, p)
			} else {
				writeMarkedLines(out, mark, h.Text, 4*maxShownLines, width, p)
			}
			if h.Op == diff.OpInsert {
				line += len(splitLines(h.Text))
			}
		}
	}
}

// writeWords prints a replaced run of lines with [-deleted-] and
// {+inserted+} words (on a terminal with colour: the words in the theme's
// RemovedWord and AddedWord, no brackets); a long line is cut around its
// first change.
func writeWords(out *strings.Builder, mark string, words []diff.Hunk, width int, p *paint) {
	var cur strings.Builder
	firstChange := -1
	flush := func() {
		l := cur.String()
		if firstChange > 60 && ansi.StringWidth(l) > width-4 {
			from := firstChange - 40
			for from > 0 && !utf8.RuneStart(l[from]) {
				from--
			}
			l = "…" + l[from:]
		}
		out.WriteString(p.words(mark, ansi.Truncate("  "+mark+" "+l, width, "…")) + "\n")
		cur.Reset()
		firstChange = -1
	}
	for _, wd := range words {
		parts := strings.Split(wd.Text, "\n")
		for i, part := range parts {
			if i > 0 {
				flush()
			}
			if part == "" {
				continue
			}
			v := scan.VisibleLine(part)
			switch wd.Op {
			case diff.OpDelete:
				if firstChange < 0 {
					firstChange = cur.Len()
				}
				cur.WriteString(p.open(diff.OpDelete) + v + p.close(diff.OpDelete))
			case diff.OpInsert:
				if firstChange < 0 {
					firstChange = cur.Len()
				}
				cur.WriteString(p.open(diff.OpInsert) + v + p.close(diff.OpInsert))
			default:
				cur.WriteString(v)
			}
		}
	}
	if cur.Len() > 0 {
		flush()
	}
}

// Word marks: brackets for plain text; on a terminal with colour, control
// characters no visible payload text holds (scan.VisibleLine shows every
// one as a picture), zero cells wide while the line is cut, and replaced
// by the word styles afterwards (see words).
const (
	wordDelOpen, wordDelClose = "\x01", "\x02"
	wordInsOpen, wordInsClose = "\x03", "\x04"
)

func (p *paint) open(op diff.Op) string {
	switch {
	case p == nil && op == diff.OpDelete:
		return "[-"
	case p == nil:
		return "{+"
	case op == diff.OpDelete:
		return wordDelOpen
	}
	return wordInsOpen
}

func (p *paint) close(op diff.Op) string {
	switch {
	case p == nil && op == diff.OpDelete:
		return "-]"
	case p == nil:
		return "+}"
	case op == diff.OpDelete:
		return wordDelClose
	}
	return wordInsClose
}

// mark colours a removed ("-") or added ("+") line.
func (p *paint) mark(mark, line string) string {
	if p == nil {
		return line
	}
	if mark == "-" {
		return p.st.Removed.Render(line)
	}
	return p.st.Added.Render(line)
}

// words colours a line of writeWords: its text in the line's colour, the
// marked words in the word styles (a mark cut off at the end of the line
// ends there).
func (p *paint) words(mark, line string) string {
	if p == nil {
		return line
	}
	var b strings.Builder
	for line != "" {
		k := strings.IndexAny(line, wordDelOpen+wordInsOpen)
		if k < 0 {
			b.WriteString(p.mark(mark, line))
			break
		}
		b.WriteString(p.mark(mark, line[:k]))
		st, end := p.st.RemovedWord, wordDelClose
		if line[k:k+1] == wordInsOpen {
			st, end = p.st.AddedWord, wordInsClose
		}
		rest := line[k+1:]
		e := strings.Index(rest, end)
		if e < 0 {
			e = len(rest)
		}
		b.WriteString(st.Render(strings.NewReplacer(wordDelClose, "", wordInsClose, "").Replace(rest[:e])))
		line = rest[min(e+1, len(rest)):]
	}
	return b.String()
}
