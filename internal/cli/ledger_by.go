package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/ledger"
)

// byJSON is what ledger --by KEY --json prints: the key and one object
// per value, with the totals of them all.
type byJSON struct {
	By     string         `json:"by"`
	Groups []ledger.Group `json:"groups"`
	Total  ledger.Group   `json:"total"`
}

// printBy writes the rows' totals per value of key by (ledger --by): a
// table, or with asJSON one object. A key that is not one of
// ledger.ByKeys is a usage error.
func printBy(stdout, stderr io.Writer, rows []ledger.Row, by string, asJSON bool) int {
	groups, err := ledger.By(rows, by)
	if err != nil {
		return usageError(stderr, "ledger", fmt.Errorf("--by: %w", err))
	}
	if asJSON {
		if groups == nil {
			groups = []ledger.Group{}
		}
		data, err := json.MarshalIndent(byJSON{By: by, Groups: groups, Total: ledger.Sum(groups)}, "", "  ")
		if err != nil {
			return fail(stderr, err, "")
		}
		writeJSON(stdout, data)
		return 0
	}
	writeBy(stdout, by, groups)
	return 0
}

// writeBy writes the groups as a table with a totals line.
func writeBy(w io.Writer, by string, groups []ledger.Group) {
	if len(groups) == 0 {
		fmt.Fprintln(w, "no sessions in the ledger")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(key string, g ledger.Group) {
		printf(tw, "%s\t%d\t%s\t%d\t%d\t%s\n", key, g.Sessions, notice.USD(g.CostUSD), g.Relays, g.Pauses, notice.USD(g.NetUSD))
	}
	fmt.Fprintf(tw, "%s\tsessions\tcost\trelays\tpauses\tnet\n", by)
	for _, g := range groups {
		line(orDash(g.Key), g)
	}
	line("total", ledger.Sum(groups))
	tw.Flush()
}
