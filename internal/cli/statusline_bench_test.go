package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkStatusline measures one status line render on the largest
// shared transcript, in process (start-up excluded).
func BenchmarkStatusline(b *testing.B) {
	dir, err := sharedTranscripts()
	if err != nil {
		b.Skip("no shared transcripts beside the repository")
	}
	p := statusPayload{SessionID: "bench", TranscriptPath: filepath.Join(dir, "4d5611e5-241a-462a-8d15-5122611a9569.jsonl"), ProjectDir: b.TempDir(), WindowSize: 200000}
	if _, err := os.Stat(p.TranscriptPath); err != nil {
		b.Skip(err)
	}
	getenv := func(string) string { return "" }
	for b.Loop() {
		statusLine(p, getenv, false)
	}
}
