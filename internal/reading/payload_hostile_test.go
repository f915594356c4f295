package reading

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// An agent_id of any non-null value marks a subagent's call: a guard that
// reads only strings fails open on 123, true or an object (issue 20,
// class 8).
func TestPayloadSubagentAnyForm(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    bool
	}{
		{`{"agent_id":"a1"}`, true},
		{`{"agent_id":""}`, true},
		{`{"agent_id":123}`, true},
		{`{"agent_id":true}`, true},
		{`{"agent_id":false}`, true},
		{`{"agent_id":{"id":"a"}}`, true},
		{`{"agent_id":["a"]}`, true},
		{`{"agent\u005fid":7}`, true},
		{`{"agent_id":null}`, false},
		{`{"session_id":"s"}`, false},
		{`{"agent_id":"a","agent_id":null}`, false}, // the last one wins, as in JSON.parse
	} {
		p, err := ReadPayload(strings.NewReader(tc.payload))
		if err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if p.Subagent != tc.want {
			t.Errorf("%s: Subagent = %v, want %v", tc.payload, p.Subagent, tc.want)
		}
	}
}

// A kept field is bounded: a 60 MB session_id used to be held whole
// (132 MiB of heap); now it is refused after a bounded window (issue 20,
// class 10).
func TestPayloadFieldBounded(t *testing.T) {
	for _, field := range []string{"session_id", "transcript_path", "cwd", "tool_use_id", "hook_event_name", "agent_id"} {
		data := []byte(`{"` + field + `":"` + strings.Repeat("a", 8<<20) + `"}`)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p, err := ReadPayload(bytes.NewReader(data))
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
			t.Errorf("%s of 8 MB: the read allocated %d bytes", field, grown)
		}
		if field == "agent_id" {
			if err != nil || !p.Subagent {
				t.Errorf("an 8 MB agent_id: %+v, %v; want a subagent", p.Subagent, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("an 8 MB %s parsed: session %.40q", field, p.SessionID)
		}
	}
	// The Stop hook's last message may be long; past its bound it reads
	// as absent (nothing to wait for), not as a bad payload.
	long := `{"session_id":"s","last_assistant_message":"` + strings.Repeat("b", maxMessage+1) + `"}`
	p, err := ReadPayload(strings.NewReader(long))
	if err != nil || p.SessionID != "s" || p.LastAssistantMessage != "" {
		t.Errorf("an over-long last message: %q, %.20q, %v", p.SessionID, p.LastAssistantMessage, err)
	}
	ok := `{"session_id":"s","last_assistant_message":"` + strings.Repeat("b", 100_000) + `"}`
	if p, err := ReadPayload(strings.NewReader(ok)); err != nil || len(p.LastAssistantMessage) != 100_000 {
		t.Errorf("a 100 kB last message: %d, %v", len(p.LastAssistantMessage), err)
	}
}
