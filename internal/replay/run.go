package replay

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is how far a run has got.
type Progress struct {
	Files, TotalFiles int
	Bytes, TotalBytes int64
	Elapsed           time.Duration
	Done              bool
}

// Run replays every source, Workers files at a time, and returns the
// report with the sessions in the order of sources. Progress is told as
// each file is done, and once at the end.
func Run(sources []Source, opt Options) Report {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(sources)))
	sessions := make([]Session, len(sources))
	var total int64
	for _, s := range sources {
		total += s.Size
	}
	var mu sync.Mutex
	var bytes atomic.Int64
	files, start := 0, time.Now()
	done := func() {
		mu.Lock()
		defer mu.Unlock()
		files++
		if opt.Progress != nil {
			opt.Progress(Progress{Files: files, TotalFiles: len(sources), Bytes: bytes.Load(), TotalBytes: total,
				Elapsed: time.Since(start), Done: files == len(sources)})
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			rd := newReader()
			count := func(n int) { bytes.Add(int64(n)) }
			for i := range next {
				sessions[i] = rd.file(sources[i], opt, count)
				done()
			}
		})
	}
	for i := range sources {
		next <- i
	}
	close(next)
	wg.Wait()
	if opt.Progress != nil && len(sources) == 0 {
		opt.Progress(Progress{Done: true})
	}
	return Report{Sessions: sessions, Totals: Total(sessions)}
}
