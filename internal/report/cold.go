package report

import (
	"fmt"
	"time"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// coldTotals says what the cold re-writes cost and what the cold stop
// would have saved, for the totals table.
func coldTotals(t replay.ColdTotals) string {
	if t.Rewrites == 0 && t.Stops == 0 {
		return "none"
	}
	out := fmt.Sprintf("%d re-writes of more than %s tokens in %d sessions, %s", t.Rewrites,
		notice.K(replay.ColdMinRewrite), t.RewriteSessions, notice.USD(t.RewriteUSD))
	if t.MedianIdleSeconds != nil && t.MedianContext != nil {
		out += fmt.Sprintf(" (median idle %s, median context %s)",
			(time.Duration(*t.MedianIdleSeconds) * time.Second).Round(time.Second), notice.K(int64(*t.MedianContext)))
	}
	return out + fmt.Sprintf("; the stop would have held back %d prompts in %d sessions, whose re-writes cost %s, where a fresh session saves %s over the next 100k tokens by the model (%d found the cache warm after all)",
		t.Stops, t.StopSessions, notice.USD(t.StopRewriteUSD), notice.USD(t.SavingUSD), t.FalseStops)
}

// describeCold lists a session's cold events.
func describeCold(s *replay.Session) string {
	out := ""
	for i, e := range s.Cold {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("cold at response %d after %s idle (%s TTL): %s tokens written",
			e.Response, (time.Duration(e.IdleSeconds) * time.Second).String(), e.TTL, notice.K(e.Written))
		if e.RewriteUSD > 0 {
			out += ", " + notice.USD(e.RewriteUSD)
		}
		if e.Stop {
			out += ", stopped: a fresh session saves " + notice.USD(e.SavingUSD)
		}
	}
	return out
}
