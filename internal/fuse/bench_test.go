package fuse

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// BenchmarkDecideArmed is one metered PreToolUse call with a response
// appended since the last: the tally resumes from its offset.
func BenchmarkDecideArmed(b *testing.B) {
	root := b.TempDir()
	tr := filepath.Join(root, "sess.jsonl")
	var data []byte
	for i := range 2000 {
		data = append(data, response(fmt.Sprintf("m%d", i), 0.0001, false)...)
	}
	os.WriteFile(tr, data, 0o644)
	e := env{tuning.EnvSpend: "1000000usd"}
	c := call(root, tr, PreToolUse, e, "Bash", bashLs)
	if _, err := Decide(c); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(response(fmt.Sprintf("n%d", i), 0.0001, true))
		f.Close()
		if _, err := Decide(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecideUnarmed is the unarmed call: the environment and one
// file tried.
func BenchmarkDecideUnarmed(b *testing.B) {
	root := b.TempDir()
	c := call(root, filepath.Join(root, "sess.jsonl"), PreToolUse, env{}, "Bash", bashLs)
	for range b.N {
		Decide(c)
	}
}
