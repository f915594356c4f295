package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFuseArmed is the hook in process for a PreToolUse call with a
// dollar cap armed, one response appended before each call: what the
// tally's resume costs, whatever the transcript's size.
func BenchmarkFuseArmed(b *testing.B) {
	root := b.TempDir()
	tr := filepath.Join(root, "t.jsonl")
	var data bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&data, `{"type":"assistant","timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"m%d","model":"claude-opus-4-6","content":[{"type":"text","text":"%s"}],"usage":{"input_tokens":6,"cache_creation_input_tokens":2000,"cache_read_input_tokens":90000,"output_tokens":120}}}`+"\n", i, bytes.Repeat([]byte("x"), 2000))
	}
	os.WriteFile(tr, data.Bytes(), 0o644)
	b.Setenv("MUTHUR_CONTEXT_BUDGET_SPEND", "1000000usd")
	b.Setenv("CLAUDE_PROJECT_DIR", root)
	payload := []byte(`{"hook_event_name":"PreToolUse","session_id":"s1","transcript_path":"` + tr + `","cwd":"` + root + `","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`)
	runHook(nil, bytes.NewReader(payload), io.Discard, io.Discard)
	b.ResetTimer()
	for i := range b.N {
		f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, `{"type":"assistant","timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"n%d","model":"claude-opus-4-6","usage":{"input_tokens":6,"cache_creation_input_tokens":2000,"cache_read_input_tokens":90000,"output_tokens":120}}}`+"\n", i)
		f.Close()
		runHook(nil, bytes.NewReader(payload), io.Discard, io.Discard)
	}
}
