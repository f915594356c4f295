package hook

import (
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// subagent decides a subagent's call (design §16): never the session's
// notice, but its own wrap-up notice once per climb when its own context,
// read from its own transcript's tail, is past its line. The line is
// fixed, no pricing: MUTHUR_CONTEXT_BUDGET_SUBAGENT (170,000 by default),
// and never past where its window compacts less the pause's room.
func subagent(p reading.Payload, getenv func(string) string, g *guard) (string, error) {
	if !state.PlainName(p.SessionID) || !state.PlainName(p.AgentID) || p.TranscriptPath == "" {
		return "", nil
	}
	fixed, err := tuning.SubagentFromEnv(getenv)
	if err != nil {
		return "", err
	}
	root := SessionRoot(getenv, p.Cwd)
	if root == "" {
		return "", nil
	}
	path := transcript.SubagentFile(p.TranscriptPath, p.AgentID)
	opt := reading.DefaultOptions(p.ToolUseID)
	opt.Wait, opt.Subagent = min(opt.Wait, time.Until(g.start.Add(recordWait))), true
	r, err := reading.Read(path, opt)
	if err != nil {
		return "", err
	}
	dir := state.Dir(root)
	w := subagentWindow(dir, p.SessionID, r, getenv)
	line, why := fixed, "the default"
	if getenv(tuning.EnvSubagent) != "" {
		why = "set in the environment by " + tuning.EnvSubagent
	}
	if at := w.CompactsAt - w.PauseRoom; at > 0 && at < line {
		line, why = at, "set by "+notice.WindowWords(w)
	}
	bounds := climb.Options{LockDeadline: g.recordDeadline(), Gate: g.beginRecord}
	level, err := climb.AdvanceWith(dir, p.SessionID+"-"+p.AgentID, r.Tokens, climb.LineTokens{Warn: line, Pause: line}, bounds)
	if err != nil || level == climb.None {
		return "", err
	}
	return notice.Subagent(r.Tokens, line, why), nil
}

// subagentWindow is the subagent's window and where it compacts: the
// session's, from its line cache, when the subagent's reading shows the
// same window (it learned where the version compacts from the settings
// and the user's sessions); else the shipped table's for the subagent's
// own window and version.
func subagentWindow(dir, session string, r reading.Reading, getenv func(string) string) window.Window {
	w := window.Detect(window.Evidence{Transcript1M: transcript.Asks1M(r.RequestedModel),
		Peak: r.Tokens, Version: r.Version}, getenv)
	if q, ok := lines.LoadQuick(dir, session); ok && q.Decision.Window.Tokens == w.Tokens && q.Decision.Window.CompactsAt > 0 {
		return q.Decision.Window
	}
	return w
}
