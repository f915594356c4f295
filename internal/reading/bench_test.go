package reading_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/tools/gen"
)

// transcriptFile writes a generated transcript to a temporary file.
func transcriptFile(b *testing.B, opt gen.Options) (*os.File, gen.Result) {
	b.Helper()
	name := filepath.Join(b.TempDir(), "t.jsonl")
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	res, err := gen.Write(f, opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f, res
}

func benchLast(b *testing.B, opt gen.Options) {
	f, res := transcriptFile(b, opt)
	b.SetBytes(0)
	b.ReportAllocs()
	for b.Loop() {
		r, seen, err := reading.Last(f, res.Bytes, res.ToolUseID)
		if err != nil || !seen || r.Tokens != res.Reading {
			b.Fatalf("Last = %d, %v, %v; want %d", r.Tokens, seen, err, res.Reading)
		}
	}
}

// The common case: the response that made the call ends the file.
func BenchmarkLastCall(b *testing.B) {
	benchLast(b, gen.Options{Size: 16 << 20, Seed: 1})
}

// The hard case: the response sits behind a 3 MB tool result.
func BenchmarkLastBehind3MB(b *testing.B) {
	benchLast(b, gen.Options{Size: 16 << 20, Seed: 1, Tail: gen.TailBehindHuge})
}

func payload(b *testing.B, stdout string) []byte {
	p, err := json.Marshal(map[string]any{
		"session_id": "5e55a0b1", "transcript_path": "/home/user/.claude/projects/p/5e55a0b1.jsonl",
		"cwd": "/home/user/project", "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]any{"command": "go test ./...", "description": "Run the tests"},
		"tool_response": map[string]any{"stdout": stdout, "stderr": "", "interrupted": false},
		"tool_use_id":   "toolu_01ABC",
	})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchPayload(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := reading.ReadPayload(bytes.NewReader(data))
		if err != nil || p.ToolUseID != "toolu_01ABC" {
			b.Fatal(p, err)
		}
	}
}

func BenchmarkReadPayload(b *testing.B) { benchPayload(b, payload(b, "ok\n")) }

// A 1 MB tool_response: skipped through the scanner's window.
func BenchmarkReadPayload1MB(b *testing.B) {
	benchPayload(b, payload(b, strings.Repeat("--- PASS: TestTail/case \"x\" (0.00s)\n\t", 1<<20/40)))
}

// A hostile payload, a 60 MB session_id: what reading past it costs
// (TestHookHostilePayloads holds its memory and its silence).
func BenchmarkReadPayloadHostile(b *testing.B) {
	data := []byte(`{"session_id":"` + strings.Repeat("a", 60<<20) + `","tool_use_id":"toolu_01ABC"}`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		reading.ReadPayload(bytes.NewReader(data))
	}
}
