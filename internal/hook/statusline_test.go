package hook

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRecordWindow checks the window file is written atomically when the
// size changes and left alone (not rewritten) when it does not.
func TestRecordWindow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tmp", "context-budget")
	name := filepath.Join(dir, "s1.window")
	RecordWindow(dir, "s1", 200000)
	if data, err := os.ReadFile(name); err != nil || string(data) != "200000\n" {
		t.Fatalf("window file = %q, %v; want 200000", data, err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(name, old, old)
	RecordWindow(dir, "s1", 200000)
	if fi, err := os.Stat(name); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("unchanged size rewrote the file (mtime %v, want %v)", fi.ModTime(), old)
	}
	if got := RecordWindow(dir, "s1", 1000000); got != 1000000 {
		t.Errorf("RecordWindow after a change = %d, want 1000000", got)
	}
	if data, _ := os.ReadFile(name); string(data) != "1000000\n" {
		t.Errorf("after a change the window file = %q, want 1000000", data)
	}
	// A write that fails leaves the old value, and says so: the caller
	// passes it on as the file's value instead of reading it again. A
	// folder where the file goes refuses the rename, even to root, and
	// reads as no window.
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(name, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := RecordWindow(dir, "s1", 500000); got != 0 {
		t.Errorf("RecordWindow with the write refused = %d, want the old value, 0", got)
	}
}

// TestParseStatusPayload reads the documented fields and survives a field
// of the wrong type.
func TestParseStatusPayload(t *testing.T) {
	tests := []struct {
		in   string
		want StatusPayload
		ok   bool
	}{
		{`{"session_id":"a","transcript_path":"/t.jsonl","cwd":"/c","workspace":{"current_dir":"/c","project_dir":"/p"},"context_window":{"context_window_size":200000}}`,
			StatusPayload{SessionID: "a", TranscriptPath: "/t.jsonl", Cwd: "/c", ProjectDir: "/p", WindowSize: 200000}, true},
		{`{"session_id":1,"transcript_path":"/t.jsonl","workspace":{"current_dir":"/w"},"context_window":{"context_window_size":"x"}}`,
			StatusPayload{TranscriptPath: "/t.jsonl", Cwd: "/w"}, true},
		{`{"context_window":{"context_window_size":-5}}`, StatusPayload{}, true},
		{`{"context_window":{"current_usage":{"input_tokens":5,"output_tokens":7,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
			StatusPayload{Usage: 115, HasUsage: true}, true},
		{`{"context_window":{"current_usage":{"input_tokens":-5,"cache_read_input_tokens":100}}}`, StatusPayload{}, true},
		{`{"context_window":{"current_usage":{"input_tokens":1.5}}}`, StatusPayload{}, true},
		{`{"context_window":{"current_usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":9223372036854775807}}}`, StatusPayload{}, true},
		{`{"context_window":{"current_usage":{"output_tokens":3}}}`, StatusPayload{}, true},
		{`{"context_window":{"current_usage":null}}`, StatusPayload{}, true},
		{`[1,2]`, StatusPayload{}, false},
		{`null`, StatusPayload{}, false},
		{``, StatusPayload{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseStatusPayload([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseStatusPayload(%s) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzStatusline feeds arbitrary stdin to the status line: it must print
// exactly one line and never fail.
func FuzzStatusline(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","transcript_path":"/nonexistent","context_window":{"context_window_size":200000}}`))
	f.Add([]byte(`{"workspace":{"project_dir":1}}`))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := ParseStatusPayload(data)
		if !ok {
			return
		}
		p.ProjectDir, p.Cwd = "", "" // never write outside the test
		line := StatusLine(p, func(string) string { return "" }, false, time.Now())
		if line == "" {
			t.Fatalf("empty line for %q", data)
		}
	})
}
