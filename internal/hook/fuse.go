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
// fuse's deny, warning or halt, or silence. armed is called once the fuse
// is found armed (the call's deadline starts there).
func fuseCall(p reading.Payload, armed func(), stdout, stderr io.Writer) int {
	a, err := fuse.Decide(fuse.Call{Event: p.HookEventName, Root: SessionRoot(os.Getenv, p.Cwd), Session: p.SessionID,
		Transcript: p.TranscriptPath, Agent: p.AgentID, ToolName: p.ToolName,
		ToolInput: json.RawMessage(p.ToolInput), Now: time.Now(), Getenv: os.Getenv, Armed: armed})
	if err != nil {
		reportConfig(err, stderr)
		return 0
	}
	if out := fuseOutput(p.HookEventName, a); out != nil {
		stdout.Write(append(out, '\n'))
	}
	return 0
}

// fuseOutput encodes the fuse's answer as Claude Code reads it; nil for
// silence.
func fuseOutput(event string, a fuse.Answer) []byte {
	var o output
	switch {
	case a.Stop != "":
		no := false
		o.Continue, o.StopReason, o.System = &no, a.Stop, a.Stop
	case a.Deny != "":
		o.System = a.System
		o.Specific = &specific{Event: event, Decision: "deny", Reason: a.Deny}
	case a.Context != "" || a.System != "":
		o.System = a.System
		if a.Context != "" {
			o.Specific = &specific{Event: event, Context: a.Context}
		}
	default:
		return nil
	}
	out, _ := json.Marshal(o)
	return out
}
