package reading

import (
	"bytes"
	"encoding/json"
)

// refParsePayload is the in-memory scanner ReadPayload replaced, kept as
// the oracle of the differential tests. It reads only the top-level string
// fields it needs and skips every other value without decoding it, so a
// multi-megabyte tool_response costs one pass over its bytes, not a decode.
func refParsePayload(data []byte) (Payload, error) {
	var p Payload
	s := refScanner{data: data}
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
		key, ok := s.str()
		if !ok {
			return Payload{}, ErrPayload
		}
		if len(key)+2 > maxKey {
			key = nil // too long to spell a field: skipped
		}
		// A key written with escapes names the same field as its plain
		// spelling; decode only those, the rare case.
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if json.Unmarshal(data[s.i-len(key)-2:s.i], &k) != nil {
				return Payload{}, ErrPayload
			}
			key = []byte(k)
		}
		s.space()
		if !s.byte(':') {
			return Payload{}, ErrPayload
		}
		s.space()
		var dst *string
		switch string(key) {
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
		}
		start := s.i
		if !s.value() {
			return Payload{}, ErrPayload
		}
		if dst != nil {
			// A field of another type than string reads as absent, as
			// encoding/json would refuse it; only strings are unquoted.
			*dst = ""
			lax := dst == &p.AgentID || dst == &p.LastAssistantMessage
			if dst == &p.AgentID {
				p.Subagent = data[start] != 'n'
			}
			max := maxField
			if dst == &p.LastAssistantMessage {
				max = maxMessage
			}
			if data[start] == '"' && s.i-start > max {
				if !lax {
					return Payload{}, ErrPayload
				}
			} else if data[start] == '"' {
				var v string
				if json.Unmarshal(data[start:s.i], &v) != nil {
					return Payload{}, ErrPayload
				}
				*dst = v
			}
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

// refScanner walks JSON text just far enough to find value boundaries. It
// accepts a superset of JSON inside skipped values (it does not check
// numbers or literals letter by letter); the fields it keeps are decoded by
// encoding/json.
type refScanner struct {
	data []byte
	i    int
}

func (s *refScanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *refScanner) byte(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *refScanner) end() error {
	s.space()
	if s.i != len(s.data) {
		return ErrPayload
	}
	return nil
}

// str skips a string and returns its raw contents (escapes left as they
// are). It jumps from quote to quote, so long strings cost a memchr.
func (s *refScanner) str() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for {
		j := bytes.IndexByte(s.data[s.i:], '"')
		if j < 0 {
			return nil, false
		}
		q := s.i + j
		s.i = q + 1
		k := q - 1
		for k >= start && s.data[k] == '\\' {
			k--
		}
		if (q-1-k)%2 == 0 {
			return s.data[start:q], true
		}
	}
}

func (s *refScanner) value() bool {
	if s.i >= len(s.data) {
		return false
	}
	switch s.data[s.i] {
	case '"':
		_, ok := s.str()
		return ok
	case '{', '[':
		return s.container()
	default:
		start := s.i
		for s.i < len(s.data) {
			switch s.data[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.i > start
			case '"', '{', '[', ':':
				return false
			}
			s.i++
		}
		return s.i > start
	}
}

// container skips an object or array, tracking nesting and strings only.
func (s *refScanner) container() bool {
	var stack []byte
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch c {
		case '"':
			if _, ok := s.str(); !ok {
				return false
			}
			continue
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
	return false
}
