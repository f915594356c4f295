package replay_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/tools/gen"
)

// cpuTime is the CPU this process has used, user and system. On a shared
// machine wall time measures the neighbours too; CPU time per byte does
// not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReplayFile replays one generated 20 MB session on one core.
func BenchmarkReplayFile(b *testing.B) {
	dir := b.TempDir()
	var buf bytes.Buffer
	gen.WriteScript(&buf, gen.Script{ID: "bench", Responses: gen.Climb(10_000, 60, 1200), Seed: 3, Progress: 7})
	p := filepath.Join(dir, "bench.jsonl")
	os.WriteFile(p, buf.Bytes(), 0o644)
	src := replay.Source{Path: p, Size: int64(buf.Len())}
	b.SetBytes(src.Size)
	cpu := cpuTime()
	for b.Loop() {
		if s := replay.File(src, fixed(caps)); s.Responses != 1200 {
			b.Fatal(s.Responses)
		}
	}
	b.ReportMetric(float64(src.Size)*float64(b.N)/1e6/(cpuTime()-cpu).Seconds(), "MB/cpu-s")
}

// benchCorpus writes (once; it is kept in the temporary folder between
// runs) at least size bytes of sessions from tools/gen, the bench's own
// generator: 0.5–40 MB each, climbing to their compactions, with its
// occasional multi-megabyte tool results. It returns the folder, its size
// and the responses and compactions gen says it wrote.
func benchCorpus(b *testing.B, size int64) (dir string, total int64, responses, compactions int) {
	dir = filepath.Join(os.TempDir(), fmt.Sprintf("context-budget-replay-gen-%d", size>>20))
	t, err := gen.WriteTree(dir, size, 40<<20, 7)
	if err != nil {
		b.Fatal(err)
	}
	return dir, t.Bytes, t.Responses, t.Compactions
}

// BenchmarkReplay1GB replays a gigabyte of generated transcripts on every
// core (the budget: ≥ 100 MB/s on two), and reports the heap's high-water
// mark, which must not grow with the corpus.
func BenchmarkReplay1GB(b *testing.B) {
	dir, total, responses, compactions := benchCorpus(b, 1<<30)
	b.SetBytes(total)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	b.ResetTimer()
	cpu := cpuTime()
	start := time.Now()
	for b.Loop() {
		sources, err := replay.Discover([]string{dir})
		if err != nil {
			b.Fatal(err)
		}
		rep := replay.Run(sources, fixed(caps))
		if rep.Totals.Bytes != total || rep.Totals.Errors != 0 || rep.Totals.Responses != responses {
			b.Fatalf("replayed %d bytes, %d responses, %d errors; gen wrote %d bytes, %d responses",
				rep.Totals.Bytes, rep.Totals.Responses, rep.Totals.Errors, total, responses)
		}
		n := 0
		for _, s := range rep.Sessions {
			n += s.Compactions
		}
		if n != compactions {
			b.Fatalf("%d compactions, gen wrote %d", n, compactions)
		}
	}
	wall := time.Since(start)
	used := cpuTime() - cpu
	close(stop)
	mb := float64(total) * float64(b.N) / 1e6
	b.ReportMetric(mb/used.Seconds(), "MB/cpu-s")
	b.ReportMetric(used.Seconds()/wall.Seconds(), "cores-busy")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}
