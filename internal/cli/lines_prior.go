package cli

import (
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/state"
)

// keepClimbPrior gives h the prior the hook chose for the session's
// current climb, when its line cache holds one for the same transcript
// and climb (as many boundaries): the hook keeps a climb's prior until the
// next compaction, so that a ledger row written meanwhile does not move
// its lines, and `lines` must show the lines the hook holds.
func keepClimbPrior(h *history.History, root, session, path string) {
	if root == "" || !state.PlainName(session) {
		return
	}
	e, ok := lines.Load(lines.FileName(state.Dir(root), session))
	if !ok || e.Transcript != path || e.History.Boundaries != h.Boundaries || e.History.Pace.Prior == nil {
		return
	}
	pr := *e.History.Pace.Prior
	h.Pace.Prior, h.Pace.PriorFrom = &pr, e.History.Pace.PriorFrom
}
