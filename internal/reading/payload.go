package reading

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
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
	// ToolName is the tool of a PreToolUse or PostToolUse call; only
	// ReadPayloadInput reads it.
	ToolName string `json:"tool_name"`
	// ToolInput is the tool's input as raw JSON text; only
	// ReadPayloadInput keeps it. A string, so a Payload stays comparable.
	ToolInput string `json:"tool_input"`
}

// ErrPayload reports stdin that is not one JSON object.
var ErrPayload = errors.New("hook payload is not a JSON object")

// Bounds on a kept field, in bytes of its JSON text (quotes and escapes
// counted). An id or a path past maxField is none Claude Code sends: the
// payload is refused, and the field was never held. The Stop payload's
// last message may be long; past maxMessage it reads as absent, which only
// skips the wait for it. A key past maxKey cannot spell a field we read.
const (
	maxKey     = 256
	maxField   = 16 << 10
	maxMessage = 1 << 20
)

// ParsePayload decodes a hook payload held in memory; see ReadPayload.
func ParsePayload(data []byte) (Payload, error) {
	return ReadPayload(bytes.NewReader(data))
}

// ReadPayload decodes a hook payload from r, read to its end. It keeps
// only the top-level string fields it needs and skips every other value
// without decoding or holding it, so a multi-megabyte tool_response costs
// one pass over its bytes through a small buffer: no allocation that grows
// with the payload, and no garbage for the collector.
func ReadPayload(r io.Reader) (Payload, error) {
	return readPayload(r, false)
}

// ReadPayloadInput is ReadPayload that also keeps tool_input, raw: the
// spend fuse reads a call's input to tell a repeated call and a call that
// would lift it. The input is held whole (a Write's content with it);
// tool_response is still skipped.
func ReadPayloadInput(r io.Reader) (Payload, error) {
	return readPayload(r, true)
}

func readPayload(r io.Reader, keepInput bool) (Payload, error) {
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
		key, ok, long := s.quoted(maxKey)
		if !ok {
			return Payload{}, ErrPayload
		}
		if long {
			key = []byte(`""`)
		}
		// A key written with escapes names the same field as its plain
		// spelling; decode only those, the rare case.
		name := key[1 : len(key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			var k string
			if json.Unmarshal(key, &k) != nil {
				return Payload{}, ErrPayload
			}
			name = []byte(k)
		}
		var dst *string
		var lit any // a field that is a number or a literal, decoded into this
		switch string(name) {
		case "hook_event_name":
			dst = &p.HookEventName
		case "session_id":
			dst = &p.SessionID
		case "transcript_path":
			dst = &p.TranscriptPath
		case "cwd":
			dst = &p.Cwd
		case "agent_id":
			dst = &p.AgentID
		case "tool_use_id":
			dst = &p.ToolUseID
		case "last_assistant_message":
			dst = &p.LastAssistantMessage
		case "prompt":
			dst = &p.Prompt
		case "source":
			dst = &p.Source
		case "seconds_since_last_response":
			lit = &p.SecondsSinceLastResponse
		case "context_tokens":
			lit = &p.ContextTokens
		case "prompt_cache_likely_expired":
			lit = &p.CacheLikelyExpired
		case "tool_name":
			if keepInput {
				dst = &p.ToolName
			}
		case "tool_input":
			if keepInput {
				s.space()
				if !s.byte(':') {
					return Payload{}, ErrPayload
				}
				s.space()
				raw, ok := s.raw()
				if !ok {
					return Payload{}, ErrPayload
				}
				p.ToolInput = string(raw)
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
		s.space()
		if !s.byte(':') {
			return Payload{}, ErrPayload
		}
		s.space()
		if dst == &p.AgentID {
			c, _ := s.peek()
			p.Subagent = c != 'n' // null; anything else is a value
		}
		if dst != nil {
			max, lax := maxField, dst == &p.AgentID
			if dst == &p.LastAssistantMessage {
				max, lax = maxMessage, true
			}
			// tool_name, kept only for the fuse, reads as absent when its
			// string does not decode (a raw control character): the
			// payload reads the same with and without it, as ReadPayload
			// skips such a string unread.
			if !s.field(dst, max, lax, dst == &p.ToolName) {
				return Payload{}, ErrPayload
			}
		} else if lit != nil {
			// A value of another type reads as absent (zero), as for the
			// strings; only a literal is decoded. The last occurrence of a
			// key wins, as in encoding/json.
			resetLiteral(lit)
			if c, ok := s.peek(); ok && c != '"' && c != '{' && c != '[' {
				raw, ok := s.literal()
				if !ok {
					return Payload{}, ErrPayload
				}
				if json.Unmarshal(raw, lit) != nil {
					resetLiteral(lit)
				}
			} else if !s.value() {
				return Payload{}, ErrPayload
			}
		} else if !s.value() {
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

// resetLiteral zeroes a literal field a failed decode may have half set.
func resetLiteral(v any) {
	switch p := v.(type) {
	case *float64:
		*p = 0
	case *int64:
		*p = 0
	case *bool:
		*p = false
	}
}

// plainQuoted returns the text of a JSON string (raw, with its quotes)
// that needs no unquoting: no escape, no control character, valid UTF-8.
// Anything else is left to encoding/json (ok false), whose first decode
// in a process costs more than the rest of the payload's reading.
func plainQuoted(raw []byte) (string, bool) {
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// field reads the value of a field this program keeps into dst. A field
// of another type than string reads as absent, as encoding/json would
// refuse it; only strings are unquoted. A string past max is a bad
// payload, unless lax: then it reads as absent (the last message; an
// agent_id, which counts by being there). A whole string that does not
// decode is a bad payload, unless loose: then it reads as absent.
func (s *scanner) field(dst *string, max int, lax, loose bool) bool {
	*dst = ""
	if c, ok := s.peek(); !ok || c != '"' {
		return s.value()
	}
	raw, ok, long := s.quoted(max)
	if !ok {
		return false
	}
	if long {
		return lax
	}
	if v, ok := plainQuoted(raw); ok {
		*dst = v
		return true
	}
	if json.Unmarshal(raw, dst) != nil {
		*dst = ""
		return loose
	}
	return true
}
