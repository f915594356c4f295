package reading

import (
	"errors"
	"io"
)

// Payload is the part of a Claude Code hook's stdin this program reads.
// Every field is optional.
type Payload struct {
	HookEventName  string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	AgentID        string `json:"agent_id"`
	// Subagent reports an agent_id of any value but null: a string, empty
	// or not, a number, a boolean, an object. A guard that read only
	// strings would fail open on the others, and the notice is for the
	// session that holds the plan (design §2).
	Subagent  bool   `json:"-"`
	ToolUseID string `json:"tool_use_id"`
	// LastAssistantMessage is a Stop payload's final text of the turn.
	LastAssistantMessage string `json:"last_assistant_message"`
	// Prompt is a UserPromptSubmit payload's text.
	Prompt string `json:"prompt"`
	// Source is a SessionStart payload's cause: startup, resume, clear,
	// compact or fork.
	Source string `json:"source"`
	// The cache figures Claude Code 2.1.332 adds to a resumed or forked
	// SessionStart (measured with the real CLI): seconds since the
	// session's last response, its context in tokens, and whether it
	// thinks the prompt cache expired. Absent, they read as zero.
	SecondsSinceLastResponse float64 `json:"seconds_since_last_response"`
	ContextTokens            int64   `json:"context_tokens"`
	CacheLikelyExpired       bool    `json:"prompt_cache_likely_expired"`
	// ToolName is the tool of a PreToolUse or PostToolUse call.
	ToolName string `json:"tool_name"`
	// ToolInput is the tool's input as raw JSON text, up to maxInput
	// bytes. A string, so a Payload stays comparable.
	ToolInput string `json:"tool_input"`
}

// ErrPayload reports stdin that is not one JSON object.
var ErrPayload = errors.New("hook payload is not a JSON object")

// Bounds on a kept value, in bytes of its JSON text (quotes and escapes
// counted). An id or a path past maxField is none Claude Code sends: the
// payload is refused, and the field was never held. The Stop payload's
// last message may be long; past maxMessage it reads as absent, which only
// skips the wait for it. A tool's input is what the model wrote, bounded
// by its output limit; past maxInput it reads as absent. maxField is also
// a Field's bound when it names none.
const (
	maxField   = 16 << 10
	maxMessage = 1 << 20
	maxInput   = 1 << 20
)

// ReadPayload decodes a hook payload from r, read to its end. It keeps the
// fields of Payload and skips every other value without decoding or
// holding it, so a multi-megabyte tool_response costs one pass over its
// bytes through a small window: memory does not grow with the payload.
//
// It reads as encoding/json would read the payload into Payload, except
// that keys match exactly, a field of another type reads as absent and a
// string past its bound is refused or absent (see maxField).
func ReadPayload(r io.Reader) (Payload, error) {
	var p Payload
	var input []byte
	var agent Got
	err := NewPick(
		Field{Path: "hook_event_name", To: &p.HookEventName},
		Field{Path: "session_id", To: &p.SessionID},
		Field{Path: "transcript_path", To: &p.TranscriptPath},
		Field{Path: "cwd", To: &p.Cwd},
		Field{Path: "tool_use_id", To: &p.ToolUseID},
		Field{Path: "prompt", To: &p.Prompt},
		Field{Path: "source", To: &p.Source},
		Field{Path: "agent_id", To: &p.AgentID, Lax: true, Got: &agent},
		Field{Path: "last_assistant_message", To: &p.LastAssistantMessage, Max: maxMessage, Lax: true},
		Field{Path: "tool_name", To: &p.ToolName, Lax: true},
		Field{Path: "tool_input", To: &input, Max: maxInput, Lax: true},
		Field{Path: "seconds_since_last_response", To: &p.SecondsSinceLastResponse, Lax: true},
		Field{Path: "context_tokens", To: &p.ContextTokens, Lax: true},
		Field{Path: "prompt_cache_likely_expired", To: &p.CacheLikelyExpired},
	).Stream(r)
	if err != nil {
		return Payload{}, ErrPayload
	}
	p.Subagent = agent != Absent && agent != Null
	p.ToolInput = string(input)
	return p, nil
}
