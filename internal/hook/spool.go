package hook

import (
	"math"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// spoolNotice leaves a notice that fired in the session's spool, for its
// ledger row and the telemetry exporter (package spool): the level, the
// reading, the lines and, when pricing ran (m, the notice's own figures),
// its verdict. A spool that cannot be written costs the row and the
// collector that notice, never the notice itself.
func spoolNotice(root, session string, level climb.Level, reading int64, d lines.Decision, m *lines.Money, now time.Time) {
	n := ledger.Notice{
		Level:   level.String(),
		At:      now.UTC().Format(time.RFC3339),
		Reading: reading,
		Warn:    d.Lines.Warn.Tokens,
		Pause:   d.Lines.Pause.Tokens,
		Model:   d.Model,
	}
	// A figure out of range would cost the whole record its line (JSON
	// has no NaN, and readers refuse it): the notice goes without it.
	if m != nil && ledger.CostOK(math.Abs(m.Verdict.NetUSD)) {
		v := m.Verdict
		n.Verdict = &ledger.Verdict{Choice: v.Choice, Against: v.Against, NetUSD: v.NetUSD, Policy: v.Policy}
	}
	spool.Notice(state.Dir(root), session, n)
}
