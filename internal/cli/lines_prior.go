package cli

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/state"
)

// keepClimbPrior gives h the prior the hook chose for the session's
// current climb, when its line cache holds one for the same transcript
// and climb (as many boundaries): the hook keeps a climb's prior until the
// next compaction, so that a ledger row written meanwhile does not move
// its lines, and `lines` must show the lines the hook holds.
func keepClimbPrior(h *forecast.History, root, session, path string) {
	if root == "" || !state.PlainName(session) {
		return
	}
	dir := state.Dir(root)
	e, ok := lines.Load(dir, session)
	if !ok || e.Transcript != path {
		return
	}
	saved, ok := lines.SavedHistory(dir, session)
	if !ok || saved.Boundaries != h.Boundaries || saved.Pace.Prior == nil {
		return
	}
	pr := *saved.Pace.Prior
	h.Pace.Prior, h.Pace.PriorFrom = &pr, saved.Pace.PriorFrom
}
