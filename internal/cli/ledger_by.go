package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/ledger"
)

// printBy writes the rows' totals per value of key by (ledger --by): a
// table, or with asJSON one object. A key that is not one of
// ledger.ByKeys is a usage error.
func printBy(stdout, stderr io.Writer, rows []ledger.Row, by string, asJSON bool) int {
	table, err := ledger.TableBy(rows, by)
	if err != nil {
		return usageError(stderr, "ledger", fmt.Errorf("--by: %w", err))
	}
	if asJSON {
		data, err := json.MarshalIndent(table, "", "  ")
		if err != nil {
			return fail(stderr, err, "")
		}
		writeJSON(stdout, data)
		return 0
	}
	writeBy(stdout, table)
	return 0
}

// writeBy writes the table with its totals line.
func writeBy(w io.Writer, t ledger.Table) {
	if len(t.Groups) == 0 {
		fmt.Fprintln(w, "no sessions in the ledger")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(key string, g ledger.Group) {
		printf(tw, "%s\t%d\t%s\t%d\t%d\t%s\n", key, g.Sessions, notice.USD(g.CostUSD), g.Relays, g.Pauses, notice.USD(g.NetUSD))
	}
	fmt.Fprintf(tw, "%s\tsessions\tcost\trelays\tpauses\tnet\n", t.By)
	for _, g := range t.Groups {
		line(orDash(g.Key), g)
	}
	line("total", t.Total)
	tw.Flush()
}
