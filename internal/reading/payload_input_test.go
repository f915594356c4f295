package reading

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadPayloadInput: the fuse's reader keeps tool_name and tool_input
// raw, across windows and one-byte reads, and still skips tool_response;
// ReadPayload leaves both out.
func TestReadPayloadInput(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	data := `{"session_id":"s","tool_name":"Write","tool_input":{"file_path":"/a","content":"` + big + `\"q"},"tool_response":{"ok":true},"cwd":"/w"}`
	wantInput := `{"file_path":"/a","content":"` + big + `\"q"}`
	for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data))} {
		p, err := ReadPayloadInput(r)
		if err != nil {
			t.Fatal(err)
		}
		if p.ToolName != "Write" || p.ToolInput != wantInput || p.Cwd != "/w" || p.SessionID != "s" {
			t.Fatalf("got %q %.60q %q %q", p.ToolName, p.ToolInput, p.Cwd, p.SessionID)
		}
	}
	p, err := ParsePayload([]byte(data))
	if err != nil || p.ToolName != "" || p.ToolInput != "" || p.Cwd != "/w" {
		t.Fatalf("ReadPayload kept the input: %+v, %v", p, err)
	}
	for _, bad := range []string{`{"tool_input":}`, `{"tool_input":{"a":1}`, `{"tool_input":{"a":1} x}`} {
		if _, err := ReadPayloadInput(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadPayloadInput(%q) took it", bad)
		}
	}
}

// FuzzReadPayloadInput: the fuse's payload reader agrees with ReadPayload
// on every field both read, and keeps a tool_input that is valid JSON
// whenever the payload is.
func FuzzReadPayloadInput(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/w"}`))
	f.Add([]byte(`{"tool_input":"x","tool_input":[1,{"a":"\""}]}`))
	f.Add([]byte(`{"tool_input":}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPayloadInput(strings.NewReader(string(data)))
		q, qerr := ParsePayload(data)
		if (err == nil) != (qerr == nil) {
			t.Fatalf("ReadPayloadInput error %v, ReadPayload error %v", err, qerr)
		}
		if err != nil {
			return
		}
		p.ToolName, p.ToolInput = "", ""
		if p != q {
			t.Fatalf("ReadPayloadInput %+v, ReadPayload %+v", p, q)
		}
	})
}
