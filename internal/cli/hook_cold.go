package cli

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// coldCall is the cold-cache check's view of a hook call (design §14), or
// ok false when the call is not one to look at: a subagent's, an id that
// is no plain name, no transcript or no root.
func coldCall(p reading.Payload) (c cold.Call, ok bool) {
	if p.AgentID != "" || !state.PlainName(p.SessionID) || p.TranscriptPath == "" {
		return c, false
	}
	root := sessionRoot(os.Getenv, p.Cwd)
	if root == "" {
		return c, false
	}
	return cold.Call{Payload: p, Root: root, Getenv: os.Getenv, Now: time.Now()}, true
}

// promptHook is the UserPromptSubmit hook: a prompt sent to a cold cache
// is stopped with the figures when a fresh session pays, or carries them
// to the model under MUTHUR_CONTEXT_BUDGET_COLD=warn.
func promptHook(p reading.Payload, stdout, stderr io.Writer) int {
	c, ok := coldCall(p)
	if !ok {
		return 0
	}
	o, err := cold.OnPrompt(c)
	reportConfig(err, stderr)
	var out []byte
	switch {
	case o.Block:
		out, _ = json.Marshal(struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{"block", o.Reason})
	case o.Context != "":
		out, _ = json.Marshal(hookOutput{Specific: hookSpecific{Event: "UserPromptSubmit", Context: o.Context}})
	default:
		return 0
	}
	stdout.Write(append(out, '\n'))
	return 0
}

// startHook is the SessionStart hook: a resumed or forked session keeps
// what Claude Code says about its cache for the first prompt.
func startHook(p reading.Payload, stderr io.Writer) int {
	if c, ok := coldCall(p); ok {
		reportConfig(cold.OnStart(c), stderr)
	}
	return 0
}
