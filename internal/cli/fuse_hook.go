package cli

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/reading"
)

// fuseHook answers a PreToolUse, Stop or SubagentStop call: the spend
// fuse's deny, warning or halt, or silence. armed is called once the fuse
// is found armed (the hook's deadline starts there). Like the rest of the
// hook it never fails loudly.
func fuseHook(p reading.Payload, armed func(), stdout, stderr io.Writer) int {
	a, err := fuse.Decide(fuse.Call{Event: p.HookEventName, Root: sessionRoot(os.Getenv, p.Cwd), Session: p.SessionID,
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

// fuseOutput encodes an answer as Claude Code reads it; nil for silence.
func fuseOutput(event string, a fuse.Answer) []byte {
	type specific struct {
		Event    string `json:"hookEventName"`
		Decision string `json:"permissionDecision,omitempty"`
		Reason   string `json:"permissionDecisionReason,omitempty"`
		Context  string `json:"additionalContext,omitempty"`
	}
	type output struct {
		Continue   *bool     `json:"continue,omitempty"`
		StopReason string    `json:"stopReason,omitempty"`
		System     string    `json:"systemMessage,omitempty"`
		Specific   *specific `json:"hookSpecificOutput,omitempty"`
	}
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

// fuseRecordCall is the PostToolUse hook's small step for the loop fuse,
// before the reading: it counts the call in the session's calls file.
// Nothing for any other event; silent on any error.
func fuseRecordCall(p reading.Payload, getenv func(string) string) {
	if p.HookEventName != "" && p.HookEventName != "PostToolUse" {
		return
	}
	s, err := fuse.FromEnv(getenv)
	if err != nil {
		return
	}
	fuse.RecordCall(sessionRoot(getenv, p.Cwd), p.SessionID, p.AgentID, p.ToolName, json.RawMessage(p.ToolInput), s.Loop)
}
