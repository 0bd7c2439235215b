package main

import (
	"bufio"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/diff/cachejson"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// The JSON report of cache (CONTRACT.md's `cache --json`), written as the
// steps come; its records are diff/cachejson's.

// cacheOutput is a report of cache written as the steps come: add takes each
// step as it is computed (and keeps no reference to it), finish writes the
// rest once the summary and the input errors are known.
type cacheOutput interface {
	add(st *diff.Step) error
	finish(sum diff.Summary, errs []error) error
	// noteCost is the cost of the step add takes next; noteTotals what the
	// sequence cost, before finish.
	noteCost(diff.Cost)
	noteTotals(diff.LedgerTotals)
}

// cacheJSON writes `cache --json` as the steps come. The requests array
// comes first in the shape of CONTRACT.md, so each request is written when it
// is compared, and the summary and the errors after the last; the bytes are
// those of the whole document written at once.
type cacheJSON struct {
	w   *bufio.Writer
	n   int               // requests written
	buf []byte            // the record being written, reused from one to the next
	rec cachejson.Scratch // what the record is made of, reused too
	cacheCosts
}

func newCacheJSON(w *bufio.Writer) *cacheJSON {
	w.WriteString("{\n  \"requests\": [")
	return &cacheJSON{w: w}
}

// add writes st's record with cachejson.AppendRequest (the bytes
// marshalJSON writes, without reflection), or marshalJSON when it cannot.
func (j *cacheJSON) add(st *diff.Step) error {
	rj := j.rec.Request(st)
	if j.prices != nil {
		j.rec.Cost(j.takeCost(), j.prices.Currency)
	}
	b := j.buf[:0]
	if j.n > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n    "...)
	b, ok := cachejson.AppendRequest(b, rj, "    ")
	if !ok {
		rec, err := marshalJSON(rj, "    ")
		if err != nil {
			return err
		}
		b = append(b, rec...)
	}
	j.buf = b
	j.n++
	_, err := j.w.Write(b)
	return err
}

func (j *cacheJSON) finish(sum diff.Summary, errs []error) error {
	if j.n > 0 {
		j.w.WriteString("\n  ")
	}
	j.w.WriteString("],\n  \"summary\": ")
	sj := cachejson.SummaryOf(sum)
	sj.Cost = j.totalsToJSON()
	if sj.Cost != nil {
		for i := range sj.Lanes {
			lc := &cachejson.LaneCost{}
			if c := j.totals.Lanes[sj.Lanes[i].ID]; c != nil {
				lc = &cachejson.LaneCost{Spend: price.Round(c.SpendUSD), BreakCost: price.Round(c.BreakUSD),
					ExpiryCost: price.Round(c.ExpiryUSD)}
			}
			sj.Lanes[i].Cost = lc
		}
	}
	b, err := marshalJSON(sj, "  ")
	if err != nil {
		return err
	}
	j.w.Write(b)
	j.w.WriteString(",\n  \"errors\": ")
	if b, err = marshalJSON(errorsJSON(errs), "  "); err != nil {
		return err
	}
	j.w.Write(b)
	_, err = j.w.WriteString("\n}\n")
	return err
}

// verdictText is a verdict and wirelens's attribution in words.
func verdictText(st *diff.Step) string {
	v := st.Verdict
	s := v.By + " says " + scan.VisibleLine(v.Reason)
	if v.MissedTokens >= 0 {
		s += " (" + wire.GroupDigits(v.MissedTokens) + " tokens after the divergence)"
	}
	return s + "; wirelens: " + diff.Attribution(st) + " — " + st.VerdictOutcome
}
