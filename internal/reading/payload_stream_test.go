package reading

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/muthur/context-budget/tools/sharedtest"
)

var payloadCases = []string{
	`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","tool_use_id":"toolu_01","hook_event_name":"PostToolUse"}`,
	` { "session_id" : "s1" , "tool_response" : {"stdout":"a \"quoted\" \\\\\" end","x":[1,2,{"y":"}"}]} , "agent_id":"a1" } `,
	`{"session_id":"with \\\\","cwd":"\\\\\\\\","tool_use_id":"x\\\"y"}`,
	`{"session_id":"a\\u00e9\\n","transcript_path":7,"cwd":null,"agent_id":{"a":"b"}}`,
	`{}`, ` {} `, `{"a":1}x`, `{"a":}`, `{"a" 1}`, `{"a":"b"`, `{"a":"b\\"}`, `[]`, ``, `{"a":[}`,
	`{"a":tru e}`, `{"session_id":"\\x"}`, `{"session_id":"s","session_id":"t"}`, "{\"a\":\"\x00\"}",
	`{"tool_response":"` + strings.Repeat(`\\`, 70001) + `\"","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`\\`, 70000) + `","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`ab\"cd\\\\`, 20000) + `","session_id":"s"}`,
	`{"` + strings.Repeat("k", 100000) + `":"v","cwd":"` + strings.Repeat("c", 90000) + `"}`,
	// Escapes come thick (JSON inside a string), across window edges.
	`{"tool_response":"` + strings.Repeat(`\"`, 40000) + `","session_id":"s"}`,
	`{"tool_response":"` + strings.Repeat(`a\\\"b`, 9000) + `\\","session_id":"s"}`,
	`{"session_id":"` + strings.Repeat("x", windowSize-20) + strings.Repeat(`\"`, 30) + `","cwd":"c"}`,
	`{"tool_response":"` + strings.Repeat("y", windowSize-19) + `\\\"\\","session_id":"s"}`,
}

// checkPayload compares ReadPayload, through whole reads and one-byte
// reads, with the in-memory oracle.
func checkPayload(t *testing.T, data []byte) {
	t.Helper()
	want, werr := refParsePayload(data)
	for _, read := range []struct {
		name string
		r    func() (Payload, error)
	}{
		{"whole", func() (Payload, error) { return ParsePayload(data) }},
		{"one byte", func() (Payload, error) { return ReadPayload(iotest.OneByteReader(bytes.NewReader(data))) }},
	} {
		got, err := read.r()
		if got != want || (err == nil) != (werr == nil) {
			t.Fatalf("%s read of %.120q:\n got %+v, %v\nwant %+v, %v", read.name, data, got, err, want, werr)
		}
	}
}

func TestReadPayloadMatchesOracle(t *testing.T) {
	for _, c := range payloadCases {
		checkPayload(t, []byte(c))
	}
}

func TestReadPayloadReadError(t *testing.T) {
	r := iotest.DataErrReader(iotest.TimeoutReader(strings.NewReader(`{"session_id":"s1"}`)))
	if _, err := ReadPayload(r); err == nil {
		t.Error("a read error mid-payload parsed")
	}
}

// FuzzReadPayload checks the streaming scanner against the in-memory one,
// seeded with payloads built around the real transcripts' lines.
func FuzzReadPayload(f *testing.F) {
	for _, c := range payloadCases {
		f.Add([]byte(c))
	}
	if dir := sharedDir(); dir != "" {
		for _, name := range []string{"short.jsonl", "tool_heavy.jsonl"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			for i, line := range bytes.Split(data, []byte("\n")) {
				if i%3 == 0 && len(line) > 0 {
					f.Add(append(append([]byte(`{"session_id":"s","tool_response":`), line...), '}'))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPayload(t, data)
	})
}

// sharedDir finds ../shared/data/transcripts beside the repository, or "".
func sharedDir() string {
	p, _ := sharedtest.Dir()
	return p
}
