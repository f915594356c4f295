package cold

import (
	"testing"
	"time"
)

// BenchmarkOnPromptWarm is the hook's common UserPromptSubmit: a warm
// cache, decided from the transcript's tail alone.
func BenchmarkOnPromptWarm(b *testing.B) {
	last := time.Now()
	root, path := session(b, 300_000, last, false)
	c := call(root, path, "go on", last.Add(time.Minute), nil)
	for b.Loop() {
		if o, _ := OnPrompt(c); o.Block {
			b.Fatal("warm prompt stopped")
		}
	}
}
