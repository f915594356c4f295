package reading

import (
	"encoding/json"
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
// by its output limit; past maxInput it reads as absent. A key past maxKey
// cannot spell a field we read.
const (
	maxKey     = 256
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
// that a field of another type reads as absent and a string past its
// bound is refused or absent (see maxField).
func ReadPayload(r io.Reader) (Payload, error) {
	var p Payload
	s := newScanner(r)
	s.space()
	if !s.byte('{') {
		return p, ErrPayload
	}
	s.space()
	if s.byte('}') {
		return p, s.end()
	}
	for {
		s.space()
		key, ok, long := s.kept(maxKey, s.skip)
		if !ok {
			return Payload{}, ErrPayload
		}
		var name string // a key too long to name a field reads as ""
		if !long && json.Unmarshal(key, &name) != nil {
			return Payload{}, ErrPayload
		}
		s.space()
		if !s.byte(':') {
			return Payload{}, ErrPayload
		}
		s.space()
		if !p.field(s, name) {
			return Payload{}, ErrPayload
		}
		s.space()
		if s.byte(',') {
			continue
		}
		if s.byte('}') {
			return p, s.end()
		}
		return Payload{}, ErrPayload
	}
}

// field reads the value of the key name into p, or skips it; false for a
// bad payload. The last occurrence of a key wins, as in encoding/json.
func (p *Payload) field(s *scanner, name string) bool {
	switch name {
	case "hook_event_name":
		return s.str(&p.HookEventName, maxField, false, false)
	case "session_id":
		return s.str(&p.SessionID, maxField, false, false)
	case "transcript_path":
		return s.str(&p.TranscriptPath, maxField, false, false)
	case "cwd":
		return s.str(&p.Cwd, maxField, false, false)
	case "tool_use_id":
		return s.str(&p.ToolUseID, maxField, false, false)
	case "prompt":
		return s.str(&p.Prompt, maxField, false, false)
	case "source":
		return s.str(&p.Source, maxField, false, false)
	case "agent_id":
		c, _ := s.peek()
		p.Subagent = c != 'n' // null; anything else is a value
		return s.str(&p.AgentID, maxField, true, false)
	case "last_assistant_message":
		return s.str(&p.LastAssistantMessage, maxMessage, true, false)
	case "tool_name":
		// A tool name that is too long or does not decode (a raw control
		// character) reads as absent: only the fuse reads it.
		return s.str(&p.ToolName, maxField, true, true)
	case "tool_input":
		raw, ok, long := s.kept(maxInput, s.value)
		p.ToolInput = ""
		if !long {
			p.ToolInput = string(raw)
		}
		return ok
	case "seconds_since_last_response":
		p.SecondsSinceLastResponse = 0
		return s.literal(&p.SecondsSinceLastResponse)
	case "context_tokens":
		p.ContextTokens = 0
		return s.literal(&p.ContextTokens)
	case "prompt_cache_likely_expired":
		p.CacheLikelyExpired = false
		return s.literal(&p.CacheLikelyExpired)
	}
	return s.value()
}

// str reads a string field into dst. A value of another type reads as
// absent, as encoding/json refuses it. A string past max is a bad
// payload, unless lax: then it reads as absent. A string that does not
// decode is a bad payload, unless loose: then it reads as absent.
func (s *scanner) str(dst *string, max int, lax, loose bool) bool {
	*dst = ""
	if c, ok := s.peek(); !ok || c != '"' {
		return s.value()
	}
	raw, ok, long := s.kept(max, s.skip)
	switch {
	case !ok:
		return false
	case long:
		return lax
	}
	if json.Unmarshal(raw, dst) != nil {
		*dst = ""
		return loose
	}
	return true
}

// literal reads a number or a literal (true, false, null) into dst, which
// the caller has zeroed; a value of another type, or one that does not
// decode into dst, leaves it zero.
func (s *scanner) literal(dst any) bool {
	if c, ok := s.peek(); !ok || c == '"' || c == '{' || c == '[' {
		return s.value()
	}
	raw, ok, long := s.kept(maxField, s.value)
	if ok && !long && json.Unmarshal(raw, dst) != nil {
		// A failed decode may have half set it.
		switch v := dst.(type) {
		case *float64:
			*v = 0
		case *int64:
			*v = 0
		}
	}
	return ok
}
