package main

// Prices and money, shared by context, cache and whatif.

import (
	"errors"
	"github.com/spf13/cobra"
	"io/fs"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire/price"
)

// pricesFlag adds --prices FILE to cmd.
func pricesFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "prices", "", "a price table of your own (JSON, in the shape the README's Prices section gives) instead of the built-in one")
}

// loadPrices is the built-in price table, or the one at path (exit 2 when
// it cannot be read).
func loadPrices(path string) (*price.Table, error) {
	if path == "" {
		return price.Default(), nil
	}
	t, err := price.Load(path)
	if err != nil {
		// A file that cannot be opened is named with what is wrong
		// ("nosuch.json: no such file"), not Go's "stat nosuch.json: ...".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, usageError("--prices %s: %s", path, osErrorText(err))
		}
		return nil, usageError("--prices: %v", err)
	}
	return t, nil
}

// money, roundMoney and priceNote are price's, for the report writers.
var (
	money      = price.Money
	roundMoney = price.Round
)

func priceNote(t *price.Table, unconfirmed []string) string { return t.Note(unconfirmed) }

// basisWord says where a count of tokens comes from, for text reports.
func basisWord(b diff.Basis) string {
	if b == diff.BasisRecorded {
		return "recorded"
	}
	return "predicted"
}
