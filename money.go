package main

// Prices and money, shared by context, cache and whatif.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire/price"
	"github.com/wirelens/wirelens/wire/scan"
)

// pricesFlag adds --prices FILE to cmd.
func pricesFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "prices", "", "a price table of your own (JSON, the shape of wire/price/prices.json) instead of the built-in one")
}

// loadPrices is the built-in price table, or the one at path (exit 2 when
// it cannot be read).
func loadPrices(path string) (*price.Table, error) {
	if path == "" {
		return price.Default(), nil
	}
	t, err := price.Load(path)
	if err != nil {
		return nil, usageError("--prices: %v", err)
	}
	return t, nil
}

// money writes an amount of the table's currency: "$0.0123", "$12.34",
// "0.0123 EUR". Small amounts keep four decimals, so that a break of a few
// thousand tokens does not read as nothing.
func money(v float64, currency string) string {
	var s string
	switch a := math.Abs(v); {
	case a == 0:
		s = "0"
	case a >= 100:
		s = fmt.Sprintf("%.0f", v)
	case a >= 1:
		s = fmt.Sprintf("%.2f", v)
	case a >= 0.0001:
		s = fmt.Sprintf("%.4f", v)
	default:
		s = fmt.Sprintf("%.6f", v)
	}
	if currency == "" || currency == "USD" {
		if strings.HasPrefix(s, "-") {
			return "-$" + s[1:]
		}
		return "$" + s
	}
	return s + " " + scan.VisibleLine(currency)
}

// rate writes a price per million tokens: "$3", "$0.3", "0.3 EUR".
func rate(v float64, currency string) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if currency == "" || currency == "USD" {
		return "$" + s
	}
	return s + " " + scan.VisibleLine(currency)
}

// roundMoney rounds an amount for JSON: to a millionth of the unit.
func roundMoney(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// priceNote says which price table is used: its date and origin, and the
// rows used that are not confirmed.
func priceNote(t *price.Table, unconfirmed []string) string {
	s := "prices of " + scan.VisibleLine(t.Date)
	if t.Origin != "built-in" {
		s += " from " + scan.VisibleLine(t.Origin)
	} else {
		s += " (built-in table, wire/price/prices.json)"
	}
	if len(unconfirmed) > 0 {
		s += "; not confirmed on the provider's page: " + scan.VisibleLine(strings.Join(unconfirmed, ", "))
	}
	return s
}

// basisWord says where a count of tokens comes from, for text reports.
func basisWord(b diff.Basis) string {
	if b == diff.BasisRecorded {
		return "recorded"
	}
	return "predicted"
}
