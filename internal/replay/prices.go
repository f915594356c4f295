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

// Cost implements Prices. The formula is the price table's own
// (prices.Row.Cost), applied to each part of the usage at the rates of the
// band the whole prompt falls in, so that replay and the hook price a
// response alike.
func (p TablePrices) Cost(model, speed string, u *transcript.Usage) (Parts, bool) {
	if p.Table == nil {
		return Parts{}, false
	}
	row, ok := p.Table.Lookup(model, speed)
	if !ok {
		return Parts{}, false
	}
	at := prices.Row{Rates: row.At(u.Context())}
	return Parts{
		Read: at.Cost(&transcript.Usage{CacheReadInputTokens: u.CacheReadInputTokens}),
		Write: at.Cost(&transcript.Usage{InputTokens: u.InputTokens,
			CacheCreationInputTokens: u.CacheCreationInputTokens, CacheCreation: u.CacheCreation}),
		Output: at.Cost(&transcript.Usage{OutputTokens: u.OutputTokens}),
	}, true
}
