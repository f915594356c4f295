package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// coldCell is a session's cold column: "2 $1.23 / 1 saves $2.00", or "-".
func coldCell(events []replay.ColdEvent) string {
	var rewrites, stops int
	var cost, saving float64
	for _, e := range events {
		if e.Written > replay.ColdMinRewrite {
			rewrites++
			cost += e.RewriteUSD
		}
		if e.Stop {
			stops++
			saving += e.SavingUSD
		}
	}
	if rewrites == 0 && stops == 0 {
		return "-"
	}
	cell := fmt.Sprintf("%d %s", rewrites, notice.USD(cost))
	if stops > 0 {
		cell += fmt.Sprintf(" / %d saves %s", stops, notice.USD(saving))
	}
	return cell
}

// writeColdTotals is the totals' line on the cold cache.
func writeColdTotals(w io.Writer, t replay.ColdTotals) {
	if t.Rewrites == 0 && t.Stops == 0 {
		fmt.Fprintln(w, "Cold cache: no re-write of a context past 50k after an idle beyond the TTL, and no prompt the stop would have held back.")
		return
	}
	idle, ctx := "-", "-"
	if t.MedianIdleSeconds != nil && t.MedianContext != nil {
		idle = (time.Duration(*t.MedianIdleSeconds) * time.Second).Round(time.Second).String()
		ctx = notice.K(int64(*t.MedianContext))
	}
	printf(w, "Cold cache: %d re-writes of more than %s tokens in %d sessions cost %s (median idle %s, median context %s); the stop would have held back %d prompts in %d sessions (their re-writes %s), where a fresh session saves %s over the next 100k tokens by the model; %d of them found the cache warm after all.\n",
		t.Rewrites, notice.K(replay.ColdMinRewrite), t.RewriteSessions, notice.USD(t.RewriteUSD), idle, ctx,
		t.Stops, t.StopSessions, notice.USD(t.StopRewriteUSD), notice.USD(t.SavingUSD), t.FalseStops)
}
