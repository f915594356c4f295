package cli

import (
	"unicode/utf8"
)

// hookJSON is the hook's answer, {"hookSpecificOutput":{"hookEventName":
// event,"additionalContext":text}}, byte for byte what json.Marshal of
// hookOutput gives, written by hand: encoding/json's encoder builds its
// reflection tables for each type on first use, which a call that
// announces paid on top of its work (the call's output is one object).
func hookJSON(event, text string) []byte {
	b := make([]byte, 0, 64+len(event)+len(text)+len(text)/8)
	b = append(b, `{"hookSpecificOutput":{"hookEventName":`...)
	b = appendJSONString(b, event)
	b = append(b, `,"additionalContext":`...)
	b = appendJSONString(b, text)
	return append(b, "}}"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json
// writes one (HTML escaping on): <, > and & as \u003c, \u003e and \u0026;
// U+2028 and U+2029 escaped; invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
