package hook

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/reading"
)

// fuseCall answers a PreToolUse, Stop or SubagentStop call: the spend
// fuse's deny, warning or halt, or silence. The call's deadline starts
// once the fuse is found armed, and then answers with the fuse's deny
// should the fuse not have decided by it: armed, the fuse fails closed.
func fuseCall(p reading.Payload, g *guard, stderr io.Writer) int {
	a, err := fuse.Decide(fuse.Call{Event: p.HookEventName, Root: SessionRoot(os.Getenv, p.Cwd), Cwd: p.Cwd,
		Session: p.SessionID, Transcript: p.TranscriptPath, Agent: p.AgentID, ToolName: p.ToolName,
		ToolInput: json.RawMessage(p.ToolInput), ToolUseID: p.ToolUseID, Now: time.Now(), Getenv: os.Getenv,
		Armed: func(late func() fuse.Answer) {
			g.begin()
			g.lateWith(func() []byte { return fuseOutput(p.HookEventName, late()) })
		},
		Record: g.beginRecord})
	if err != nil {
		reportConfig(err, stderr)
		g.answer(nil)
		return 0
	}
	g.answer(fuseOutput(p.HookEventName, a))
	return 0
}

// fuseOutput encodes the fuse's answer as Claude Code reads it, with its
// newline; nil for silence. A deny that ends the turn carries both the
// PreToolUse deny, which the model reads, and continue: false with the
// stop reason, which the user reads.
func fuseOutput(event string, a fuse.Answer) []byte {
	var o output
	switch {
	case a.Stop != "" || a.Deny != "":
		o.System = a.System
		if a.Stop != "" {
			no := false
			o.Continue, o.StopReason = &no, a.Stop
		}
		if a.Deny != "" {
			o.Specific = &specific{Event: event, Decision: "deny", Reason: a.Deny}
		}
	case a.Context != "" || a.System != "":
		o.System = a.System
		if a.Context != "" {
			o.Specific = &specific{Event: event, Context: a.Context}
		}
	default:
		return nil
	}
	out, _ := json.Marshal(o)
	return append(out, '\n')
}
