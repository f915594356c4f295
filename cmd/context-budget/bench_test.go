package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// floorProgram is the budget's floor (design §11): a stdlib-only Go
// program that only reads stdin.
const floorProgram = `package main

import (
	"io"
	"os"
)

func main() { io.Copy(io.Discard, os.Stdin) }
`

// buildBench builds the hook binary and the floor program into dir.
func buildBench(b *testing.B, dir string) (hook, floor string) {
	b.Helper()
	hook = filepath.Join(dir, "context-budget")
	if out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", hook, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	src := filepath.Join(dir, "floor")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(floorProgram), 0o644)
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module floor\n\ngo 1.26\n"), 0o644)
	floor = filepath.Join(dir, "floor-bin")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", floor, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build floor: %v\n%s", err, out)
	}
	return hook, floor
}

// median runs prog n times with stdin and returns the median wall time.
func median(b *testing.B, n int, stdin []byte, env []string, prog string, args ...string) time.Duration {
	times := make([]time.Duration, n)
	for i := range times {
		cmd := exec.Command(prog, args...)
		cmd.Stdin = bytes.NewReader(stdin)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		times[i] = time.Since(start)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[n/2]
}

// BenchmarkHookCacheHit compares a hook call that finds its priced lines in
// the line cache with the floor program, as processes: it reports the
// median of each and their ratio (budget: ≤ 1.5). The transcript is 100 MB
// with the last response near its end, and the payload carries a 1 MB
// tool_response. It also reports the same call with the lines fixed (no
// cache, no pricing), which isolates what the cache hit adds.
func BenchmarkHookCacheHit(b *testing.B) {
	dir := b.TempDir()
	hook, floor := buildBench(b, dir)
	transcript := filepath.Join(dir, "s1.jsonl")
	f, _ := os.Create(transcript)
	filler := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"` + strings.Repeat("y", 30<<10) + `"}]}}` + "\n"
	for size := 0; size < 100<<20; size += len(filler) {
		f.WriteString(filler)
	}
	for i := range 69 {
		ctx := 40_000 + 2_500*i
		fmt.Fprintf(f, `{"type":"assistant","message":{"id":"m%d","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":2500,"output_tokens":50}}}`+"\n", i, ctx-2_500)
	}
	f.Close()
	payload := []byte(fmt.Sprintf(`{"hook_event_name":"PostToolUse","session_id":"s1","transcript_path":%q,"cwd":%q,"tool_response":{"stdout":"%s"}}`,
		transcript, dir, strings.Repeat("z", 1<<20)))
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	// Warm the cache: the first call prices and writes the .line file
	// (and fires the pause, once).
	median(b, 1, payload, env, hook, "hook")
	if _, err := os.Stat(filepath.Join(dir, "tmp", "context-budget", "s1.line")); err != nil {
		b.Fatal("no line cache after the first call")
	}
	const n = 41
	b.ResetTimer()
	for b.Loop() {
		fl := median(b, n, payload, env, floor)
		hk := median(b, n, payload, env, hook, "hook")
		fx := median(b, n, payload, append(env, "MUTHUR_CONTEXT_BUDGET_LINES=fixed"), hook, "hook")
		b.ReportMetric(float64(fl.Microseconds()), "floor-µs")
		b.ReportMetric(float64(hk.Microseconds()), "hook-µs")
		b.ReportMetric(float64(fx.Microseconds()), "fixed-µs")
		b.ReportMetric(float64(hk)/float64(fl), "ratio")
	}
}
