package replay_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/replay/replaytest"
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
	replaytest.Write(&buf, replaytest.Session{ID: "bench", Responses: replaytest.Climb(10_000, 60, 1200), Seed: 3, Progress: 7})
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
// runs) at least size bytes of generated sessions: climbs with compactions
// near 167k, of 0.3–40 MB each.
func benchCorpus(b *testing.B, size int64) (string, int64) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("context-budget-replay-bench-%d", size>>20))
	done := filepath.Join(dir, ".done")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		rng := rand.New(rand.NewPCG(42, 42))
		var total int64
		for i := 0; total < size; i++ {
			n := 20 + rng.IntN(2000)
			rs := make([]replaytest.Response, n)
			reading := int64(20_000)
			for j := range rs {
				reading += rng.Int64N(4000)
				if reading > 167_000 {
					rs[j].Before = "compact"
					reading = 30_000 + rng.Int64N(20_000)
				}
				rs[j].Reading = reading
			}
			sub := filepath.Join(dir, fmt.Sprintf("-home-user-project-%d", i%7))
			os.MkdirAll(sub, 0o755)
			f, err := os.Create(filepath.Join(sub, fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", i)))
			if err != nil {
				b.Fatal(err)
			}
			err = replaytest.Write(f, replaytest.Session{ID: fmt.Sprintf("%08d-0000-4000-8000-000000000000", i),
				Responses: rs, Seed: uint64(i), Progress: 7})
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				b.Fatal(err)
			}
			fi, _ := os.Stat(f.Name())
			total += fi.Size()
		}
		os.WriteFile(done, nil, 0o644)
	}
	sources, err := replay.Discover([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, s := range sources {
		total += s.Size
	}
	return dir, total
}

// BenchmarkReplay1GB replays a gigabyte of generated transcripts on every
// core (the budget: ≥ 100 MB/s on two), and reports the heap's high-water
// mark, which must not grow with the corpus.
func BenchmarkReplay1GB(b *testing.B) {
	dir, total := benchCorpus(b, 1<<30)
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
		if rep.Totals.Bytes != total || rep.Totals.Errors != 0 {
			b.Fatalf("replayed %d bytes, %d errors", rep.Totals.Bytes, rep.Totals.Errors)
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
