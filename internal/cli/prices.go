package cli

import (
	"errors"
	"path/filepath"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/state"
)

// LoadPrices reads a project's price files over the built-in table
// (override.Load). context-budget-cli sets it. The hook program links
// this package for the hook and the status line, runs no command that
// reads a price file, and leaves it nil so that it does not link the TOML
// library, whose package initialisation would run at every hook call.
var LoadPrices func(root string, getenv func(string) string) (*prices.Table, []string, error)

// errNoPriceReader reports a command run by a program that cannot read
// price files.
var errNoPriceReader = errors.New("this program does not read price files (context-budget-cli does)")

// priceTable loads the price table a project's calls are priced with:
// the built-in table with the user's and the project's files laid over
// it, the warnings a command shows, or an error and the built-in table.
// With refresh, it also leaves the merged table where the hook takes it
// from (priceCache), since the hook reads no TOML.
func priceTable(root string, getenv func(string) string, refresh bool) (*prices.Table, []string, error) {
	if LoadPrices == nil {
		t, _ := prices.Embedded()
		return t, nil, errNoPriceReader
	}
	stamp := prices.Stamp(prices.OverrideFiles(root, getenv))
	t, warnings, err := LoadPrices(root, getenv)
	if err == nil && refresh && root != "" && len(t.Files) > 0 {
		name := priceCache(root)
		if _, ok := prices.ReadCache(name, stamp); !ok && state.Ensure(filepath.Dir(name)) == nil {
			// A cache not written costs the hook the overrides, not a
			// call: it prices with the built-in table.
			_ = prices.WriteCache(name, stamp, t)
		}
	}
	return t, warnings, err
}

// priceCache is the file the hook takes a project's merged price table
// from (prices.ForHook); the fuse reads the same file.
func priceCache(root string) string {
	return filepath.Join(state.Dir(root), prices.CacheName)
}
