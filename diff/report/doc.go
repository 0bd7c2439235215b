package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// The report as blocks that both writers render: headings, paragraphs,
// tables and diffs. Text marked as payload is hostile and each writer shows
// it visibly and escaped; the rest is wirelens' own words and numbers.

type blockKind int

const (
	blockHeading blockKind = iota
	blockPara
	blockTable
	blockDiff
)

// cell is a piece of text: wirelens' words (plain) or payload text (code),
// shown as code so that no markup, mention or link in it takes effect.
type cell struct {
	text string
	code bool
}

func plain(s string) cell  { return cell{text: s} }
func quoted(s string) cell { return cell{text: s, code: true} }

// diffLine is one line of a segment diff: '+', '-' or ' ', and the text.
type diffLine struct {
	op   byte
	text string
}

type block struct {
	kind  blockKind
	level int    // heading level
	parts []cell // heading and paragraph text
	head  []string
	rows  [][]cell
	lines []diffLine // blockDiff
	note  string     // blockDiff: what was left out
}

// maxFindingRows caps each findings table; maxDiffLines each segment's diff.
const (
	maxFindingRows = 40
	maxDiffLines   = 60
)

// blocks lays the report out; with redact, every piece of text in it is
// masked (redact.Share), the model names, labels, ids and findings' words
// as well as the excerpts and diffs.
func (r *Report) blocks() []block {
	out := r.layout()
	if r.redact {
		for i := range out {
			b := &out[i]
			for j := range b.parts {
				b.parts[j].text = r.payload(b.parts[j].text)
			}
			for _, row := range b.rows {
				for j := range row {
					row[j].text = r.payload(row[j].text)
				}
			}
		}
	}
	return out
}

// layout lays the report out.
func (r *Report) layout() []block {
	var out []block
	h := func(level int, text string) {
		out = append(out, block{kind: blockHeading, level: level, parts: []cell{plain(text)}})
	}
	p := func(parts ...cell) { out = append(out, block{kind: blockPara, parts: parts}) }
	table := func(head []string, rows [][]cell) { out = append(out, block{kind: blockTable, head: head, rows: rows}) }
	n := wire.GroupDigits

	h(1, "wirelens report")
	p(plain("Before: "), quoted(r.Before), plain(fmt.Sprintf(" (%s, model %s). After: ", requests(r.Sides[0].Requests), models(r.Sides[0].Models))),
		quoted(r.After), plain(fmt.Sprintf(" (%s, model %s).", requests(r.Sides[1].Requests), models(r.Sides[1].Models))))

	// Trust map.
	h(2, "Trust map of the first request")
	ws0, ws1 := r.WorkspaceSystemBytes(0), r.WorkspaceSystemBytes(1)
	switch {
	case ws0 > ws1:
		p(plain(fmt.Sprintf("%s bytes of workspace text moved out of the system channel (%s before, %s after).", n(ws0-ws1), n(ws0), n(ws1))))
	case ws1 > ws0:
		p(plain(fmt.Sprintf("%s bytes of workspace text moved into the system channel (%s before, %s after).", n(ws1-ws0), n(ws0), n(ws1))))
	default:
		p(plain(fmt.Sprintf("The system channel holds %s bytes of workspace text on both sides.", n(ws0))))
	}
	var rows [][]cell
	for _, t := range r.Trust {
		rows = append(rows, []cell{plain(string(t.Channel)), plain(string(t.Trust)), plain(n(t.Bytes[0])), plain(n(t.Bytes[1])),
			plain(signed(t.Bytes[1] - t.Bytes[0])), plain(n(t.Tokens[0])), plain(n(t.Tokens[1]))})
	}
	table([]string{"channel", "trust", "bytes before", "bytes after", "Δ bytes", "tokens before", "tokens after"}, rows)
	for k, name := range []string{"Before", "After"} {
		if len(r.SystemWorkspace[k]) == 0 {
			continue
		}
		rows = nil
		for _, s := range r.SystemWorkspace[k] {
			rows = append(rows, []cell{quoted(s.ID), plain(s.Kind), quoted(s.Label), plain(string(s.Trust)), plain(n(s.Bytes))})
		}
		p(plain(name + ", workspace text in the system channel:"))
		table([]string{"segment", "kind", "label", "trust", "bytes"}, rows)
	}

	// Findings.
	h(2, "Findings")
	sev := func(k int) string {
		f := r.Sides[k].Findings
		return fmt.Sprintf("%d high, %d medium, %d low", f[audit.SeverityHigh], f[audit.SeverityMedium], f[audit.SeverityLow])
	}
	p(plain(fmt.Sprintf("Before: %s. After: %s. %d introduced, %d fixed, %d in both.", sev(0), sev(1), len(r.Introduced), len(r.Fixed), r.Unchanged)))
	for _, list := range []struct {
		title string
		fs    []audit.Finding
	}{{"Introduced", r.Introduced}, {"Fixed", r.Fixed}} {
		if len(list.fs) == 0 {
			continue
		}
		h(3, fmt.Sprintf("%s (%d)", list.title, len(list.fs)))
		rows = nil
		for i, f := range list.fs {
			if i == maxFindingRows {
				rows = append(rows, []cell{plain(fmt.Sprintf("… %d more", len(list.fs)-maxFindingRows)), plain(""), plain(""), plain(""), plain("")})
				break
			}
			rows = append(rows, []cell{plain(string(f.Severity)), plain(f.Rule), quoted(f.Ref() + " " + f.Segment + "@" + strconv.Itoa(f.Offset)),
				plain(f.Message), quoted(r.payload(f.Excerpt))})
		}
		table([]string{"severity", "rule", "where", "what", "excerpt"}, rows)
	}

	// Cache and money.
	h(2, "Prompt cache and money per session")
	c0, c1 := r.Sides[0].Cache, r.Sides[1].Cache
	m0, m1 := r.Sides[0].Money, r.Sides[1].Money
	table([]string{"", "before", "after", "Δ"}, [][]cell{
		{plain("requests compared"), plain(n(c0.Compared)), plain(n(c1.Compared)), plain(signed(c1.Compared - c0.Compared))},
		reuseRow(c0, c1),
		{plain("cache breaks"), plain(n(c0.Breaks)), plain(n(c1.Breaks)), plain(signed(c1.Breaks - c0.Breaks))},
		{plain("tokens re-processed by breaks"), plain(n(c0.ReprocessedTokens)), plain(n(c1.ReprocessedTokens)), plain(signed(c1.ReprocessedTokens - c0.ReprocessedTokens))},
		{plain("cost of the breaks"), plain(r.money(m0.BreakUSD)), plain(r.money(m1.BreakUSD)), plain(r.money(m1.BreakUSD - m0.BreakUSD))},
		{plain("cost of the session"), plain(r.money(m0.SpendUSD)), plain(r.money(m1.SpendUSD)), plain(r.money(m1.SpendUSD - m0.SpendUSD))},
	})
	p(plain(basisNote(m0, m1)))
	if len(c1.BreaksByKind) > 0 || len(c0.BreaksByKind) > 0 {
		p(plain("Breaks by segment kind: before " + countList(c0.BreaksByKind) + "; after " + countList(c1.BreaksByKind) + "."))
	}

	// Breakdown.
	h(2, "Token breakdown of the first request")
	rows = nil
	for _, g := range r.Breakdown {
		rows = append(rows, []cell{plain(string(g.Group)), plain(n(g.Tokens[0])), plain(n(g.Tokens[1])), plain(signed(g.Tokens[1] - g.Tokens[0])),
			plain(n(g.Bytes[0])), plain(n(g.Bytes[1]))})
	}
	table([]string{"category", "tokens before", "tokens after", "Δ tokens", "bytes before", "bytes after"}, rows)
	p(plain("Tokens are o200k_base estimates; each provider's own tokenizer differs."))

	// Diff.
	h(2, "Diff of the first request")
	if r.Diff == nil {
		p(plain("One side has no request to compare."))
		return out
	}
	counts := r.Diff.Counts()
	p(plain(fmt.Sprintf("%d segments the same, %d changed, %d added, %d removed.", counts[diff.StatusSame], counts[diff.StatusChanged],
		counts[diff.StatusAdded], counts[diff.StatusRemoved])))
	if f := r.Diff.First; f != nil {
		p(plain("First divergence in cache order: "), quoted(f.Segment), plain(fmt.Sprintf(" (%s) at byte %d.", f.Channel, f.Offset)))
	}
	for i := range r.Diff.Segments {
		sd := &r.Diff.Segments[i]
		if sd.Status == diff.StatusSame {
			continue
		}
		s := sd.Seg()
		title := []cell{plain(string(sd.Status) + " "), quoted(sd.ID)}
		if sd.FromID != "" && sd.FromID != sd.ID {
			title = append(title, plain(" from "), quoted(sd.FromID))
		}
		title = append(title, plain(fmt.Sprintf(" (%s, %s, %s)", s.Channel, s.Kind, s.Trust)))
		out = append(out, block{kind: blockHeading, level: 4, parts: title})
		out = append(out, r.segmentDiff(sd))
	}
	return out
}

// segmentDiff is the diff block of one segment: its lines, at most
// maxDiffLines, equal runs cut to the lines around changes.
func (r *Report) segmentDiff(sd *diff.SegmentDiff) block {
	b := block{kind: blockDiff}
	var lines []diffLine
	switch sd.Status {
	case diff.StatusAdded:
		for _, l := range splitLines(r.payload(sd.B.Text)) {
			lines = append(lines, diffLine{'+', l})
		}
	case diff.StatusRemoved:
		for _, l := range splitLines(r.payload(sd.A.Text)) {
			lines = append(lines, diffLine{'-', l})
		}
	default:
		hunks := sd.Hunks
		if r.redact {
			// A secret may span hunks (a key block whose first line did not
			// change): mask each side whole, then diff what is shown.
			a, b := r.payload(sd.A.Text), r.payload(sd.B.Text)
			if a != sd.A.Text || b != sd.B.Text {
				hunks = diff.TextDiff(a, b)
			}
		}
		for _, hk := range hunks {
			op := byte(' ')
			switch hk.Op {
			case diff.OpDelete:
				op = '-'
			case diff.OpInsert:
				op = '+'
			}
			ls := splitLines(hk.Text)
			if op == ' ' && len(ls) > 6 {
				// Context: three lines each side of a change.
				ls = append(append(ls[:3:3], "⋯ "+strconv.Itoa(len(ls)-6)+" lines the same"), ls[len(ls)-3:]...)
			}
			for _, l := range ls {
				lines = append(lines, diffLine{op, l})
			}
		}
	}
	if len(lines) > maxDiffLines {
		b.note = fmt.Sprintf("%d more lines; wirelens diff shows them all", len(lines)-maxDiffLines)
		lines = lines[:maxDiffLines]
	}
	b.lines = lines
	return b
}

// splitLines splits text into lines, without a last empty one.
func splitLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// basisNote says where the money figures come from.
func basisNote(m0, m1 diff.LedgerTotals) string {
	var b strings.Builder
	b.WriteString("Money at the price table's rates")
	if m0.SpendRecordedUSD > 0 || m1.SpendRecordedUSD > 0 {
		b.WriteString(": recorded usage where the recording has it, predicted from estimated tokens and the provider's cache rules elsewhere.")
	} else {
		b.WriteString(", predicted from estimated tokens and the provider's cache rules (no usage was recorded).")
	}
	for k, m := range []diff.LedgerTotals{m0, m1} {
		if len(m.Unpriced) > 0 {
			side := "before"
			if k == 1 {
				side = "after"
			}
			b.WriteString(fmt.Sprintf(" %d requests %s have a model the table has no price for (%s).", m.Requests-m.Priced, side, countList(m.Unpriced)))
		}
	}
	return b.String()
}

// countList writes a count map as "a 2, b 1", largest first.
func countList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	for i := 1; i < len(kvs); i++ {
		for j := i; j > 0 && (kvs[j].v > kvs[j-1].v || kvs[j].v == kvs[j-1].v && kvs[j].k < kvs[j-1].k); j-- {
			kvs[j], kvs[j-1] = kvs[j-1], kvs[j]
		}
	}
	parts := make([]string, len(kvs))
	for i, e := range kvs {
		parts[i] = e.k + " " + strconv.Itoa(e.v)
	}
	return strings.Join(parts, ", ")
}

// requests is "1 request" or "N requests".
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return strconv.Itoa(n) + " requests"
}

// reuseRow is the reuse ratio of both sides and its change; a side with no
// request to compare (a single-request build) says so instead of 0.0%.
func reuseRow(c0, c1 diff.Summary) []cell {
	ratio := func(c diff.Summary) string {
		if c.Compared == 0 {
			return "nothing to compare"
		}
		return percent(c.ReuseRatio)
	}
	delta := ""
	if c0.Compared > 0 && c1.Compared > 0 {
		delta = fmt.Sprintf("%+.1f pt", 100*(c1.ReuseRatio-c0.ReuseRatio))
	}
	return []cell{plain("reuse ratio"), plain(ratio(c0)), plain(ratio(c1)), plain(delta)}
}
