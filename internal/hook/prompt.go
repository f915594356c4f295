package hook

import (
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// warmPrompt reports whether a prompt passes without the cold check
// (design §14): the check is off, the call is not a session's, or the
// session's last response is too recent for any cache to have gone cold.
// Any other prompt is the full program's to judge.
func warmPrompt(p reading.Payload, getenv func(string) string, now time.Time) bool {
	if p.AgentID != "" || !state.PlainName(p.SessionID) || p.TranscriptPath == "" || SessionRoot(getenv, p.Cwd) == "" {
		return true
	}
	if cs, err := tuning.ColdFromEnv(getenv); err == nil && cs.Mode == tuning.ColdOff {
		return true
	}
	r, err := reading.Read(p.TranscriptPath, reading.Options{})
	return err == nil && !cold.MayBeCold(r, now)
}
