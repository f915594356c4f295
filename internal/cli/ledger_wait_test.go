package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWaitForFinal: the Stop hook's wait ends when the last text on disk
// is the final message, holds it, or ends it (its last block on a record
// of its own) — not when an earlier, shorter response merely appears
// inside it.
func TestWaitForFinal(t *testing.T) {
	rec := func(id, text string) string {
		return `{"type":"assistant","message":{"id":"` + id + `","model":"claude-opus-4-6","content":[{"type":"text","text":"` + text + `"}],"usage":{"input_tokens":1}}}` + "\n"
	}
	for _, tc := range []struct {
		name, file, final string
		want              bool
	}{
		{"the message", rec("a", "All tests pass."), "All tests pass.", true},
		{"its last block", rec("a", "Done.") + rec("b", "First part.") + rec("b", "All tests pass."), "First part. All tests pass.", true},
		{"an earlier response inside it", rec("a", "Done."), "Done. All tests pass. I pushed.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(p, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := waitForFinal(p, tc.final); got != tc.want {
				t.Errorf("waitForFinal = %v, want %v", got, tc.want)
			}
		})
	}
}
