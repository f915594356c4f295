//go:build unix

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/tools/gen"
)

// BenchmarkReplayHistory runs `context-budget replay` as a person does,
// with no paths: over the Claude Code projects folder of a home made of
// generated sessions (tools/gen, 0.5–8.5 MB each over seven projects, every
// one climbing to its compactions), with the priced policy and the
// history of every other session's compactions, as the hook decides. It
// replays a 100 MB home and a 1 GB one, once each (the budgets: ≥ 300 MB/s
// on two cores, and the 1 GB home in ≤ 12× the time of the 100 MB one —
// what grows faster than its input is the history's cost per response).
// The homes are written once into the temporary folder and kept.
func BenchmarkReplayHistory(b *testing.B) {
	for _, k := range []string{"MUTHUR_CONTEXT_BUDGET_LINES", "MUTHUR_CONTEXT_BUDGET_WARN", "MUTHUR_CONTEXT_BUDGET_PAUSE",
		"CLAUDE_CONFIG_DIR", "CLAUDE_CODE_AUTO_COMPACT_WINDOW", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"} {
		b.Setenv(k, "")
	}
	var small time.Duration
	for _, size := range []int64{100 << 20, 1 << 30} {
		home := filepath.Join(os.TempDir(), fmt.Sprintf("context-budget-replay-history-%d", size>>20))
		tree, err := gen.WriteTree(filepath.Join(home, ".claude", "projects"), size, 8<<20, 7)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			b.Setenv("HOME", home)
			b.SetBytes(tree.Bytes)
			cpu := processCPU()
			start := time.Now()
			for b.Loop() {
				var stderr bytes.Buffer
				if code := runReplay(nil, nil, io.Discard, &stderr); code != 0 {
					b.Fatalf("replay: exit %d: %s", code, stderr.String())
				}
			}
			wall := time.Since(start) / time.Duration(b.N)
			used := (processCPU() - cpu) / time.Duration(b.N)
			mb := float64(tree.Bytes) / 1e6
			b.ReportMetric(mb/wall.Seconds(), "MB/s")
			b.ReportMetric(mb/used.Seconds(), "MB/cpu-s")
			b.ReportMetric(float64(tree.Sessions), "sessions")
			b.ReportMetric(float64(tree.Compactions), "compactions")
			if small == 0 {
				small = wall
			} else {
				b.ReportMetric(wall.Seconds()/small.Seconds(), "x-100MB-time")
			}
		})
	}
}

// processCPU is the CPU this process has used, user and system: on a
// shared machine wall time measures the neighbours too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
