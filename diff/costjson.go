package diff

import (
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// CostJSON is the cost of one request as the JSON reports write it
// (`cache --json`, `whatif --json`).
type CostJSON struct {
	Price       string         `json:"price"`
	Unconfirmed bool           `json:"unconfirmed,omitempty"`
	Currency    string         `json:"currency"`
	Spend       float64        `json:"spend"`
	SpendBasis  string         `json:"spend_basis"`
	Break       *BreakCostJSON `json:"break"`
	Tokens      TokensJSON     `json:"tokens"`
}

// TokensJSON is what a request's spend counts.
type TokensJSON struct {
	Input        int `json:"input"`
	CachedRead   int `json:"cached_read"`
	CacheWrite5m int `json:"cache_write_5m"`
	Output       int `json:"output"`
}

// BreakCostJSON is what one break cost.
type BreakCostJSON struct {
	Tokens    int     `json:"tokens"`
	Rewritten bool    `json:"rewritten"`
	Cost      float64 `json:"cost"`
	Basis     string  `json:"basis"`
}

// TotalsJSON is what a sequence cost, as the JSON reports write it.
type TotalsJSON struct {
	Currency          string         `json:"currency"`
	PricesDate        string         `json:"prices_date"`
	PricesOrigin      string         `json:"prices_origin"`
	Priced            int            `json:"priced_requests"`
	Unpriced          map[string]int `json:"unpriced_models"`
	Spend             float64        `json:"spend"`
	SpendRecorded     float64        `json:"spend_recorded"`
	SpendPredicted    float64        `json:"spend_predicted"`
	Breaks            int            `json:"breaks"`
	BreaksRecorded    int            `json:"breaks_recorded"`
	BreakTokens       int            `json:"break_tokens"`
	BreakCost         float64        `json:"break_cost"`
	BreakCostRecorded float64        `json:"break_cost_recorded"`
	BreakCostPred     float64        `json:"break_cost_predicted"`
	Unconfirmed       []string       `json:"unconfirmed_prices"`
}

// JSON is c for JSON, nil when the request is not priced.
func (c *Cost) JSON(currency string) *CostJSON {
	if c == nil || !c.Priced {
		return nil
	}
	j := &CostJSON{Price: c.Price, Unconfirmed: c.Unconfirmed, Currency: currency,
		Spend: price.Round(c.Spend.USD), SpendBasis: string(c.Spend.Basis),
		Tokens: TokensJSON{Input: c.Spend.Tokens.Input, CachedRead: c.Spend.Tokens.CachedRead,
			CacheWrite5m: c.Spend.Tokens.CacheWrite5m, Output: c.Spend.Tokens.Output}}
	if b := c.Break; b != nil {
		j.Break = &BreakCostJSON{Tokens: b.Tokens, Rewritten: b.Rewritten, Cost: price.Round(b.USD), Basis: string(b.Basis)}
	}
	return j
}

// JSON is t for JSON, priced with tab.
func (t LedgerTotals) JSON(tab *price.Table) *TotalsJSON {
	j := &TotalsJSON{Currency: t.Currency, PricesDate: tab.Date, PricesOrigin: tab.Origin,
		Priced: t.Priced, Unpriced: map[string]int{}, Spend: price.Round(t.SpendUSD),
		SpendRecorded: price.Round(t.SpendRecordedUSD), SpendPredicted: price.Round(t.SpendPredictedUSD),
		Breaks: t.Breaks, BreaksRecorded: t.BreaksRecorded, BreakTokens: t.BreakTokens,
		BreakCost: price.Round(t.BreakUSD), BreakCostRecorded: price.Round(t.BreakRecordedUSD),
		BreakCostPred: price.Round(t.BreakPredictedUSD), Unconfirmed: []string{}}
	for m, n := range t.Unpriced {
		j.Unpriced[scan.VisibleLine(m)] += n
	}
	j.Unconfirmed = append(j.Unconfirmed, t.Unconfirmed...)
	return j
}
