package replay

import (
	"math"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// TestTablePricesIsRowCost: replay's parts add up to the price table's
// cost of the response, base band and long-context band alike.
func TestTablePricesIsRowCost(t *testing.T) {
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		for _, u := range []transcript.Usage{
			{InputTokens: 3, CacheReadInputTokens: 150_000, CacheCreationInputTokens: 2_000, OutputTokens: 400},
			{InputTokens: 5, CacheReadInputTokens: 300_000, CacheCreationInputTokens: 4_000, OutputTokens: 900,
				CacheCreation: &transcript.CacheCreation{Ephemeral5m: 1_000, Ephemeral1h: 3_000}},
		} {
			parts, ok := TablePrices{tab}.Cost(row.ID, row.Speed, &u)
			if !ok {
				t.Fatalf("%s/%s not priced", row.ID, row.Speed)
			}
			want := row.Cost(&u)
			if got := parts.Total(); math.Abs(got-want) > 1e-12*max(1, want) {
				t.Errorf("%s/%s at %d: parts %v, row %v", row.ID, row.Speed, u.Context(), got, want)
			}
		}
	}
}
