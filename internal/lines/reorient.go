package lines

import (
	"path/filepath"
	"strings"

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

// reorient returns what a successor of the session would spend to
// re-orient, from the first source that has a figure (design §8): the
// session's own orientation if it was relayed, the mean of the ledger's
// relayed rows, the session's own orientation, else the prior fitted on
// real sessions (forecast.Shipped.Orientation) from the session's first
// context (its growth at least the session's own so far, up to
// forecast.OrientationGrowth, while it has not acted); skipLedger leaves the ledger out. Without
// a root nothing is read or cached: a caller that measured the session's
// own orientation (replay) gives it, the ledger being the project's;
// else the prior.
func (in *Input) reorient(h *forecast.History, rt restart.Rates, skipLedger bool) Reorientation {
	if in.Root == "" && in.Own != nil && in.Own.Phase.Measured() {
		src := orientation.Own
		if in.Own.Relayed {
			src = orientation.OwnRelayed
		}
		return Reorientation{Tokens: in.Own.Phase.ContextTokens, CostUSD: in.Own.Phase.Spend.CostUSD,
			Source: src, Words: orientation.Words(src, 0)}
	}
	n := forecast.Shipped.Orientations
	prior := func() (int64, float64, int) {
		// A session that has not acted yet is still finding its feet
		// at this reading: it shows that doing so here takes at least
		// the growth it has had, up to the growth after which the
		// forecast counts a session as working whether it acted or not
		// (one that works through the shell may never act).
		k := forecast.Shipped.Orientation
		if !h.Acted {
			k.Growth = max(k.Growth, float64(min(in.Reading-h.First.Context, forecast.OrientationGrowth)))
		}
		w, r := k.Reorientation(rt, h.First.Context)
		return w, r, n
	}
	w, r, _ := prior()
	if in.Root != "" {
		re := orientation.Successor(orientation.SuccessorInputs{
			Root: in.Root, Session: sessionOf(in.SessionID, in.TranscriptPath), Transcript: in.TranscriptPath,
			Table: in.Table, Prior: prior, SkipLedger: skipLedger,
		})
		// Every source is checked where it is read; this is the last
		// guard before the figures reach the lines: a reorientation no
		// session can have falls back to the prior, or to none.
		if inRange(re.Tokens, re.CostUSD) {
			return re
		}
		if !inRange(w, r) {
			w, r = 0, 0
		}
	}
	return Reorientation{Tokens: w, CostUSD: r, Source: orientation.Prior, Count: n, Words: orientation.Words(orientation.Prior, n)}
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
