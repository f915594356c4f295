package cli

import (
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/fuse"
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
		// A cache not written costs the hook the overrides, not a call:
		// it prices with the built-in table. The fuse keeps its own copy
		// in its folder, out of the agent's tree, so that no file the
		// agent can write sets what a response costs against a cap.
		for _, dir := range []string{state.Dir(root), fuse.Dir(getenv, root)} {
			name := filepath.Join(dir, prices.CacheName)
			if _, ok := prices.ReadCache(name, stamp); !ok && dir != "" && ensureFor(dir, root) == nil {
				_ = prices.WriteCache(name, stamp, t)
			}
		}
	}
	return t, warnings, err
}

// ensureFor makes a folder a price cache goes in: the project's state
// folder as state makes it, the fuse's private to the user.
func ensureFor(dir, root string) error {
	if dir == state.Dir(root) {
		return state.Ensure(dir)
	}
	return os.MkdirAll(dir, 0o700)
}
