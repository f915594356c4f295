package chain

import (
	"slices"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// The variables by which a session learns the chain's id and its place in
// it (1 for the first): the Stop hook writes them into the session's row,
// and the relay skill reads the first to leave the successor to the
// runner.
const (
	EnvChain = "CONTEXT_BUDGET_CHAIN"
	EnvPlace = "CONTEXT_BUDGET_CHAIN_PLACE"
)

// Markers are the variables Claude Code sets in the environment of what
// it starts (pinned by the end-to-end suite's TestChainMarkersMeasured)
// that tell a program it runs inside a session, and which. A session
// started with them may take itself for that session's child, so the
// runner removes exactly these and keeps every other variable.
var Markers = []string{
	"AI_AGENT",
	"CLAUDECODE",
	"CLAUDE_CODE_CHILD_NOTES_DIR",
	"CLAUDE_CODE_CHILD_SESSION",
	"CLAUDE_CODE_ENTRYPOINT",
	"CLAUDE_CODE_EXECPATH",
	"CLAUDE_CODE_MESSAGING_SOCKET",
	"CLAUDE_CODE_MESSAGING_TOKEN",
	"CLAUDE_CODE_SESSION_ATTENDED",
	"CLAUDE_CODE_SESSION_ID",
	"CLAUDE_EFFORT",
	"CLAUDE_PID",
}

// Clean returns environ without Claude Code's markers of a parent session
// and without the chain's own variables (the runner sets them anew for
// each session), keeping every other entry in its order.
func Clean(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(Markers, name) || name == EnvChain || name == EnvPlace {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// FromEnv reads the chain's variables as a session's hooks see them: ok
// is false outside a chain, or when either does not read (an id that is
// not a plain name of at most ledger.MaxChain bytes, a place that is not
// a whole number from 1 to ledger.MaxPlace).
func FromEnv(getenv func(string) string) (id string, place int, ok bool) {
	id = strings.TrimSpace(getenv(EnvChain))
	if len(id) > ledger.MaxChain || !state.PlainName(id) {
		return "", 0, false
	}
	place, err := strconv.Atoi(strings.TrimSpace(getenv(EnvPlace)))
	if err != nil || place < 1 || place > ledger.MaxPlace {
		return "", 0, false
	}
	return id, place, true
}
