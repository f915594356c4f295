package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// writeReplayTable prints a replay for a person: a row per session, then
// the totals.
func writeReplayTable(w io.Writer, rep replay.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "SESSION\tPROJECT\tCOST\tRESPONSES\tPEAK\tCOMPACTIONS\tNOTICES\tCARRY-ON PREDICTED/ACTUAL\tCOLD RE-WRITES/STOPS"
	if rep.Fuse != nil {
		head += "\tFUSE"
	}
	fmt.Fprintln(tw, head)
	for _, s := range rep.Sessions {
		notices := noticesCell(s.Notices)
		if s.Error != "" {
			notices += " (error: " + clip(s.Error, 40) + ")"
		}
		carry := "-"
		if len(s.Pauses) > 0 {
			var parts []string
			for _, p := range s.Pauses[:min(len(s.Pauses), shownNotices)] {
				parts = append(parts, usdOrDash(p.PredictedCarryOnUSD)+"/"+usdOrDash(p.ActualCarryOnUSD))
			}
			carry = strings.Join(parts, ", ")
			if more := len(s.Pauses) - shownNotices; more > 0 {
				carry += fmt.Sprintf(" +%d more", more)
			}
		}
		fuseCol := ""
		if s.Fuse != nil {
			fuseCol = "\t" + s.Fuse.Describe()
		}
		printf(tw, "%s\t%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s%s\n", s.SessionID, clip(s.Project, 30), usdOrDash(s.CostUSD),
			s.Responses, notice.K(s.Peak), s.Compactions, notices, carry, coldCell(s.Cold), fuseCol)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := rep.Totals
	printf(w, "\nThese %d sessions cost %s at API rates, subagents included", t.PricedSessions, notice.USD(t.CostUSD))
	if t.ForecastPauses > 0 {
		printf(w, "; by the forecast, relaying at their %d priced pauses would have %s over the next 100k tokens of each", t.ForecastPauses, savedWords(t.ForecastSavingUSD))
	}
	fmt.Fprintln(w, ".")
	if t.CarryOnPoints > 0 {
		printf(w, "Checked: after %d of those pauses the session went on 100k tokens; there, by what carrying on really cost, relaying would have %s (the forecast said %s).\n",
			t.CarryOnPoints, savedWords(t.CheckedSavingUSD), notice.USD(t.CheckedForecastUSD))
	}
	printf(w, "%d sessions (%.1f MB, %d responses), %d notices: %d warnings, %d pauses; %d compacted before any notice",
		t.Sessions, float64(t.Bytes)/1e6, t.Responses, t.Notices, t.Warnings, t.Pauses, t.CompactedBeforeAnyNotice)
	if t.Errors > 0 {
		printf(w, "; %d unreadable", t.Errors)
	}
	fmt.Fprintln(w, ".")
	if r := t.Rooms; r.Auto > 0 {
		printf(w, "Room before the %d automatic compactions: %d with a pause in the climb, %d with less than 20k tokens of room; median %s tokens, %.0f responses.\n",
			r.Auto, r.Paused, r.Short, notice.K(r.MedianTokens), r.MedianResponses)
	}
	if len(t.Cheapest) > 0 {
		printf(w, "Cheapest at the pauses, by the model: %s.\n", cheapestCounts(t.Cheapest))
	}
	writeColdTotals(w, t.Cold)
	if rep.Fuse != nil {
		printf(w, "Fuse: %s.\n", rep.Fuse.Describe())
	}
	if t.Points > 0 {
		printf(w, "The forecast of carrying on 100k tokens, at the %d responses after which a session did: median absolute error %s (requests: %s).\n",
			t.Points, pctOrDash(t.CarryOnMedianAbsError), pctOrDash(t.RequestsMedianAbsError))
		for _, m := range t.CarryOnByModel {
			printf(w, "  %s: median absolute error %.0f%% over %d points.\n", m.Model, 100*m.MedianAbsError, m.Points)
		}
	}
	return nil
}

// savedWords says a saving one way: "saved $0.81", or "cost $0.46 more
// than carrying on".
func savedWords(v float64) string {
	if v < 0 {
		return "cost " + notice.USD(-v) + " more than carrying on"
	}
	return "saved " + notice.USD(v)
}

// cheapestCounts says how many pauses each choice was cheapest at:
// "relaying at 12, letting Claude Code compact at 3, carrying on at 1".
func cheapestCounts(c map[string]int) string {
	var parts []string
	for _, k := range []string{lines.ChoiceRelay, lines.ChoiceCompact, lines.ChoiceCarryOn} {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s at %d", cheapestWords(k), c[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// shownNotices is how many notices a row of the table shows; --json has
// them all.
const shownNotices = 2

// noticesCell is the NOTICES column: the first notices as level@response
// reading, then how many more there are.
func noticesCell(ns []replay.Notice) string {
	if len(ns) == 0 {
		return "-"
	}
	var parts []string
	for _, n := range ns[:min(len(ns), shownNotices)] {
		parts = append(parts, fmt.Sprintf("%s@%d %s", n.Level, n.Response, notice.K(n.Reading)))
	}
	cell := strings.Join(parts, ", ")
	if more := len(ns) - shownNotices; more > 0 {
		cell += fmt.Sprintf(" +%d more", more)
	}
	return cell
}

func usdOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return notice.USD(*v)
}

func pctOrDash(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

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
