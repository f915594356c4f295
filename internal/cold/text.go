package cold

import (
	"fmt"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/notice"
)

// Idle shows an idle time the way a person says it: "14m", "3h05m",
// "2d".
func Idle(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// ttlWords names a TTL in a sentence.
func ttlWords(ttl string) string {
	if ttl == "1h" {
		return "1-hour"
	}
	return "5-minute"
}

// opening is the first sentence of every cold message.
func opening(f Figures) string {
	return fmt.Sprintf("Context budget: this session has been idle for %s, past its %s prompt cache, so its next request first re-writes its ~%s tokens of context to the cache: about %s before any work.",
		Idle(f.Idle), ttlWords(f.TTL), notice.K(f.Context), notice.USD(f.RecacheUSD))
}

// fresh is the sentence on what a fresh session costs instead.
func fresh(f Figures) string {
	verb, saving := "saves", f.SavingUSD
	if saving < 0 {
		verb, saving = "costs", -saving
	}
	return fmt.Sprintf("A fresh session from the branch skips that re-write: it re-orients for about %s (%s) and %s about %s over the next 100k tokens of work (%s for it all, against %s carrying on here).",
		notice.USD(f.Reorientation.CostUSD), f.Reorientation.Words, verb, notice.USD(saving),
		notice.USD(f.FreshUSD), notice.USD(f.CarryOnUSD))
}

// Reason is what the user reads when the prompt is stopped: the idle
// time, the re-write, the fresh session, and how to choose. The fresh
// start is offered only when the work is committed on a branch, as the
// fresh session picks it up from there.
func Reason(f Figures, w Work) string {
	var b strings.Builder
	b.WriteString(opening(f))
	b.WriteString(" ")
	b.WriteString(fresh(f))
	b.WriteString("\n\nThe prompt was not sent, and cost nothing. To carry on here, send the same prompt again.")
	switch {
	case w.Known && w.Committed && w.Branch != "":
		fmt.Fprintf(&b, " To start fresh instead: /clear, then /relay take %s — the work is committed on %s, and the fresh session picks it up from the paused plan, the branch's recent commits and the latest hand-over summary, if any. (A /relay from here would pay the same re-write.)", w.Branch, w.Branch)
	case !w.Known:
		b.WriteString(" A fresh start is not offered: git cannot say whether the work is committed, and a fresh session would pick up only what is.")
	case w.Branch == "":
		b.WriteString(" A fresh start is not offered: no branch is checked out for a fresh session to pick the work up from.")
	default:
		b.WriteString(" A fresh start is not offered: the working tree has uncommitted changes, which a fresh session would not see.")
	}
	return b.String()
}

// Context is what the model reads under MUTHUR_CONTEXT_BUDGET_COLD=warn:
// the same figures, as facts, and the prompt goes through.
func Context(f Figures) string {
	return opening(f) + " " + fresh(f) + " The prompt was let through (MUTHUR_CONTEXT_BUDGET_COLD=warn). Give the operator these figures in your report."
}

// Status is the status line's mark of a cold cache: "cold 14m · re-write
// $1.90", or without the dollars when the session is not priced.
func Status(f Figures, priced bool) string {
	if !priced {
		return "cold " + Idle(f.Idle)
	}
	return "cold " + Idle(f.Idle) + " · re-write " + notice.USD(f.RecacheUSD)
}
