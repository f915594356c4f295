package hook

import (
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// spoolNotice leaves a notice that fired in the session's spool, for its
// ledger row and the telemetry exporter (package spool). A spool that
// cannot be written costs the row and the collector that notice, never
// the notice itself.
func spoolNotice(root, session string, level climb.Level, reading int64, d lines.Decision, now time.Time) {
	spool.Notice(state.Dir(root), session, ledger.Notice{
		Level:   level.String(),
		At:      now.UTC().Format(time.RFC3339),
		Reading: reading,
		Warn:    d.Lines.Warn.Tokens,
		Pause:   d.Lines.Pause.Tokens,
		Model:   d.Model,
	})
}
