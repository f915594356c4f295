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
func (p TablePrices) Cost(model, speed string, u *transcript.Usage) (Parts, bool) {
	if p.Table == nil {
		return Parts{}, false
	}
	row, ok := p.Table.Lookup(model, speed)
	if !ok {
		return Parts{}, false
	}
	rt := row.At(u.Context())
	return Parts{
		Read: float64(u.CacheReadInputTokens) * rt.CacheRead / 1e6,
		Write: (float64(u.InputTokens)*rt.Input + float64(u.Write5m())*rt.CacheWrite5m +
			float64(u.Write1h())*rt.CacheWrite1h) / 1e6,
		Output: float64(u.OutputTokens) * rt.Output / 1e6,
	}, true
}
