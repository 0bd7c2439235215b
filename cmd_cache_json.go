package main

import (
	"bufio"
	"math"
	"time"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// The JSON report of cache (CONTRACT.md's `cache --json`), written as the
// steps come.

// cacheBreakJSON is a break in `cache --json`.
type cacheBreakJSON struct {
	Segment  string `json:"segment"`
	Channel  string `json:"channel"`
	Kind     string `json:"kind"`
	Offset   int    `json:"offset"`
	Before   string `json:"before"`
	After    string `json:"after"`
	Volatile string `json:"volatile"`
	Cause    string `json:"cause"`
	Label    string `json:"label,omitempty"`
	// Rule is "tool-changed" when the break is a tool definition that
	// changed (the finding check reports for the same event), Server its
	// MCP server.
	Rule   string `json:"rule,omitempty"`
	Server string `json:"server,omitempty"`
}

// cacheRequestJSON is one compared request in `cache --json`.
type cacheRequestJSON struct {
	Source                    string          `json:"source"`
	Index                     int             `json:"index"`
	Line                      int             `json:"line,omitempty"`
	Format                    string          `json:"format"`
	Model                     string          `json:"model"`
	Provider                  string          `json:"provider"`
	ComparedWith              cacheRefJSON    `json:"compared_with"`
	TotalTokens               int             `json:"total_tokens"`
	PrefixTokens              int             `json:"prefix_tokens"`
	PrefixBytes               int             `json:"prefix_bytes"`
	Break                     *cacheBreakJSON `json:"break"`
	TextBreak                 *cacheBreakJSON `json:"text_break,omitempty"`
	PredictedCachedTokens     *int            `json:"predicted_cached_tokens"`
	PredictionUnavailable     string          `json:"prediction_unavailable,omitempty"`
	BreakpointPolicy          string          `json:"breakpoint_policy,omitempty"`
	PredictedCacheWriteTokens int             `json:"predicted_cache_write_tokens,omitempty"`
	PredictedFrom             string          `json:"predicted_from,omitempty"`
	RecordedCachedTokens      *int            `json:"recorded_cached_tokens"`
	ReprocessedTokens         int             `json:"reprocessed_tokens"`
	Disagreement              string          `json:"disagreement,omitempty"`
	ProviderVerdict           *verdictJSON    `json:"provider_verdict,omitempty"`
	Notes                     []string        `json:"notes,omitempty"`
	Cost                      *diff.CostJSON  `json:"cost,omitempty"`
	// Time, lifetimes and lanes (CONTRACT.md): null when unknown.
	At          *string       `json:"at"`
	IdleSeconds *float64      `json:"idle_seconds"`
	ReusedFrom  *cacheRefJSON `json:"reused_from"`
	Lane        laneJSON      `json:"lane"`
	LaneFirst   bool          `json:"lane_first,omitempty"`
	Expired     *expiredJSON  `json:"expired"`
	// NeverWritten says why the prefix was never written to the cache
	// (below the minimum, no breakpoint), null otherwise.
	NeverWritten *string `json:"never_written"`
}

// laneJSON names a lane: its short name and a stable id.
type laneJSON struct {
	Name string `json:"name"`
	ID   string `json:"id"`
}

// expiredJSON is a prefix that had been written but had expired.
type expiredJSON struct {
	LifetimeSeconds float64 `json:"lifetime_seconds"`
	IdleSeconds     float64 `json:"idle_seconds"`
	Tokens          int     `json:"tokens"`
	From            string  `json:"from"`
}

// laneSummaryJSON is what one lane came to in `cache --json`.
type laneSummaryJSON struct {
	Name              string        `json:"name"`
	ID                string        `json:"id"`
	Requests          int           `json:"requests"`
	ReuseRatio        float64       `json:"reuse_ratio"`
	PrefixTokens      int           `json:"prefix_tokens"`
	TotalTokens       int           `json:"total_tokens"`
	Breaks            int           `json:"breaks"`
	Expiries          int           `json:"expiries"`
	ReprocessedTokens int           `json:"reprocessed_tokens"`
	Cost              *laneCostJSON `json:"cost"`
}

// laneCostJSON is what one lane's requests cost.
type laneCostJSON struct {
	Spend      float64 `json:"spend"`
	BreakCost  float64 `json:"break_cost"`
	ExpiryCost float64 `json:"expiry_cost"`
}

// seconds is d in seconds, to the millisecond.
func seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// cacheRefJSON names the earlier request a request is compared with.
type cacheRefJSON struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
}

type cacheWorstJSON struct {
	Source            string `json:"source"`
	Index             int    `json:"index"`
	ReprocessedTokens int    `json:"reprocessed_tokens"`
	Segment           string `json:"segment"`
	Cause             string `json:"cause"`
	Volatile          string `json:"volatile"`
}

type cacheSummaryJSON struct {
	Requests               int               `json:"requests"`
	ReuseRatio             float64           `json:"reuse_ratio"`
	Breaks                 map[string]int    `json:"breaks"`
	ReprocessedTokens      int               `json:"reprocessed_tokens"`
	BreaksByKind           map[string]int    `json:"breaks_by_kind"`
	BreaksByVolatile       map[string]int    `json:"breaks_by_volatile"`
	BreaksByCause          map[string]int    `json:"breaks_by_cause"`
	Worst                  []cacheWorstJSON  `json:"worst"`
	PredictedCachedTokens  int               `json:"predicted_cached_tokens"`
	RecordedCachedTokens   *int              `json:"recorded_cached_tokens"`
	Disagreements          int               `json:"disagreements"`
	PredictionsUnavailable int               `json:"predictions_unavailable,omitempty"`
	ProviderVerdicts       *verdictsJSON     `json:"provider_verdicts,omitempty"`
	Note                   string            `json:"note,omitempty"`
	Cost                   *diff.TotalsJSON  `json:"cost,omitempty"`
	Expiries               int               `json:"expiries"`
	TokenScale             float64           `json:"token_scale"`
	Lanes                  []laneSummaryJSON `json:"lanes"`
}

func cacheBreakToJSON(b *diff.Break) *cacheBreakJSON {
	if b == nil {
		return nil
	}
	return &cacheBreakJSON{Segment: scan.VisibleLine(b.Segment), Channel: string(b.Channel), Kind: string(b.Kind),
		Offset: b.Offset, Before: scan.VisibleLine(b.Before), After: scan.VisibleLine(b.After),
		Volatile: string(b.Volatile), Cause: string(b.Cause), Label: scan.VisibleLine(b.Label), Rule: b.Rule,
		Server: scan.VisibleLine(b.Server)}
}

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
	w *bufio.Writer
	n int // requests written
	cacheCosts
}

func newCacheJSON(w *bufio.Writer) *cacheJSON {
	w.WriteString("{\n  \"requests\": [")
	return &cacheJSON{w: w}
}

func (j *cacheJSON) add(st *diff.Step) error {
	rj := cacheRequestToJSON(st)
	if j.prices != nil {
		rj.Cost = j.takeCost().JSON(j.prices.Currency)
	}
	b, err := marshalJSON(rj, "    ")
	if err != nil {
		return err
	}
	if j.n > 0 {
		j.w.WriteByte(',')
	}
	j.n++
	j.w.WriteString("\n    ")
	_, err = j.w.Write(b)
	return err
}

func (j *cacheJSON) finish(sum diff.Summary, errs []error) error {
	if j.n > 0 {
		j.w.WriteString("\n  ")
	}
	j.w.WriteString("],\n  \"summary\": ")
	sj := cacheSummaryToJSON(sum)
	sj.Cost = j.totalsToJSON()
	if sj.Cost != nil {
		for i := range sj.Lanes {
			lc := &laneCostJSON{}
			if c := j.totals.Lanes[sj.Lanes[i].ID]; c != nil {
				lc = &laneCostJSON{Spend: price.Round(c.SpendUSD), BreakCost: price.Round(c.BreakUSD),
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

// verdictJSON is a provider's recorded verdict on a request's cache, beside
// wirelens's own attribution in the same terms.
type verdictJSON struct {
	By           string `json:"by"`
	Reason       string `json:"reason"`
	MissedTokens *int   `json:"missed_tokens,omitempty"`
	Wirelens     string `json:"wirelens"`
	Outcome      string `json:"outcome"`
}

// verdictsJSON counts the verdicts of a sequence by outcome.
type verdictsJSON struct {
	Read         int `json:"read"`
	Agree        int `json:"agree"`
	Disagree     int `json:"disagree"`
	Inconclusive int `json:"inconclusive"`
}

// stepVerdictJSON is st's verdict, nil when none was recorded.
func stepVerdictJSON(st *diff.Step) *verdictJSON {
	v := st.Verdict
	if v == nil {
		return nil
	}
	out := &verdictJSON{By: v.By, Reason: scan.VisibleLine(v.Reason), Wirelens: diff.Attribution(st), Outcome: st.VerdictOutcome}
	if v.MissedTokens >= 0 {
		n := v.MissedTokens
		out.MissedTokens = &n
	}
	return out
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

// cacheRequestToJSON is one compared request in `cache --json`.
func cacheRequestToJSON(st *diff.Step) cacheRequestJSON {
	rj := cacheRequestJSON{Source: st.Source, Index: st.Index, Line: st.Line, Format: string(st.Format),
		Model: scan.VisibleLine(st.Model), Provider: st.Rule.Provider,
		ComparedWith: cacheRefJSON{Source: st.PrevSource, Index: st.PrevIndex}, TotalTokens: st.TotalTokens,
		PrefixTokens: st.PrefixTokens, PrefixBytes: st.PrefixBytes, Break: cacheBreakToJSON(st.Break),
		TextBreak:                 cacheBreakToJSON(st.TextBreak),
		PredictedCacheWriteTokens: st.Prediction.CacheWrite,
		PredictedFrom:             scan.VisibleLine(st.Prediction.From),
		RecordedCachedTokens:      st.Recorded, ReprocessedTokens: st.Reprocessed,
		Disagreement: scan.VisibleLine(st.Disagreement)}
	if st.Prediction.Unavailable != "" {
		rj.PredictionUnavailable = scan.VisibleLine(st.Prediction.Unavailable)
	} else {
		pred := st.Prediction.Cached
		rj.PredictedCachedTokens = &pred
	}
	rj.BreakpointPolicy = st.Prediction.Policy
	rj.ProviderVerdict = stepVerdictJSON(st)
	if !st.At.IsZero() {
		at := st.At.UTC().Format(time.RFC3339Nano)
		rj.At = &at
	}
	if st.HasIdle {
		idle := seconds(st.Idle)
		rj.IdleSeconds = &idle
	}
	if p := st.Prediction; p.FromSource != "" || p.FromIndex != 0 {
		rj.ReusedFrom = &cacheRefJSON{Source: p.FromSource, Index: p.FromIndex}
	}
	rj.Lane = laneJSON{Name: st.Lane.Name, ID: st.Lane.ID}
	rj.LaneFirst = st.LaneFirst
	if e := st.Expired; e != nil {
		rj.Expired = &expiredJSON{LifetimeSeconds: seconds(e.Lifetime), IdleSeconds: seconds(e.Idle), Tokens: e.Tokens,
			From: scan.VisibleLine(e.From)}
	}
	if nw := st.Prediction.NeverWritten; nw != "" && st.Expired == nil {
		nw = scan.VisibleLine(nw)
		rj.NeverWritten = &nw
	}
	for _, n := range st.Notes {
		rj.Notes = append(rj.Notes, scan.VisibleLine(n))
	}
	return rj
}

// cacheSummaryToJSON is the summary of `cache --json`.
func cacheSummaryToJSON(sum diff.Summary) cacheSummaryJSON {
	s := cacheSummaryJSON{Requests: sum.Requests, ReuseRatio: math.Round(sum.ReuseRatio*10000) / 10000,
		Breaks: sum.BreaksByChannel, ReprocessedTokens: sum.ReprocessedTokens, BreaksByKind: sum.BreaksByKind,
		BreaksByVolatile: sum.BreaksByVolatile, BreaksByCause: sum.BreaksByCause,
		Worst: make([]cacheWorstJSON, 0, len(sum.Worst)), PredictedCachedTokens: sum.Predicted,
		Disagreements: sum.Disagreements, PredictionsUnavailable: sum.Unpredicted, Expiries: sum.Expiries,
		TokenScale: sum.TokenScale, Lanes: make([]laneSummaryJSON, 0, len(sum.Lanes))}
	for _, l := range sum.Lanes {
		s.Lanes = append(s.Lanes, laneSummaryJSON{Name: l.Name, ID: l.ID, Requests: l.Requests,
			ReuseRatio: math.Round(l.ReuseRatio()*10000) / 10000, PrefixTokens: l.PrefixTokens, TotalTokens: l.TotalTokens,
			Breaks: l.Breaks, Expiries: l.Expiries, ReprocessedTokens: l.ReprocessedTokens})
	}
	if sum.Verdicts > 0 {
		s.ProviderVerdicts = &verdictsJSON{Read: sum.Verdicts, Agree: sum.VerdictsAgree, Disagree: sum.VerdictsDisagree,
			Inconclusive: sum.VerdictsInconclusive}
	}
	if sum.RecordedRequests > 0 {
		rec := sum.Recorded
		s.RecordedCachedTokens = &rec
	}
	for _, st := range sum.Worst {
		w := cacheWorstJSON{Source: st.Source, Index: st.Index, ReprocessedTokens: st.Reprocessed}
		if st.Break != nil {
			w.Segment, w.Cause, w.Volatile = scan.VisibleLine(st.Break.Segment), string(st.Break.Cause), string(st.Break.Volatile)
		}
		s.Worst = append(s.Worst, w)
	}
	switch sum.Requests {
	case 0:
		s.Note = "no request read"
	case 1:
		s.Note = "one request: nothing to compare"
	}
	return s
}
