package lines

import (
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/ledger"
)

// Sources of the successor's reorientation (design §8), in the order they
// are tried (package orientation measures them).
const (
	SourceOwnRelayed    = orientation.OwnRelayed
	SourceLedgerRelayed = orientation.LedgerRelayed
	SourceOwn           = orientation.Own
	SourceEstimate      = orientation.Estimate
)

// Reorient returns what a successor of the session would spend to
// re-orient, from the first source that has a figure: the session's own
// orientation if it was relayed, the mean of the ledger's relayed rows
// (under root), the session's own orientation (from its transcript), else
// the estimate of restart.Estimate from the session's first response.
// rt are the session's rates; table prices the session's own orientation.
// Without a root nothing is read or cached: the estimate.
func Reorient(root, session, transcriptPath string, h *forecast.History, rt restart.Rates, table *prices.Table) Reorientation {
	return reorientFrom(root, session, transcriptPath, h, rt, table, false)
}

// reorientFrom is Reorient, leaving the ledger out when skipLedger is set.
func reorientFrom(root, session, transcriptPath string, h *forecast.History, rt restart.Rates, table *prices.Table, skipLedger bool) Reorientation {
	estimate := func() (int64, float64) { return restart.Estimate(rt, h.First.Context, h.First.CacheRead) }
	if root == "" {
		w, r := estimate()
		return Reorientation{Tokens: w, CostUSD: r, Source: SourceEstimate, Words: orientation.Words(orientation.Estimate, 0)}
	}
	re := orientation.Successor(orientation.SuccessorInputs{
		Root: root, Session: sessionOf(session, transcriptPath), Transcript: transcriptPath,
		Table: table, Estimate: estimate, SkipLedger: skipLedger,
	})
	if !inRange(re.Tokens, re.CostUSD) {
		// Every source is checked where it is read; this is the last
		// guard before the figures reach the lines: a reorientation no
		// session can have falls back to the estimate.
		w, r := estimate()
		if !inRange(w, r) {
			w, r = 0, 0
		}
		return Reorientation{Tokens: w, CostUSD: r, Source: SourceEstimate, Words: orientation.Words(orientation.Estimate, 0)}
	}
	return re
}

// inRange reports whether a reorientation of w tokens and r dollars is one
// a session can have (ledger's bounds).
func inRange(w int64, r float64) bool {
	return w >= 0 && w <= ledger.MaxContextTokens && ledger.CostOK(r)
}

// sessionOf is the session's id: given, else the transcript's file name
// (Claude Code names it <session_id>.jsonl).
func sessionOf(session, transcriptPath string) string {
	if session != "" {
		return session
	}
	return strings.TrimSuffix(filepath.Base(transcriptPath), ".jsonl")
}
