// Package cachejson is the JSON report of `wirelens cache --json`
// (CONTRACT.md): the record of each compared request and the summary, and
// AppendRequest, which writes a request's record as encoding/json and the
// report's indentation would, without reflection: a session of thousands
// of requests writes a record for each.
package cachejson

import (
	"math"
	"time"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire/scan"
)

// Break is a break in `cache --json`.
type Break struct {
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

// Request is one compared request in `cache --json`. AppendRequest writes
// its fields in this order with these names: a field added here is added
// there too (TestAppendMatchesMarshal compares the two).
type Request struct {
	Source                    string         `json:"source"`
	Index                     int            `json:"index"`
	Line                      int            `json:"line,omitempty"`
	Format                    string         `json:"format"`
	Model                     string         `json:"model"`
	Provider                  string         `json:"provider"`
	ComparedWith              Ref            `json:"compared_with"`
	TotalTokens               int            `json:"total_tokens"`
	PrefixTokens              int            `json:"prefix_tokens"`
	PrefixBytes               int            `json:"prefix_bytes"`
	Break                     *Break         `json:"break"`
	TextBreak                 *Break         `json:"text_break,omitempty"`
	PredictedCachedTokens     *int           `json:"predicted_cached_tokens"`
	PredictionUnavailable     string         `json:"prediction_unavailable,omitempty"`
	BreakpointPolicy          string         `json:"breakpoint_policy,omitempty"`
	PredictedCacheWriteTokens int            `json:"predicted_cache_write_tokens,omitempty"`
	PredictedFrom             string         `json:"predicted_from,omitempty"`
	RecordedCachedTokens      *int           `json:"recorded_cached_tokens"`
	ReprocessedTokens         int            `json:"reprocessed_tokens"`
	Disagreement              string         `json:"disagreement,omitempty"`
	ProviderVerdict           *Verdict       `json:"provider_verdict,omitempty"`
	Notes                     []string       `json:"notes,omitempty"`
	Cost                      *diff.CostJSON `json:"cost,omitempty"`
	// Time, lifetimes and lanes (CONTRACT.md): null when unknown.
	At          *string  `json:"at"`
	IdleSeconds *float64 `json:"idle_seconds"`
	ReusedFrom  *Ref     `json:"reused_from"`
	Lane        Lane     `json:"lane"`
	LaneFirst   bool     `json:"lane_first,omitempty"`
	Expired     *Expired `json:"expired"`
	// NeverWritten says why the prefix was never written to the cache
	// (below the minimum, no breakpoint), null otherwise.
	NeverWritten *string `json:"never_written"`
}

// Lane names a lane: its short name and a stable id.
type Lane struct {
	Name string `json:"name"`
	ID   string `json:"id"`
}

// Expired is a prefix that had been written but had expired.
type Expired struct {
	LifetimeSeconds float64 `json:"lifetime_seconds"`
	IdleSeconds     float64 `json:"idle_seconds"`
	Tokens          int     `json:"tokens"`
	From            string  `json:"from"`
}

// LaneSummary is what one lane came to in `cache --json`.
type LaneSummary struct {
	Name              string    `json:"name"`
	ID                string    `json:"id"`
	Requests          int       `json:"requests"`
	ReuseRatio        float64   `json:"reuse_ratio"`
	PrefixTokens      int       `json:"prefix_tokens"`
	TotalTokens       int       `json:"total_tokens"`
	Breaks            int       `json:"breaks"`
	Expiries          int       `json:"expiries"`
	ReprocessedTokens int       `json:"reprocessed_tokens"`
	Cost              *LaneCost `json:"cost"`
}

// LaneCost is what one lane's requests cost.
type LaneCost struct {
	Spend      float64 `json:"spend"`
	BreakCost  float64 `json:"break_cost"`
	ExpiryCost float64 `json:"expiry_cost"`
}

// Seconds is d in seconds, to the millisecond.
func Seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// Ref names the earlier request a request is compared with.
type Ref struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
}

// Worst is one of the requests that re-processed the most tokens.
type Worst struct {
	Source            string `json:"source"`
	Index             int    `json:"index"`
	ReprocessedTokens int    `json:"reprocessed_tokens"`
	Segment           string `json:"segment"`
	Cause             string `json:"cause"`
	Volatile          string `json:"volatile"`
}

// Summary is the summary of `cache --json`.
type Summary struct {
	Requests               int              `json:"requests"`
	ReuseRatio             float64          `json:"reuse_ratio"`
	Breaks                 map[string]int   `json:"breaks"`
	ReprocessedTokens      int              `json:"reprocessed_tokens"`
	BreaksByKind           map[string]int   `json:"breaks_by_kind"`
	BreaksByVolatile       map[string]int   `json:"breaks_by_volatile"`
	BreaksByCause          map[string]int   `json:"breaks_by_cause"`
	Worst                  []Worst          `json:"worst"`
	PredictedCachedTokens  int              `json:"predicted_cached_tokens"`
	RecordedCachedTokens   *int             `json:"recorded_cached_tokens"`
	Disagreements          int              `json:"disagreements"`
	PredictionsUnavailable int              `json:"predictions_unavailable,omitempty"`
	ProviderVerdicts       *Verdicts        `json:"provider_verdicts,omitempty"`
	Note                   string           `json:"note,omitempty"`
	Cost                   *diff.TotalsJSON `json:"cost,omitempty"`
	Expiries               int              `json:"expiries"`
	TokenScale             float64          `json:"token_scale"`
	Lanes                  []LaneSummary    `json:"lanes"`
}

// BreakOf is b in `cache --json`, nil for none.
func BreakOf(b *diff.Break) *Break { return breakInto(new(Break), b) }

// breakInto is b in `cache --json` written into into, nil for none.
func breakInto(into *Break, b *diff.Break) *Break {
	if b == nil {
		return nil
	}
	*into = Break{Segment: scan.VisibleLine(b.Segment), Channel: string(b.Channel), Kind: string(b.Kind),
		Offset: b.Offset, Before: scan.VisibleLine(b.Before), After: scan.VisibleLine(b.After),
		Volatile: string(b.Volatile), Cause: string(b.Cause), Label: scan.VisibleLine(b.Label), Rule: b.Rule,
		Server: scan.VisibleLine(b.Server)}
	return into
}

// Verdict is a provider's recorded verdict on a request's cache, beside
// wirelens's own attribution in the same terms.
type Verdict struct {
	By           string `json:"by"`
	Reason       string `json:"reason"`
	MissedTokens *int   `json:"missed_tokens,omitempty"`
	Wirelens     string `json:"wirelens"`
	Outcome      string `json:"outcome"`
}

// Verdicts counts the verdicts of a sequence by outcome.
type Verdicts struct {
	Read         int `json:"read"`
	Agree        int `json:"agree"`
	Disagree     int `json:"disagree"`
	Inconclusive int `json:"inconclusive"`
}

// VerdictOf is st's verdict, nil when none was recorded.
func VerdictOf(st *diff.Step) *Verdict { return verdictInto(new(Verdict), new(int), st) }

// verdictInto is st's verdict written into into (its missed tokens into
// missed), nil when none was recorded.
func verdictInto(into *Verdict, missed *int, st *diff.Step) *Verdict {
	v := st.Verdict
	if v == nil {
		return nil
	}
	*into = Verdict{By: v.By, Reason: scan.VisibleLine(v.Reason), Wirelens: diff.Attribution(st), Outcome: st.VerdictOutcome}
	if v.MissedTokens >= 0 {
		*missed = v.MissedTokens
		into.MissedTokens = missed
	}
	return into
}

// Scratch holds a Request and what its pointers point to, for a report
// that writes each request's record at once (cache --json): reused from
// one request to the next, it allocates nothing of its own after the
// first.
type Scratch struct {
	req                   Request
	pred, missed          int
	idle                  float64
	neverWritten          string
	reused                Ref
	expired               Expired
	brk, textBrk          Break
	verdict               Verdict
	notes                 []string
	cost                  diff.CostJSON
	costBreak, costExpiry diff.BreakCostJSON
}

// RequestOf is one compared request in `cache --json` (without its cost,
// which the report's prices decide).
func RequestOf(st *diff.Step) Request { return *new(Scratch).Request(st) }

// Request is st's record, as RequestOf makes it, in s: valid until the
// next call.
func (s *Scratch) Request(st *diff.Step) *Request {
	s.req = Request{Source: st.Source, Index: st.Index, Line: st.Line, Format: string(st.Format),
		Model: scan.VisibleLine(st.Model), Provider: st.Rule.Provider,
		ComparedWith: Ref{Source: st.PrevSource, Index: st.PrevIndex}, TotalTokens: st.TotalTokens,
		PrefixTokens: st.PrefixTokens, PrefixBytes: st.PrefixBytes, Break: breakInto(&s.brk, st.Break),
		TextBreak:                 breakInto(&s.textBrk, st.TextBreak),
		PredictedCacheWriteTokens: st.Prediction.CacheWrite,
		PredictedFrom:             scan.VisibleLine(st.Prediction.From),
		RecordedCachedTokens:      st.Recorded, ReprocessedTokens: st.Reprocessed,
		Disagreement: scan.VisibleLine(st.Disagreement)}
	rj := &s.req
	if st.Prediction.Unavailable != "" {
		rj.PredictionUnavailable = scan.VisibleLine(st.Prediction.Unavailable)
	} else {
		s.pred = st.Prediction.Cached
		rj.PredictedCachedTokens = &s.pred
	}
	rj.BreakpointPolicy = st.Prediction.Policy
	rj.ProviderVerdict = verdictInto(&s.verdict, &s.missed, st)
	if !st.At.IsZero() {
		at := st.At.UTC().Format(time.RFC3339Nano)
		rj.At = &at
	}
	if st.HasIdle {
		s.idle = Seconds(st.Idle)
		rj.IdleSeconds = &s.idle
	}
	if p := st.Prediction; p.FromSource != "" || p.FromIndex != 0 {
		s.reused = Ref{Source: p.FromSource, Index: p.FromIndex}
		rj.ReusedFrom = &s.reused
	}
	rj.Lane = Lane{Name: st.Lane.Name, ID: st.Lane.ID}
	rj.LaneFirst = st.LaneFirst
	if e := st.Expired; e != nil {
		s.expired = Expired{LifetimeSeconds: Seconds(e.Lifetime), IdleSeconds: Seconds(e.Idle), Tokens: e.Tokens,
			From: scan.VisibleLine(e.From)}
		rj.Expired = &s.expired
	}
	if nw := st.Prediction.NeverWritten; nw != "" && st.Expired == nil {
		s.neverWritten = scan.VisibleLine(nw)
		rj.NeverWritten = &s.neverWritten
	}
	if len(st.Notes) > 0 {
		s.notes = s.notes[:0]
		for _, n := range st.Notes {
			s.notes = append(s.notes, scan.VisibleLine(n))
		}
		rj.Notes = s.notes
	}
	return rj
}

// Cost sets the cost of the record Request gave last, in s.
func (s *Scratch) Cost(c *diff.Cost, currency string) {
	s.req.Cost = c.JSONInto(&s.cost, &s.costBreak, &s.costExpiry, currency)
}

// SummaryOf is the summary of `cache --json` (without its costs, which
// the report's prices decide).
func SummaryOf(sum diff.Summary) Summary {
	s := Summary{Requests: sum.Requests, ReuseRatio: math.Round(sum.ReuseRatio*10000) / 10000,
		Breaks: sum.BreaksByChannel, ReprocessedTokens: sum.ReprocessedTokens, BreaksByKind: sum.BreaksByKind,
		BreaksByVolatile: sum.BreaksByVolatile, BreaksByCause: sum.BreaksByCause,
		Worst: make([]Worst, 0, len(sum.Worst)), PredictedCachedTokens: sum.Predicted,
		Disagreements: sum.Disagreements, PredictionsUnavailable: sum.Unpredicted, Expiries: sum.Expiries,
		TokenScale: sum.TokenScale, Lanes: make([]LaneSummary, 0, len(sum.Lanes))}
	for _, l := range sum.Lanes {
		s.Lanes = append(s.Lanes, LaneSummary{Name: l.Name, ID: l.ID, Requests: l.Requests,
			ReuseRatio: math.Round(l.ReuseRatio()*10000) / 10000, PrefixTokens: l.PrefixTokens, TotalTokens: l.TotalTokens,
			Breaks: l.Breaks, Expiries: l.Expiries, ReprocessedTokens: l.ReprocessedTokens})
	}
	if sum.Verdicts > 0 {
		s.ProviderVerdicts = &Verdicts{Read: sum.Verdicts, Agree: sum.VerdictsAgree, Disagree: sum.VerdictsDisagree,
			Inconclusive: sum.VerdictsInconclusive}
	}
	if sum.RecordedRequests > 0 {
		rec := sum.Recorded
		s.RecordedCachedTokens = &rec
	}
	for _, st := range sum.Worst {
		w := Worst{Source: st.Source, Index: st.Index, ReprocessedTokens: st.Reprocessed}
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
