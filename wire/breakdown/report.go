package breakdown

import (
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// Title is how a text report names a group.
func (g Group) Title() string {
	switch g {
	case GroupHostRules:
		return "host rules"
	case GroupTools:
		return "tool schemas"
	case GroupInstruction:
		return "workspace files"
	case GroupHostFacts:
		return "time and host facts"
	case GroupToolResults:
		return "tool results"
	}
	return string(g)
}

// Short is a group's column heading in a table of a session's growth.
func (g Group) Short() string {
	switch g {
	case GroupHostRules:
		return "RULES"
	case GroupTools:
		return "TOOLS"
	case GroupInstruction:
		return "FILES"
	case GroupListings:
		return "LISTS"
	case GroupHostFacts:
		return "FACTS"
	case GroupToolResults:
		return "RESULTS"
	case GroupReasoning:
		return "REASON"
	}
	return strings.ToUpper(string(g))
}

// Letter is a group's glyph in a stacked bar: a letter, so the bar reads
// without colour.
func (g Group) Letter() string {
	switch g {
	case GroupHostRules:
		return "H"
	case GroupTools:
		return "T"
	case GroupInstruction:
		return "W"
	case GroupListings:
		return "L"
	case GroupSkills:
		return "S"
	case GroupHostFacts:
		return "F"
	case GroupUser:
		return "U"
	case GroupModel:
		return "M"
	case GroupToolResults:
		return "R"
	case GroupReasoning:
		return "Z"
	}
	return "O"
}

// Legend says what the letters of a stacked bar stand for.
const Legend = "H rules T tools W files L listings S skills F facts U user M model R results Z reasoning O other"

// Bar is a stacked bar of tokens by group (in the order of Groups), cells
// long for longest tokens: each group's share of the cells in its letter;
// a group too small for a cell still gets one. It returns the runs of
// letters, one per group shown, so a viewer can colour each.
func Bar(byGroup []int, longest, cells int) []string {
	total := 0
	for _, n := range byGroup {
		total += n
	}
	if longest <= 0 || total <= 0 || cells <= 0 {
		return nil
	}
	n := max(1, min(cells, (total*cells+longest-1)/longest))
	var runs []string
	used, acc := 0, 0
	for i, tok := range byGroup {
		if tok == 0 || i >= len(Groups) {
			continue
		}
		acc += tok
		upto := min(n, max(used+1, acc*n/total))
		if upto > used {
			runs = append(runs, strings.Repeat(Groups[i].Letter(), upto-used))
			used = upto
		}
	}
	return runs
}

// Cost is what tokens of which cached are cached cost at row's prices:
// cached tokens at the cached-read price, the rest at the input price.
func Cost(tokens, cached int, row price.Row) float64 {
	return row.Cost(price.Tokens{Input: max(0, tokens-cached), CachedRead: cached})
}

// PromptCost is what the whole request's prompt costs at row's prices
// (see Cost).
func (c *Context) PromptCost(row price.Row) float64 {
	total := 0.0
	for _, t := range c.Totals() {
		total += Cost(t.Tokens, t.Cached, row)
	}
	return total
}

// share is part over whole as a percentage, one decimal.
func share(part, whole int) string {
	if whole <= 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}

// ItemsShown is how many named items of a group Rows lists; the rest are
// summed in one row.
const ItemsShown = 12

// Rows is the breakdown as the rows of a text table, its heading first:
// each group, under it its MCP servers and named items, then the total.
// Cells are safe to print; a COST column is added when the model is
// priced (row is then its price). Columns 2 and up are numbers.
func (c *Context) Rows(row price.Row, priced bool, currency string) [][]string {
	head := []string{"CATEGORY", "TRUST", "TOKENS", "SHARE", "CACHED", "BYTES"}
	if priced {
		head = append(head, "COST")
	}
	rows := [][]string{head}
	add := func(indent int, label, trust string, tokens, cached, bytes int) {
		cells := []string{strings.Repeat("  ", indent) + label, trust, wire.GroupDigits(tokens), share(tokens, c.Tokens),
			wire.GroupDigits(cached), wire.GroupDigits(bytes)}
		if priced {
			cells = append(cells, price.Money(Cost(tokens, cached, row), currency))
		}
		rows = append(rows, cells)
	}
	servers := c.Servers()
	cachedAll := 0
	for _, t := range c.Totals() {
		cachedAll += t.Cached
		var trusts []string
		for _, tr := range t.Trusts {
			trusts = append(trusts, string(tr))
		}
		add(0, t.Group.Title(), strings.Join(trusts, "+"), t.Tokens, t.Cached, t.Bytes)
		if t.Group == GroupTools {
			for _, s := range servers {
				n := strconv.Itoa(s.Tools) + " tools"
				if s.Tools == 1 {
					n = "1 tool"
				}
				add(1, "MCP "+scan.VisibleLine(s.Name)+" ("+n+")", "", s.Tokens, s.Cached, s.Bytes)
			}
		}
		shown, more, moreTok, moreCached, moreBytes := 0, 0, 0, 0, 0
		for _, it := range c.Items {
			if it.Group != t.Group || it.Name == "" && len(t.Trusts) == 1 {
				continue
			}
			if shown == ItemsShown {
				more++
				moreTok, moreCached, moreBytes = moreTok+it.Tokens, moreCached+it.Cached, moreBytes+it.Bytes
				continue
			}
			shown++
			label := scan.VisibleLine(it.Name)
			if label == "" {
				label = "(unnamed)"
			}
			add(1, label, string(it.Trust), it.Tokens, it.Cached, it.Bytes)
		}
		if more > 0 {
			add(1, "… and "+strconv.Itoa(more)+" more", "", moreTok, moreCached, moreBytes)
		}
	}
	add(0, "total", "", c.Tokens, cachedAll, c.Bytes)
	return rows
}

// GrowthBarCells is the length of the longest request's bar in Table.
const GrowthBarCells = 24

// Table is the growth as the rows of a text table, its heading first: one
// row a request ("@N"), its tokens, cached tokens and the tokens of each
// group found in any request, and a stacked bar of its groups (see Bar),
// as long as the request against the session's longest.
func (g *Growth) Table() [][]string {
	used := make([]bool, len(Groups))
	for _, row := range g.Rows {
		for i, n := range row.ByGroup {
			used[i] = used[i] || n > 0
		}
	}
	head := []string{"REQUEST", "TOKENS", "CACHED"}
	for i, gr := range Groups {
		if used[i] {
			head = append(head, gr.Short())
		}
	}
	head = append(head, "CONTEXT")
	longest := 0
	for _, row := range g.Rows {
		longest = max(longest, row.Tokens)
	}
	rows := [][]string{head}
	for _, row := range g.Rows {
		cells := []string{"@" + strconv.Itoa(row.Index), wire.GroupDigits(row.Tokens), wire.GroupDigits(row.Cached)}
		for i, n := range row.ByGroup {
			if used[i] {
				cells = append(cells, wire.GroupDigits(n))
			}
		}
		cells = append(cells, strings.Join(Bar(row.ByGroup, longest, GrowthBarCells), ""))
		rows = append(rows, cells)
	}
	return rows
}

// JSON is a breakdown as `wirelens context --json` writes it: every string
// safe to print.
type JSON struct {
	Source       string       `json:"source"`
	Index        int          `json:"index"`
	Format       string       `json:"format"`
	Model        string       `json:"model"`
	Encoding     string       `json:"encoding"`
	Tokens       int          `json:"tokens"`
	Bytes        int          `json:"bytes"`
	Recorded     *wire.Usage  `json:"recorded"`
	CachedTokens int          `json:"cached_tokens"`
	CachedBasis  string       `json:"cached_basis"`
	Price        *PriceJSON   `json:"price"`
	Groups       []GroupJSON  `json:"groups"`
	Items        []ItemJSON   `json:"items"`
	MCPServers   []ServerJSON `json:"mcp_servers"`
}

// PriceJSON is the price a breakdown is costed at.
type PriceJSON struct {
	Name        string  `json:"name"`
	Currency    string  `json:"currency"`
	Date        string  `json:"date"`
	Input       float64 `json:"input"`
	CachedRead  float64 `json:"cached_read"`
	Unconfirmed bool    `json:"unconfirmed,omitempty"`
	// Cost is the prompt's (see Cost).
	Cost float64 `json:"cost"`
}

// GroupJSON is one group's total.
type GroupJSON struct {
	Group        string   `json:"group"`
	Trust        []string `json:"trust"`
	Segments     int      `json:"segments"`
	Tokens       int      `json:"tokens"`
	Bytes        int      `json:"bytes"`
	Share        float64  `json:"share"`
	CachedTokens int      `json:"cached_tokens"`
	Cost         *float64 `json:"cost,omitempty"`
}

// ItemJSON is one item.
type ItemJSON struct {
	Group        string   `json:"group"`
	Name         string   `json:"name"`
	Server       string   `json:"server,omitempty"`
	Trust        string   `json:"trust"`
	Segments     int      `json:"segments"`
	Tokens       int      `json:"tokens"`
	Bytes        int      `json:"bytes"`
	CachedTokens int      `json:"cached_tokens"`
	Cost         *float64 `json:"cost,omitempty"`
}

// ServerJSON is one MCP server's tool schemas.
type ServerJSON struct {
	Name         string `json:"name"`
	Tools        int    `json:"tools"`
	Tokens       int    `json:"tokens"`
	Bytes        int    `json:"bytes"`
	CachedTokens int    `json:"cached_tokens"`
}

// ToJSON is c for JSON, costed with tab (no costs when tab has no price
// for the model).
func (c *Context) ToJSON(tab *price.Table) JSON {
	j := JSON{Source: c.Source, Index: c.Index, Format: string(c.Format), Model: scan.VisibleLine(c.Model),
		Encoding: c.Encoding, Tokens: c.Tokens, Bytes: c.Bytes, Recorded: c.Recorded, CachedTokens: c.CachedTokens,
		CachedBasis: c.CachedBasis, Groups: []GroupJSON{}, Items: []ItemJSON{}, MCPServers: []ServerJSON{}}
	row, priced := tab.Lookup(c.Model)
	cost := func(tokens, cached int) *float64 {
		if !priced {
			return nil
		}
		v := price.Round(Cost(tokens, cached, row))
		return &v
	}
	for _, t := range c.Totals() {
		g := GroupJSON{Group: string(t.Group), Trust: []string{}, Segments: t.Segments, Tokens: t.Tokens,
			Bytes: t.Bytes, CachedTokens: t.Cached, Cost: cost(t.Tokens, t.Cached)}
		if c.Tokens > 0 {
			g.Share = float64(int(10000*float64(t.Tokens)/float64(c.Tokens)+0.5)) / 10000
		}
		for _, tr := range t.Trusts {
			g.Trust = append(g.Trust, string(tr))
		}
		j.Groups = append(j.Groups, g)
	}
	for _, it := range c.Items {
		j.Items = append(j.Items, ItemJSON{Group: string(it.Group), Name: scan.VisibleLine(it.Name),
			Server: scan.VisibleLine(it.Server), Trust: string(it.Trust), Segments: it.Segments, Tokens: it.Tokens,
			Bytes: it.Bytes, CachedTokens: it.Cached, Cost: cost(it.Tokens, it.Cached)})
	}
	for _, s := range c.Servers() {
		j.MCPServers = append(j.MCPServers, ServerJSON{Name: scan.VisibleLine(s.Name), Tools: s.Tools,
			Tokens: s.Tokens, Bytes: s.Bytes, CachedTokens: s.Cached})
	}
	if priced {
		j.Price = &PriceJSON{Name: row.Name, Currency: tab.Currency, Date: tab.Date, Input: row.Input,
			CachedRead: row.CachedRead, Unconfirmed: row.Unconfirmed, Cost: price.Round(c.PromptCost(row))}
	}
	return j
}

// ByGroup is the tokens of each group, in the order of Groups.
func (c *Context) ByGroup() []int {
	out := make([]int, len(Groups))
	for _, t := range c.Totals() {
		for i, g := range Groups {
			if g == t.Group {
				out[i] = t.Tokens
			}
		}
	}
	return out
}
