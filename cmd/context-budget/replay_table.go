package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// writeReplayTable prints a replay for a person: a row per session, then
// the totals.
func writeReplayTable(w io.Writer, rep replay.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tRESPONSES\tPEAK\tCOMPACTIONS\tNOTICES\tCARRY-ON PREDICTED/ACTUAL")
	for _, s := range rep.Sessions {
		notices := "-"
		if len(s.Notices) > 0 {
			var parts []string
			for _, n := range s.Notices {
				parts = append(parts, fmt.Sprintf("%s@%d %s", n.Level, n.Response, notice.K(n.Reading)))
			}
			notices = strings.Join(parts, ", ")
		}
		if s.Error != "" {
			notices += " (error: " + s.Error + ")"
		}
		carry := "-"
		if len(s.Pauses) > 0 {
			var parts []string
			for _, p := range s.Pauses {
				parts = append(parts, usdOrDash(p.PredictedCarryOnUSD)+"/"+usdOrDash(p.ActualCarryOnUSD))
			}
			carry = strings.Join(parts, ", ")
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\n", s.SessionID, s.Responses, notice.K(s.Peak),
			s.Compactions, notices, carry)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	t := rep.Totals
	fmt.Fprintf(w, "\n%d sessions (%.1f MB, %d responses), %d notices: %d warnings, %d pauses; %d compacted before any notice",
		t.Sessions, float64(t.Bytes)/1e6, t.Responses, t.Notices, t.Warnings, t.Pauses, t.CompactedBeforeAnyNotice)
	if t.Errors > 0 {
		fmt.Fprintf(w, "; %d unreadable", t.Errors)
	}
	fmt.Fprintln(w, ".")
	fmt.Fprintf(w, "Lines: warn %s (%s), pause %s (%s).\n", notice.K(rep.Lines.Warn.Tokens), rep.Lines.Warn.SetBy,
		notice.K(rep.Lines.Pause.Tokens), rep.Lines.Pause.SetBy)
	if t.CarryOnPoints > 0 {
		fmt.Fprintf(w, "Carrying on after the pauses: predicted %s, actual %s over %d pauses; median absolute error %s.\n",
			usdOrDash(t.PredictedCarryOnUSD), usdOrDash(t.ActualCarryOnUSD), t.CarryOnPoints, pctOrDash(t.PauseCarryOnMedianAbsError))
	} else {
		fmt.Fprintln(w, "Carrying on after the pauses: no pause has both a prediction and an actual cost to judge it by.")
	}
	if t.Points > 0 {
		fmt.Fprintf(w, "The forecast of carrying on 100k tokens, at the %d responses after which a session did: median absolute error %s (requests: %s).\n",
			t.Points, pctOrDash(t.CarryOnMedianAbsError), pctOrDash(t.RequestsMedianAbsError))
		for _, m := range t.CarryOnByModel {
			fmt.Fprintf(w, "  %s: median absolute error %.0f%% over %d points.\n", m.Model, 100*m.MedianAbsError, m.Points)
		}
	}
	return nil
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
