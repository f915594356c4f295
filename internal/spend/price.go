package spend

import (
	"slices"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// TablePricer prices each response at its model's and speed's row of t;
// a nil table prices nothing.
func TablePricer(t *prices.Table) Pricer {
	if t == nil {
		t = &prices.Table{}
	}
	return func(model string, u *transcript.Usage) (float64, bool) {
		row, ok := t.Lookup(model, u.Speed)
		if !ok {
			return 0, false
		}
		return row.Cost(u), true
	}
}

// CachedPricer prices as TablePricer over the table a hook call prices
// with (prices.ForHook: the merged table the full program cached in
// cacheFile, else the built-in one), keeping the rows it looked up in the
// tally: reading the table costs more than the rest of a metered call, so
// it is read again only for a model the tally has not priced, or when the
// built-in table's date, an override file or the cache file (its size and
// time) changed.
func (t *Tally) CachedPricer(cacheFile, root string, getenv func(string) string) Pricer {
	files := prices.OverrideFiles(root, getenv)
	key := prices.Stamp(append(slices.Clip(files), cacheFile))
	if t.RatesKey != key {
		t.Rates, t.RatesKey = nil, key
	}
	var tab *prices.Table
	return func(model string, u *transcript.Usage) (float64, bool) {
		k := model + "/" + u.Speed
		row, ok := t.Rates[k]
		if !ok {
			if tab == nil {
				tab = prices.ForHook(cacheFile, files)
			}
			if r, priced := tab.Lookup(model, u.Speed); priced {
				row = &r
			}
			if t.Rates == nil {
				t.Rates = map[string]*prices.Row{}
			}
			t.Rates[k] = row
		}
		if row == nil {
			return 0, false
		}
		return row.Cost(u), true
	}
}
