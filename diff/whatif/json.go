package whatif

import (
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// JSON is a replay as `wirelens whatif --json` writes it.
type JSON struct {
	Encoding  string         `json:"encoding"`
	Prices    *PricesJSON    `json:"prices"`
	Scenarios []ScenarioJSON `json:"scenarios"`
}

// PricesJSON names the price table.
type PricesJSON struct {
	Date     string `json:"date"`
	Origin   string `json:"origin"`
	Currency string `json:"currency"`
}

// ScenarioJSON is one scenario against the recording.
type ScenarioJSON struct {
	Name     string        `json:"name"`
	Requests []RequestJSON `json:"requests"`
	Totals   TotalsJSON    `json:"totals"`
	Notes    []string      `json:"notes"`
}

// RequestJSON is one request: as recorded (predicted) and in the what-if.
type RequestJSON struct {
	Source               string   `json:"source"`
	Index                int      `json:"index"`
	Model                string   `json:"model"`
	RecordedCachedTokens *int     `json:"recorded_cached_tokens"`
	TokensAsRecorded     int      `json:"tokens_as_recorded"`
	Tokens               int      `json:"tokens"`
	CachedAsRecorded     int      `json:"cached_tokens_as_recorded"`
	Cached               int      `json:"cached_tokens"`
	ReprocessedAsRec     int      `json:"reprocessed_tokens_as_recorded"`
	Reprocessed          int      `json:"reprocessed_tokens"`
	BreakAsRecorded      string   `json:"break_as_recorded"`
	Break                string   `json:"break"`
	CostAsRecorded       *float64 `json:"cost_as_recorded"`
	Cost                 *float64 `json:"cost"`
	Saved                *float64 `json:"saved"`
}

// TotalsJSON is a scenario's totals against the recording's.
type TotalsJSON struct {
	Requests         int      `json:"requests"`
	TokensAsRecorded int      `json:"tokens_as_recorded"`
	Tokens           int      `json:"tokens"`
	CachedAsRecorded int      `json:"cached_tokens_as_recorded"`
	Cached           int      `json:"cached_tokens"`
	ReprocessedAsRec int      `json:"reprocessed_tokens_as_recorded"`
	Reprocessed      int      `json:"reprocessed_tokens"`
	BreaksAsRecorded int      `json:"breaks_as_recorded"`
	Breaks           int      `json:"breaks"`
	CostAsRecorded   *float64 `json:"cost_as_recorded"`
	Cost             *float64 `json:"cost"`
	Saved            *float64 `json:"saved"`
	// Expiries and their tokens written again (as recorded and in the
	// what-if).
	ExpiriesAsRecorded int `json:"expiries_as_recorded"`
	Expiries           int `json:"expiries"`
	ExpiredAsRecorded  int `json:"expired_tokens_as_recorded"`
	Expired            int `json:"expired_tokens"`
	// ReuseAsRecorded and Reuse are the cached share of the tokens.
	ReuseAsRecorded float64 `json:"reuse_ratio_as_recorded"`
	Reuse           float64 `json:"reuse_ratio"`
}

func money(priced bool, v float64) *float64 {
	if !priced {
		return nil
	}
	r := price.Round(v)
	return &r
}

func ratio(a, b int) float64 {
	if b <= 0 {
		return 0
	}
	return float64(int(10000*float64(a)/float64(b)+0.5)) / 10000
}

// JSON is the replay for JSON output.
func (p *Replay) JSON(encoding string) JSON {
	j := JSON{Encoding: encoding, Scenarios: []ScenarioJSON{}}
	if p.Prices != nil {
		j.Prices = &PricesJSON{Date: p.Prices.Date, Origin: p.Prices.Origin, Currency: p.Prices.Currency}
	}
	as, alts := p.Totals()
	for k, sc := range p.Scenarios {
		s := ScenarioJSON{Name: sc.Name, Requests: []RequestJSON{}, Notes: []string{}}
		for _, n := range p.Notes(k) {
			s.Notes = append(s.Notes, scan.VisibleLine(n))
		}
		for _, r := range p.rows {
			a := r.Alt[k]
			both := r.As.Priced && a.Priced
			s.Requests = append(s.Requests, RequestJSON{Source: r.Source, Index: r.Index, Model: scan.VisibleLine(r.Model),
				RecordedCachedTokens: r.Recorded, TokensAsRecorded: r.As.Tokens, Tokens: a.Tokens,
				CachedAsRecorded: r.As.Cached, Cached: a.Cached, ReprocessedAsRec: r.As.Reprocessed, Reprocessed: a.Reprocessed,
				BreakAsRecorded: r.As.Break, Break: a.Break, CostAsRecorded: money(r.As.Priced, r.As.Spend),
				Cost: money(a.Priced, a.Spend), Saved: money(both, r.As.Spend-a.Spend)})
		}
		t := alts[k]
		both := as.Priced == as.Requests && t.Priced == t.Requests && as.Requests > 0
		s.Totals = TotalsJSON{Requests: t.Requests, TokensAsRecorded: as.Tokens, Tokens: t.Tokens,
			CachedAsRecorded: as.Cached, Cached: t.Cached, ReprocessedAsRec: as.Reprocessed, Reprocessed: t.Reprocessed,
			BreaksAsRecorded: as.Breaks, Breaks: t.Breaks, CostAsRecorded: money(both, as.Spend), Cost: money(both, t.Spend),
			Saved: money(both, as.Spend-t.Spend), ReuseAsRecorded: ratio(as.Cached, as.Tokens), Reuse: ratio(t.Cached, t.Tokens),
			ExpiriesAsRecorded: as.Expiries, Expiries: t.Expiries, ExpiredAsRecorded: as.Expired, Expired: t.Expired}
		j.Scenarios = append(j.Scenarios, s)
	}
	return j
}
