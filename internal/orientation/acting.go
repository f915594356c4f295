package orientation

import "github.com/muthur/context-budget/internal/transcript"

// The acting rule of design §8, written once for the phases (phase.go),
// the scan that stops at the first act (scan.go) and the incremental
// search (progress.go); the tools are transcript's. What it leaves to
// its callers is the one rule that needs what follows a response: an
// own response with no stop_reason acts when an operator prompt follows
// it (or it is the finished session's last).

// editInside returns the first call that writes a file inside root and
// not under tmp/, with that file relative to root: a subagent's act, and
// the first kind of a main response's.
func editInside(root string, calls []transcript.ToolUse) (tool, rel string, ok bool) {
	for _, c := range calls {
		if !c.Edits() {
			continue
		}
		if rel, ok := Inside(root, c.Path); ok {
			return c.Name, rel, true
		}
	}
	return "", "", false
}

// ownAct reports whether one of the session's own responses acts by what
// it holds, and how: an edit inside root, then a question to the operator
// or the end of plan mode, then the end of the turn.
func ownAct(root, stopReason string, calls []transcript.ToolUse) (by, on string, ok bool) {
	if by, on, ok := editInside(root, calls); ok {
		return by, on, true
	}
	for _, c := range calls {
		if c.Asks() {
			return c.Name, "", true
		}
	}
	if stopReason == transcript.EndTurn {
		return transcript.EndTurn, "", true
	}
	return "", "", false
}
