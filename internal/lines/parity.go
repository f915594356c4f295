package lines

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/ledger"
)

// Own is a session's own orientation as a caller measured it: the phase,
// and whether the session was itself relayed.
type Own struct {
	Phase   ledger.Phase
	Relayed bool
}

// reorient is Reorient, or, without a root but with the session's own
// orientation measured by the caller, that orientation in the same order
// of sources (design §8): this session's own if it was relayed, then —
// the ledger being the project's, which a caller without a root does not
// read — its own as a fresh start's. skipLedger leaves the ledger out.
func (in *Input) reorient(h *forecast.History, rt restart.Rates, skipLedger bool) Reorientation {
	if in.Root == "" && in.Own != nil && in.Own.Phase.Measured() {
		src := orientation.Own
		if in.Own.Relayed {
			src = orientation.OwnRelayed
		}
		return Reorientation{Tokens: in.Own.Phase.ContextTokens, CostUSD: in.Own.Phase.Spend.CostUSD,
			Source: src, Words: orientation.Words(src, 0)}
	}
	return reorientFrom(in.Root, in.SessionID, in.TranscriptPath, h, rt, in.Table, skipLedger)
}
