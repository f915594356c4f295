package spend

import (
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// TablePricer prices with the table load returns, loaded at the first
// response that needs a price: a call with nothing new to count parses no
// table.
func TablePricer(load func() *prices.Table) Pricer {
	var t *prices.Table
	return func(model string, u *transcript.Usage) (float64, bool) {
		if t == nil {
			if t = load(); t == nil {
				t = &prices.Table{}
			}
		}
		row, ok := t.Lookup(model, u.Speed)
		if !ok {
			return 0, false
		}
		return row.Cost(u), true
	}
}

// Table loads the price table the way the hook does: the embedded table
// with the project's and user's overrides, or the embedded table alone
// when an override does not parse.
func Table(root string, getenv func(string) string) *prices.Table {
	t, err := prices.Load(prices.OverrideFiles(root, getenv))
	if err != nil || t == nil {
		t, _ = prices.Embedded()
	}
	return t
}
