package cli

import (
	"path/filepath"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/prices/override"
	"github.com/muthur/context-budget/internal/state"
)

// priceTable loads the price table a project's calls are priced with:
// the built-in table with the user's and the project's files laid over
// it, the warnings a command shows, or an error and the built-in table.
// With refresh, it also leaves the merged table where the hook takes it
// from (priceCache), since the hook reads no TOML.
func priceTable(root string, getenv func(string) string, refresh bool) (*prices.Table, []string, error) {
	stamp := prices.Stamp(prices.OverrideFiles(root, getenv))
	t, warnings, err := override.Load(root, getenv)
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
