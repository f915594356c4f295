package policy

import (
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/restart"
)

// Sources of the successor's reorientation (design §8), in the order they
// are tried. Only Estimate is implemented here; the ledger fills the rest.
const (
	SourceOwnRelayed    = "own-relayed"
	SourceLedgerRelayed = "ledger-relayed"
	SourceOwn           = "own"
	SourceEstimate      = "estimate"
)

// Reorient returns what a successor of the session would spend to
// re-orient, from the first source that has a figure: the session's own
// orientation if it was relayed, the mean of the ledger's relayed rows
// (under root), the session's own orientation (from its transcript), else
// the estimate of restart.Estimate from the session's first response.
// rt are the session's rates.
func Reorient(root, transcriptPath string, h *history.History, rt restart.Rates) Reorientation {
	w, r := restart.Estimate(rt, h.First.Context, h.First.CacheRead)
	return Reorientation{Tokens: w, CostUSD: r, Source: SourceEstimate,
		Words: "an estimate, no session measured yet"}
}

// ReorientStamp is a cheap fingerprint of what Reorient reads (e.g. the
// ledger's modification time); the line cache recomputes when it
// changes. It runs on every hook call, so it must not read much.
func ReorientStamp(root, transcriptPath string) string {
	return SourceEstimate
}
