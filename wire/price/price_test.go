package price

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultTableIsDatedAndSourced(t *testing.T) {
	tab := Default()
	if tab.Date == "" || tab.Currency != "USD" {
		t.Fatalf("date %q currency %q", tab.Date, tab.Currency)
	}
	sources := map[string]bool{}
	for _, s := range tab.Sources {
		if !strings.HasPrefix(s.URL, "https://") || s.Checked == "" {
			t.Errorf("source %+v has no page or date", s)
		}
		sources[s.Provider] = true
	}
	need := []string{"anthropic", "openai", "gemini", "moonshot", "deepseek"}
	rows := map[string]int{}
	for _, r := range tab.Models {
		rows[r.Provider]++
		if !sources[r.Provider] {
			t.Errorf("row %q: provider %q has no source", r.Name, r.Provider)
		}
		if r.Input <= 0 || r.Output <= 0 || r.CachedRead <= 0 || r.CachedRead > r.Input || r.CacheWrite5m < r.Input {
			t.Errorf("row %q: implausible prices %+v", r.Name, r)
		}
		if r.Unconfirmed && r.Note == "" {
			t.Errorf("row %q is unconfirmed and does not say why", r.Name)
		}
	}
	for _, p := range need {
		if rows[p] == 0 {
			t.Errorf("no price of provider %s", p)
		}
	}
}

func TestLookupTakesTheLongestMatch(t *testing.T) {
	tab := Default()
	for model, want := range map[string]string{
		"claude-opus-4-5-20251101":   "Claude Opus 4.5 to 5",
		"claude-opus-4-1-20250805":   "Claude Opus 4 and 4.1, Opus 3",
		"claude-sonnet-4-5-20250929": "Claude Sonnet 3.7 to 4.6",
		"claude-sonnet-5-5":          "Claude Sonnet 5.5",
		"claude-3-haiku-20240307":    "Claude Haiku 3",
		"claude-haiku-4-5":           "Claude Haiku 4.5",
		"gpt-5.4-mini-2026-03-01":    "GPT-5.4 mini",
		"gpt-5-codex":                "GPT-5, GPT-5.1, GPT-5 Codex",
		"GPT-4o-mini":                "GPT-4o mini",
		"models/gemini-2.5-flash":    "Gemini 2.5 Flash",
		"gemini-2.5-flash-lite":      "Gemini 2.5 Flash-Lite",
		"kimi-k2-turbo-preview":      "Kimi K2 turbo",
		"kimi-k2-0905-preview":       "Kimi K2 (0905, 0711, thinking)",
		"kimi-k2.5":                  "Kimi K2.5",
		"deepseek-chat":              "DeepSeek-V3.2 (deepseek-chat, deepseek-reasoner)",
	} {
		r, ok := tab.Lookup(model)
		if !ok || r.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", model, r.Name, ok, want)
		}
	}
	if r, ok := tab.Lookup("my-local-llama"); ok {
		t.Errorf("an unknown model matched %q", r.Name)
	}
}

func TestCostAndMissRate(t *testing.T) {
	r := Row{Input: 3, CachedRead: 0.3, CacheWrite5m: 3.75, CacheWrite1h: 6, Output: 15}
	got := r.Cost(Tokens{Input: 1_000_000, CachedRead: 2_000_000, CacheWrite5m: 1_000_000, CacheWrite1h: 500_000, Output: 100_000})
	want := 3 + 0.6 + 3.75 + 3 + 1.5
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("Cost = %v, want %v", got, want)
	}
	if got := r.MissRate(true); math.Abs(got-3.45) > 1e-9 {
		t.Errorf("MissRate(rewritten) = %v", got)
	}
	if got := r.MissRate(false); math.Abs(got-2.7) > 1e-9 {
		t.Errorf("MissRate = %v", got)
	}
}

func TestLoadUserTable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "prices.json")
	os.WriteFile(p, []byte(`{"date":"2027-01-01","models":[{"name":"mine","models":["Local-Llama"],"input":1,"cached_read":0.5,"output":2}]}`), 0o644)
	tab, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := tab.Lookup("my-local-llama-3")
	if !ok || r.Name != "mine" || r.CacheWrite5m != 1 || r.CacheWrite1h != 1 {
		t.Fatalf("Lookup = %+v, %v (cache writes default to the input price)", r, ok)
	}
	if tab.Origin != p || tab.Currency != "USD" {
		t.Errorf("origin %q currency %q", tab.Origin, tab.Currency)
	}
}

func TestLoadRejectsBadTables(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"truncated.json": `{"models":[{"name":"x",`,
		"empty.json":     `{"models":[]}`,
		"nomodel.json":   `{"models":[{"name":"x","input":1}]}`,
		"negative.json":  `{"models":[{"name":"x","models":["x"],"input":-1}]}`,
		"binary.json":    "\x00\x01\x02",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming the file", name, err)
		}
	}
	if _, err := Load(dir); err == nil {
		t.Error("a directory loaded as a price table")
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file loaded as a price table")
	}
}

func TestMoneyAndRate(t *testing.T) {
	for _, c := range []struct {
		v    float64
		cur  string
		want string
	}{{0, "USD", "$0"}, {0.01234, "USD", "$0.0123"}, {12.345, "", "$12.35"}, {1234.5, "USD", "$1234"},
		{0.0000123, "USD", "$0.000012"}, {-0.5, "USD", "-$0.5000"}, {0.5, "EUR", "0.5000 EUR"}} {
		if got := Money(c.v, c.cur); got != c.want {
			t.Errorf("Money(%v, %q) = %q, want %q", c.v, c.cur, got, c.want)
		}
	}
	if got := Rate(0.3, "USD"); got != "$0.3" {
		t.Errorf("Rate = %q", got)
	}
	if got := Round(0.12345678); got != 0.123457 {
		t.Errorf("Round = %v", got)
	}
	n := Default().Note([]string{"GPT-5.5"})
	if !strings.Contains(n, "built-in") || !strings.Contains(n, "GPT-5.5") || !strings.Contains(n, Default().Date) {
		t.Errorf("Note = %q", n)
	}
}
