package replay

import (
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// TablePrices prices responses from a price table: each response at its
// model's and speed's row, at the band its prompt falls in.
type TablePrices struct {
	Table *prices.Table
}

// Cost implements Prices.
func (p TablePrices) Cost(model, speed string, u *transcript.Usage) (float64, bool) {
	if p.Table == nil {
		return 0, false
	}
	row, ok := p.Table.Lookup(model, speed)
	if !ok {
		return 0, false
	}
	return row.Cost(u), true
}
