package price

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire/scan"
)

// Money writes an amount of a currency for a report: "$0.0123", "$12.34",
// "0.0123 EUR". Small amounts keep four significant decimals, so that a
// break of a few thousand tokens does not read as nothing.
func Money(v float64, currency string) string {
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
	return withCurrency(s, currency)
}

// Rate writes a price per million tokens: "$3", "$0.3", "0.3 EUR".
func Rate(v float64, currency string) string {
	return withCurrency(strconv.FormatFloat(v, 'f', -1, 64), currency)
}

func withCurrency(s, currency string) string {
	if currency == "" || currency == "USD" {
		if rest, ok := strings.CutPrefix(s, "-"); ok {
			return "-$" + rest
		}
		return "$" + s
	}
	return s + " " + scan.VisibleLine(currency)
}

// Round rounds an amount for JSON output: to a millionth of the unit.
func Round(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// Note says which table prices a report: its date and where it came from,
// and the rows used that are not confirmed on the provider's page.
func (t *Table) Note(unconfirmed []string) string {
	s := "prices of " + scan.VisibleLine(t.Date)
	if t.Origin != "built-in" {
		s += " from " + scan.VisibleLine(t.Origin)
	} else {
		s += " (built-in table)"
	}
	if len(unconfirmed) > 0 {
		s += "; not confirmed on the provider's page: " + scan.VisibleLine(strings.Join(unconfirmed, ", "))
	}
	return s
}
