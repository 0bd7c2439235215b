// Package price says what model tokens cost: a dated table of each model's
// prices per million tokens (input, cached read, cache write for five
// minutes and for an hour, output), with the page each provider publishes
// them on, and the money a count of tokens comes to. The built-in table is
// data (prices.json, embedded); a user's own table in the same shape
// replaces it (wirelens --prices FILE).
//
// Prices change: the table says the date it was checked and marks the rows
// whose figures could not be read on the provider's own page.
package price

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/wirelens/wirelens/wire"
)

//go:embed prices.json
var builtin []byte

// Row is the prices of one model (or one family of models), in the table's
// currency per million tokens.
type Row struct {
	Provider string `json:"provider"`
	// Name is how reports name the row ("Claude Sonnet 4.5").
	Name string `json:"name"`
	// Models are lower-case pieces of model names the row applies to; the
	// row whose piece is the longest one found in a model's name wins.
	Models []string `json:"models"`

	Input        float64 `json:"input"`
	CachedRead   float64 `json:"cached_read"`
	CacheWrite5m float64 `json:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h"`
	Output       float64 `json:"output"`

	// Unconfirmed is set when the figures were not read on the provider's
	// own page; Note says where they come from or what they leave out.
	Unconfirmed bool   `json:"unconfirmed,omitempty"`
	Note        string `json:"note,omitempty"`
}

// Source is the page one provider publishes its prices on.
type Source struct {
	Provider string `json:"provider"`
	URL      string `json:"url"`
	Checked  string `json:"checked"`
	Note     string `json:"note,omitempty"`
}

// Table is a dated price table.
type Table struct {
	Date     string   `json:"date"`
	Currency string   `json:"currency"`
	Unit     string   `json:"unit,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Sources  []Source `json:"sources,omitempty"`
	Models   []Row    `json:"models"`
	// Origin says where the table came from: "built-in" or a file name.
	Origin string `json:"-"`
}

// Default is the built-in table.
func Default() *Table {
	t, err := Parse(builtin, "built-in")
	if err != nil {
		panic("price: the built-in table is invalid: " + err.Error())
	}
	return t
}

// maxTableBytes caps a user's table: a price table is a few kilobytes.
const maxTableBytes = 4 << 20

// Load reads a price table in the shape of the built-in one from path
// (only read, through wire.OpenInput).
func Load(path string) (*Table, error) {
	f, err := wire.OpenInput(path, maxTableBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	t, err := Parse(data, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return t, nil
}

// Parse reads a table from JSON. A row without cache-write prices has them
// equal to its input price (providers that charge nothing to write their
// cache); every price must be a finite number, zero or more, and every row
// must name at least one model.
func Parse(data []byte, origin string) (*Table, error) {
	// Cache-write prices are told apart from zero by their absence.
	var raw struct {
		Table
		Models []struct {
			Row
			CacheWrite5m *float64 `json:"cache_write_5m"`
			CacheWrite1h *float64 `json:"cache_write_1h"`
		} `json:"models"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, err)
		}
		return nil, fmt.Errorf("not a price table: %v", err)
	}
	t := raw.Table
	t.Origin = origin
	t.Models = nil
	if t.Currency == "" {
		t.Currency = "USD"
	}
	if len(raw.Models) == 0 {
		return nil, errors.New("no models in the price table")
	}
	for i, m := range raw.Models {
		r := m.Row
		r.CacheWrite5m, r.CacheWrite1h = r.Input, r.Input
		if m.CacheWrite5m != nil {
			r.CacheWrite5m = *m.CacheWrite5m
		}
		if m.CacheWrite1h != nil {
			r.CacheWrite1h = *m.CacheWrite1h
		}
		if len(r.Models) == 0 {
			return nil, fmt.Errorf("model %d (%q) names no model", i+1, r.Name)
		}
		for j, s := range r.Models {
			r.Models[j] = strings.ToLower(strings.TrimSpace(s))
			if r.Models[j] == "" {
				return nil, fmt.Errorf("model %d (%q) has an empty model name", i+1, r.Name)
			}
		}
		if r.Name == "" {
			r.Name = r.Models[0]
		}
		for _, p := range []struct {
			name string
			v    float64
		}{{"input", r.Input}, {"cached_read", r.CachedRead}, {"cache_write_5m", r.CacheWrite5m},
			{"cache_write_1h", r.CacheWrite1h}, {"output", r.Output}} {
			if p.v < 0 || math.IsNaN(p.v) || math.IsInf(p.v, 0) {
				return nil, fmt.Errorf("model %d (%q): %s must be a price of zero or more", i+1, r.Name, p.name)
			}
		}
		t.Models = append(t.Models, r)
	}
	return &t, nil
}

// Lookup finds the row of a model: the row with the longest of its Models
// found in the model's name (case ignored). ok is false when no row
// applies.
func (t *Table) Lookup(model string) (row Row, ok bool) {
	m := strings.ToLower(model)
	best := 0
	for _, r := range t.Models {
		for _, s := range r.Models {
			if len(s) > best && strings.Contains(m, s) {
				row, best, ok = r, len(s), true
			}
		}
	}
	return row, ok
}

// Tokens is what one request was (or would be) billed for. Input counts
// only the input tokens neither read from nor written to the cache.
type Tokens struct {
	Input        int
	CachedRead   int
	CacheWrite5m int
	CacheWrite1h int
	Output       int
}

// Cost is what tokens come to at the row's prices.
func (r Row) Cost(t Tokens) float64 {
	return (float64(t.Input)*r.Input + float64(t.CachedRead)*r.CachedRead +
		float64(t.CacheWrite5m)*r.CacheWrite5m + float64(t.CacheWrite1h)*r.CacheWrite1h +
		float64(t.Output)*r.Output) / 1e6
}

// MissRate is what a token of the prompt costs more when it is processed
// again instead of read from the cache, per million tokens: written to the
// cache again at the five-minute price (rewritten, for explicit caching) or
// processed at the input price, less the cached-read price.
func (r Row) MissRate(rewritten bool) float64 {
	if rewritten {
		return r.CacheWrite5m - r.CachedRead
	}
	return r.Input - r.CachedRead
}
