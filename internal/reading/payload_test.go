package reading

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// refPayload is what ReadPayload must give, from encoding/json: valid
// reports whether encoding/json reads data as one JSON object; ok whether
// ReadPayload must then accept it. Each key's raw value is taken in order
// (the last occurrence wins), a value of another type reads as absent, and
// a string past its bound refuses the payload or reads as absent, as
// ReadPayload documents.
func refPayload(data []byte) (p Payload, ok, valid bool) {
	if !json.Valid(data) || !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return Payload{}, false, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // {
	ok = true
	str := func(dst *string, raw json.RawMessage, max int, lax bool) {
		*dst = ""
		switch {
		case raw[0] != '"':
		case len(raw) > max:
			ok = ok && lax
		default:
			json.Unmarshal(raw, dst)
		}
	}
	literal := func(raw json.RawMessage, dst any) {
		if raw[0] != '"' && raw[0] != '{' && raw[0] != '[' && len(raw) <= maxField {
			json.Unmarshal(raw, dst)
		}
	}
	for dec.More() {
		tok, _ := dec.Token()
		key, _ := tok.(string)
		var raw json.RawMessage
		dec.Decode(&raw)
		switch key {
		case "hook_event_name":
			str(&p.HookEventName, raw, maxField, false)
		case "session_id":
			str(&p.SessionID, raw, maxField, false)
		case "transcript_path":
			str(&p.TranscriptPath, raw, maxField, false)
		case "cwd":
			str(&p.Cwd, raw, maxField, false)
		case "tool_use_id":
			str(&p.ToolUseID, raw, maxField, false)
		case "prompt":
			str(&p.Prompt, raw, maxField, false)
		case "source":
			str(&p.Source, raw, maxField, false)
		case "tool_name":
			str(&p.ToolName, raw, maxField, true)
		case "agent_id":
			p.Subagent = string(raw) != "null"
			str(&p.AgentID, raw, maxField, true)
		case "last_assistant_message":
			str(&p.LastAssistantMessage, raw, maxMessage, true)
		case "tool_input":
			p.ToolInput = ""
			if len(raw) <= maxInput {
				p.ToolInput = string(raw)
			}
		case "seconds_since_last_response":
			var v float64
			literal(raw, &v)
			p.SecondsSinceLastResponse = v
		case "context_tokens":
			var v int64
			literal(raw, &v)
			p.ContextTokens = v
		case "prompt_cache_likely_expired":
			var v bool
			literal(raw, &v)
			p.CacheLikelyExpired = v
		}
	}
	if !ok {
		return Payload{}, false, true
	}
	return p, true, true
}

// checkPayload reads data whole and one byte at a time, which must agree,
// and with encoding/json's reference wherever encoding/json reads it.
func checkPayload(t *testing.T, data []byte) {
	t.Helper()
	got, err := ReadPayload(bytes.NewReader(data))
	one, oerr := ReadPayload(iotest.OneByteReader(bytes.NewReader(data)))
	if one != got || (oerr == nil) != (err == nil) {
		t.Fatalf("%.120q: read whole %+v, %v; one byte at a time %+v, %v", data, got, err, one, oerr)
	}
	want, ok, valid := refPayload(data)
	if !valid {
		return
	}
	if !ok {
		if err == nil {
			t.Fatalf("%.120q: a field past its bound, read as %+v", data, got)
		}
		return
	}
	if err != nil || got != want {
		t.Fatalf("%.120q:\nReadPayload   %+v, %v\nencoding/json %+v", data, got, err, want)
	}
}

var payloadCases = []string{
	`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","tool_use_id":"toolu_01","hook_event_name":"PostToolUse"}`,
	`{"session_id":"abc","transcript_path":"/tmp/t.jsonl","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\"}b","x":[1,{"y":null}]},"tool_use_id":"toolu_01"}`,
	` { "session_id" : "s1" , "tool_response" : {"stdout":"a \"quoted\" \\\\\" end","x":[1,2,{"y":"}"}]} , "agent_id":"a1" } `,
	`{"session_id":"with \\\\","cwd":"\\\\\\\\","tool_use_id":"x\\\"y"}`,
	`{"session_id":"a\\u00e9\\n","transcript_path":7,"cwd":null,"agent_id":{"a":"b"}}`,
	`{"agent_id":"a1","session_id":"s\u00e9\\\"","cwd":null,"cwd":"x","transcript_path":5}`,
	`{"session\u005fid":"s"}`, `{}`, ` {} `, `{"a":"b\\"}`, `{"session_id":"\\x"}`, `{"session_id":"s","session_id":"t"}`,
	"{\"a\":\"\x00\"}", "{\"tool_name\":\"\x00\",\"session_id\":\"s\"}",
	`{"hook_event_name":"SessionStart","source":"resume","seconds_since_last_response":1,"context_tokens":30120,"prompt_cache_likely_expired":false,"estimated_cache_write_usd":0.1883}`,
	`{"context_tokens":5,"context_tokens":"x","prompt_cache_likely_expired":true,"prompt_cache_likely_expired":{}}`,
	`{"hook_event_name":"UserPromptSubmit","prompt":"go on","context_tokens":1.5,"seconds_since_last_response":"9","prompt_cache_likely_expired":null}`,
	`{"tool_input":"x","tool_input":[1,{"a":"\""}]}`,
	`{"tool_response":"` + strings.Repeat(`\\`, 70001) + `\"","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`\\`, 70000) + `","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`ab\"cd\\\\`, 20000) + `","session_id":"s"}`,
	`{"` + strings.Repeat("k", 100000) + `":"v","cwd":"` + strings.Repeat("c", 90000) + `"}`,
	// Escapes come thick (JSON inside a string), across window edges.
	`{"tool_response":"` + strings.Repeat(`\"`, 40000) + `","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`a\\\"b`, 9000) + `\\","session_id":"s"}`,
	`{"session_id":"` + strings.Repeat("x", windowSize-20) + strings.Repeat(`\"`, 30) + `","cwd":"c"}`,
	`{"tool_response":"` + strings.Repeat("y", windowSize-19) + `\\\"\\","session_id":"s"}`,
	`{"tool_input":{"content":"` + strings.Repeat(`\"`, windowSize) + `"},"tool_name":"Write","session_id":"s"}`,
	// A number past maxField reads as absent.
	`{"context_tokens":1` + strings.Repeat("0", maxField) + `,"seconds_since_last_response":1.` + strings.Repeat("0", maxField) + `,"session_id":"s"}`,
}

// badPayloads are not one JSON object: each is refused.
var badPayloads = []string{
	`{"a":1}x`, `{"a":}`, `{"a" 1}`, `{"a":"b"`, `[]`, ``, `{"a":[}`, `{"a":tru e}`, `null`,
	`{"tool_input":}`, `{"tool_input":{"a":1}`, `{"tool_input":{"a":1} x}`, `{"tool_name":}`,
}

func TestReadPayload(t *testing.T) {
	for _, c := range payloadCases {
		checkPayload(t, []byte(c))
	}
	for _, c := range badPayloads {
		if p, err := ReadPayload(strings.NewReader(c)); err == nil {
			t.Errorf("%q read as %+v", c, p)
		}
	}
	r := iotest.DataErrReader(iotest.TimeoutReader(strings.NewReader(`{"session_id":"s1"}`)))
	if _, err := ReadPayload(r); err == nil {
		t.Error("a read error mid-payload parsed")
	}
}

// TestReadPayloadInput: tool_name and tool_input are kept, the input raw,
// across windows and one-byte reads, while tool_response is skipped; an
// input past maxInput reads as absent without being held.
func TestReadPayloadInput(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	data := `{"session_id":"s","tool_name":"Write","tool_input":{"file_path":"/a","content":"` + big + `\"q"},"tool_response":{"ok":true},"cwd":"/w"}`
	wantInput := `{"file_path":"/a","content":"` + big + `\"q"}`
	for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data))} {
		p, err := ReadPayload(r)
		if err != nil {
			t.Fatal(err)
		}
		if p.ToolName != "Write" || p.ToolInput != wantInput || p.Cwd != "/w" || p.SessionID != "s" {
			t.Fatalf("got %q %.60q %q %q", p.ToolName, p.ToolInput, p.Cwd, p.SessionID)
		}
	}
	huge := []byte(`{"tool_name":"Write","tool_input":{"content":"` + strings.Repeat("y", 8<<20) + `"},"session_id":"s"}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := ReadPayload(bytes.NewReader(huge))
	runtime.ReadMemStats(&after)
	if err != nil || p.ToolInput != "" || p.ToolName != "Write" || p.SessionID != "s" {
		t.Errorf("an 8 MB tool_input: %q %.20q %q, %v; want it absent", p.ToolName, p.ToolInput, p.SessionID, err)
	}
	// The window doubles until it holds twice the bound, then lets go.
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 6*maxInput {
		t.Errorf("an 8 MB tool_input: the read allocated %d bytes", grown)
	}
}

// FuzzReadPayload checks ReadPayload against encoding/json, seeded with
// the cases above, the real transcripts' lines and payloads built around
// them.
func FuzzReadPayload(f *testing.F) {
	for _, c := range append(payloadCases, badPayloads...) {
		f.Add([]byte(c))
	}
	lines, _ := realSeeds(f, 8<<10)
	for _, l := range lines {
		f.Add(l)
	}
	if dir, _ := sharedtest.Dir(); dir != "" {
		for _, name := range []string{"short.jsonl", "tool_heavy.jsonl"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			for i, line := range bytes.Split(data, []byte("\n")) {
				if i%3 == 0 && len(line) > 0 {
					f.Add(append(append([]byte(`{"session_id":"s","tool_input":`), line...), '}'))
					f.Add(append(append([]byte(`{"session_id":"s","tool_response":`), line...), '}'))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPayload(t, data)
	})
}
