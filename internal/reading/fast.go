package reading

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/muthur/context-budget/internal/transcript"
)

// fastRecord reads the few fields of a transcript line that the tail scan
// needs without encoding/json's reflection: in a fresh process, the first
// decode of the record types costs page faults and a fifth of a
// millisecond, on every hook and status line call. It handles the plain
// case only — one valid JSON object whose fields of interest have their
// expected types, plain strings (no escapes) and integer counts, each key
// once and spelt exactly — and reports ok false for anything else, which
// the caller hands to transcript.Decode: the answer is the same either
// way (TestFastRecordAgrees checks it on every line of the real
// transcripts and a fuzzer on the rest).
//
// resp reports whether the line is a response (transcript's IsResponse);
// then r and content are its reading and its message's content.
func fastRecord(line []byte) (r Reading, content []byte, resp, ok bool) {
	r, content, side, resp, ok := fastResponse(line)
	return r, content, resp && !side, ok
}

// FastResponse is the fast path for a reader that counts every response,
// sidechains included (the spend tally): ok false hands the line to
// transcript.Decode, which gives the same answer the slow way. When resp
// is true, rec is the response with the fields its accounting reads: the
// type, isSidechain, timestamp, version, requestedModel and the
// message's id, model and usage (not its content).
func FastResponse(line []byte) (rec transcript.Record, resp, ok bool) {
	r, _, side, resp, ok := fastResponse(line)
	if !ok || !resp {
		return transcript.Record{}, false, ok
	}
	u := r.Usage
	return transcript.Record{Type: "assistant", IsSidechain: side, Timestamp: r.Time, Version: r.Version,
		RequestedModel: r.RequestedModel, Message: &transcript.Message{ID: r.MessageID, Model: r.Model, Usage: &u}}, true, true
}

// fastResponse is fastRecord for responses of any chain: side reports a
// sidechain's.
func fastResponse(line []byte) (r Reading, content []byte, side, resp, ok bool) {
	t := bytes.TrimLeft(line, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !json.Valid(line) {
		return Reading{}, nil, false, false, false
	}
	var (
		typ, requested     string
		version, stamp     string
		seenVer, seenStamp bool
		msg                []byte
		seenType, seenSide bool
		seenReq, seenMsg   bool
	)
	ok = eachField(t, func(key string, v []byte) bool {
		switch key {
		case "type":
			if seenType {
				return false
			}
			seenType = true
			s, isNull, good := plainString(v)
			if !good {
				return false
			}
			if !isNull {
				typ = s
			}
		case "isSidechain":
			if seenSide {
				return false
			}
			seenSide = true
			switch string(v) {
			case "true":
				side = true
			case "false", "null":
			default:
				return false
			}
		case "requestedModel":
			if seenReq {
				return false
			}
			seenReq = true
			s, isNull, good := plainString(v)
			if !good {
				return false
			}
			if !isNull {
				requested = s
			}
		case "version", "timestamp":
			if key == "version" && seenVer || key == "timestamp" && seenStamp {
				return false
			}
			str, isNull, good := plainString(v)
			if !good {
				return false
			}
			if key == "version" {
				seenVer = true
				if !isNull {
					version = str
				}
			} else {
				seenStamp = true
				if !isNull {
					stamp = str
				}
			}
		case "message":
			if seenMsg {
				return false
			}
			seenMsg = true
			if string(v) == "null" {
				return true
			}
			if v[0] != '{' {
				return false
			}
			msg = v
		default:
			return !foldsTo(key, "type", "isSidechain", "requestedModel", "version", "timestamp", "message")
		}
		return true
	})
	if !ok {
		return Reading{}, nil, false, false, false
	}
	if typ != "assistant" || msg == nil {
		return Reading{}, nil, side, false, true
	}
	var (
		id, model                string
		usage                    []byte
		seenID, seenModel, seenU bool
		seenContent              bool
	)
	ok = eachField(msg, func(key string, v []byte) bool {
		switch key {
		case "id", "model":
			if key == "id" && seenID || key == "model" && seenModel {
				return false
			}
			s, isNull, good := plainString(v)
			if !good {
				return false
			}
			if key == "id" {
				seenID = true
				if !isNull {
					id = s
				}
			} else {
				seenModel = true
				if !isNull {
					model = s
				}
			}
		case "usage":
			if seenU {
				return false
			}
			seenU = true
			if string(v) == "null" {
				return true
			}
			if v[0] != '{' {
				return false
			}
			usage = v
		case "content":
			if seenContent {
				return false
			}
			seenContent = true
			if string(v) != "null" {
				content = v
			}
		default:
			return !foldsTo(key, "id", "model", "usage", "content")
		}
		return true
	})
	if !ok {
		return Reading{}, nil, false, false, false
	}
	if usage == nil || model == transcript.Synthetic {
		return Reading{}, nil, side, false, true
	}
	u, ok := fastUsage(usage)
	if !ok {
		return Reading{}, nil, false, false, false
	}
	return Reading{Tokens: u.Context(), Model: model, RequestedModel: requested, Version: version, MessageID: id,
		Usage: u, Time: stamp}, content, side, true, true
}

// fastUsage reads a usage object; ok false for anything but plain
// integers, plain strings and a plain cache_creation object.
func fastUsage(v []byte) (u transcript.Usage, ok bool) {
	seen := map[string]bool{}
	ok = eachField(v, func(key string, v []byte) bool {
		if seen[key] {
			return false
		}
		seen[key] = true
		switch key {
		case "input_tokens":
			return plainInt(v, &u.InputTokens)
		case "cache_creation_input_tokens":
			return plainInt(v, &u.CacheCreationInputTokens)
		case "cache_read_input_tokens":
			return plainInt(v, &u.CacheReadInputTokens)
		case "output_tokens":
			return plainInt(v, &u.OutputTokens)
		case "speed":
			s, isNull, good := plainString(v)
			if !good {
				return false
			}
			if !isNull {
				u.Speed = s
			}
			return true
		case "cache_creation":
			if string(v) == "null" {
				return true
			}
			if v[0] != '{' {
				return false
			}
			var cc transcript.CacheCreation
			seenCC := map[string]bool{}
			good := eachField(v, func(key string, v []byte) bool {
				if seenCC[key] {
					return false
				}
				seenCC[key] = true
				switch key {
				case "ephemeral_5m_input_tokens":
					return plainInt(v, &cc.Ephemeral5m)
				case "ephemeral_1h_input_tokens":
					return plainInt(v, &cc.Ephemeral1h)
				}
				return !foldsTo(key, "ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens")
			})
			u.CacheCreation = &cc
			return good
		}
		return !foldsTo(key, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens", "speed", "cache_creation")
	})
	return u, ok
}

// foldsTo reports whether key matches one of names the way encoding/json
// matches keys (case-insensitively) without being spelt exactly as it:
// such a key would set the field, so the fast path gives up.
func foldsTo(key string, names ...string) bool {
	for _, n := range names {
		if len(key) == len(n) && key != n && bytes.EqualFold([]byte(key), []byte(n)) {
			return true
		}
	}
	// encoding/json also folds the Kelvin sign and the long s onto k and
	// s: a key with any byte outside ASCII is left to it.
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			return true
		}
	}
	return false
}

// plainInt parses a JSON integer (or null, which leaves *n) into *n.
func plainInt(v []byte, n *int64) bool {
	if string(v) == "null" {
		return true
	}
	for i, c := range v {
		if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
			return false
		}
	}
	x, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return false
	}
	*n = x
	return true
}

// plainString reads a JSON string without escapes, or null.
func plainString(v []byte) (s string, isNull, ok bool) {
	if string(v) == "null" {
		return "", true, true
	}
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || bytes.IndexByte(v[1:len(v)-1], '\\') >= 0 || !utf8.Valid(v) {
		// Escapes, and invalid UTF-8 (encoding/json replaces it), are
		// left to encoding/json.
		return "", false, false
	}
	return string(v[1 : len(v)-1]), false, true
}

// eachField calls fn with each key (unescaped keys only) and raw value of
// the JSON object obj, which must be valid JSON; false if fn says so or a
// key holds an escape.
func eachField(obj []byte, fn func(key string, v []byte) bool) bool {
	i := skipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for i < len(obj) {
		i = skipSpace(obj, i)
		end := skipString(obj, i)
		key := obj[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // the colon
		vend := skipValue(obj, i)
		if !fn(string(key), obj[i:vend]) {
			return false
		}
		i = skipSpace(obj, vend)
		if i >= len(obj) || obj[i] == '}' {
			return true
		}
		i++ // the comma
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i].
func skipString(b []byte, i int) int {
	i++
	for i < len(b) {
		j := bytes.IndexAny(b[i:], "\"\\")
		if j < 0 {
			return len(b)
		}
		i += j
		if b[i] == '\\' {
			i += 2
			continue
		}
		return i + 1
	}
	return len(b)
}

// skipValue returns the index after the value starting at b[i] (valid
// JSON assumed).
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default:
		for i < len(b) && !(b[i] == ',' || b[i] == '}' || b[i] == ']' || b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
		return i
	}
}
