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

// progressEvery is how often Run reports progress.
const progressEvery = 200 * time.Millisecond

// Run replays every source, Workers files at a time, and returns the
// report with the sessions in the order of sources.
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
	var files atomic.Int64
	var bytes atomic.Int64
	start := time.Now()
	report := func(done bool) {
		if opt.Progress != nil {
			opt.Progress(Progress{Files: int(files.Load()), TotalFiles: len(sources),
				Bytes: bytes.Load(), TotalBytes: total, Elapsed: time.Since(start), Done: done})
		}
	}
	stop := make(chan struct{})
	var ticker sync.WaitGroup
	if opt.Progress != nil {
		ticker.Go(func() {
			t := time.NewTicker(progressEvery)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					report(false)
				}
			}
		})
	}

	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			rd := newReader()
			count := func(n int) { bytes.Add(int64(n)) }
			for i := range next {
				sessions[i] = rd.file(sources[i], opt, count)
				files.Add(1)
			}
		})
	}
	for i := range sources {
		next <- i
	}
	close(next)
	wg.Wait()
	close(stop)
	ticker.Wait()
	report(true)
	return Report{Sessions: sessions, Totals: Total(sessions)}
}
