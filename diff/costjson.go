package diff

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
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
	// Expiry is what re-writing a prefix that had expired cost, null when
	// none had.
	Expiry *BreakCostJSON `json:"expiry"`
	Tokens TokensJSON     `json:"tokens"`
}

// TokensJSON is what a request's spend counts.
type TokensJSON struct {
	Input        int `json:"input"`
	CachedRead   int `json:"cached_read"`
	CacheWrite5m int `json:"cache_write_5m"`
	CacheWrite1h int `json:"cache_write_1h,omitempty"`
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
	Expiries          int            `json:"expiries"`
	ExpiryTokens      int            `json:"expiry_tokens"`
	ExpiryCost        float64        `json:"expiry_cost"`
	Unconfirmed       []string       `json:"unconfirmed_prices"`
}

// JSON is c for JSON, nil when the request is not priced.
func (c *Cost) JSON(currency string) *CostJSON {
	if c == nil || !c.Priced {
		return nil
	}
	return c.JSONInto(new(CostJSON), new(BreakCostJSON), new(BreakCostJSON), currency)
}

// JSONInto is c for JSON written into j, its break and expiry into brk and
// exp (a report that writes each request at once reuses them), nil when
// the request is not priced.
func (c *Cost) JSONInto(j *CostJSON, brk, exp *BreakCostJSON, currency string) *CostJSON {
	if c == nil || !c.Priced {
		return nil
	}
	*j = CostJSON{Price: c.Price, Unconfirmed: c.Unconfirmed, Currency: currency,
		Spend: price.Round(c.Spend.USD), SpendBasis: string(c.Spend.Basis),
		Tokens: TokensJSON{Input: c.Spend.Tokens.Input, CachedRead: c.Spend.Tokens.CachedRead,
			CacheWrite5m: c.Spend.Tokens.CacheWrite5m, CacheWrite1h: c.Spend.Tokens.CacheWrite1h, Output: c.Spend.Tokens.Output}}
	if b := c.Break; b != nil {
		*brk = BreakCostJSON{Tokens: b.Tokens, Rewritten: b.Rewritten, Cost: price.Round(b.USD), Basis: string(b.Basis)}
		j.Break = brk
	}
	if x := c.Expiry; x != nil {
		*exp = BreakCostJSON{Tokens: x.Tokens, Rewritten: x.Rewritten, Cost: price.Round(x.USD), Basis: string(x.Basis)}
		j.Expiry = exp
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
		BreakCostPred: price.Round(t.BreakPredictedUSD), Expiries: t.Expiries, ExpiryTokens: t.ExpiryTokens,
		ExpiryCost: price.Round(t.ExpiryUSD), Unconfirmed: []string{}}
	for m, n := range t.Unpriced {
		j.Unpriced[scan.VisibleLine(m)] += n
	}
	j.Unconfirmed = append(j.Unconfirmed, t.Unconfirmed...)
	return j
}

// Lines says in sentences what a sequence cost: the breaks, the session,
// the models without a price; each amount said recorded or predicted.
func (t LedgerTotals) Lines() []string {
	cur := t.Currency
	if t.Priced == 0 {
		return []string{"no price for the models of these requests (" + t.unpricedList() + "): give a table of your own with --prices"}
	}
	breaks := strconv.Itoa(t.Breaks) + " breaks"
	if t.Breaks == 1 {
		breaks = "1 break"
	}
	lines := []string{
		fmt.Sprintf("breaks cost %s: %s tokens processed again instead of read from the cache (%s; %s of it recorded, %s predicted)",
			price.Money(t.BreakUSD, cur), wire.GroupDigits(t.BreakTokens), breaks, price.Money(t.BreakRecordedUSD, cur),
			price.Money(t.BreakPredictedUSD, cur)),
		fmt.Sprintf("the session cost %s over %d priced requests (%s from recorded usage, %s predicted from estimated tokens)",
			price.Money(t.SpendUSD, cur), t.Priced, price.Money(t.SpendRecordedUSD, cur), price.Money(t.SpendPredictedUSD, cur)),
	}
	if t.Expiries > 0 {
		lines = append(lines, fmt.Sprintf("expiries cost %s: %s tokens written again after the cache had expired (%s)",
			price.Money(t.ExpiryUSD, cur), wire.GroupDigits(t.ExpiryTokens), plural(t.Expiries, "expiry", "expiries")))
	}
	if len(t.Unpriced) > 0 {
		lines = append(lines, "not priced: "+t.unpricedList())
	}
	return lines
}

// unpricedList writes `"model-a" (3 requests), "model-b" (1 requests)`.
func (t LedgerTotals) unpricedList() string {
	models := slices.Sorted(maps.Keys(t.Unpriced))
	slices.SortStableFunc(models, func(a, b string) int { return t.Unpriced[b] - t.Unpriced[a] })
	var parts []string
	for _, m := range models {
		name := m
		if name == "" {
			name = "(no model named)"
		}
		parts = append(parts, strconv.Quote(scan.VisibleLine(name))+" ("+strconv.Itoa(t.Unpriced[m])+" requests)")
	}
	return strings.Join(parts, ", ")
}

// plural is "1 expiry" or "3 expiries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
