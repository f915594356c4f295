package cli

import (
	"os"
	"runtime"
	"sync"

	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/window"
)

// aboutSessions reads what the report shows of each session beyond its
// readings: its ledger row's date, branch, opening prompt and cost (from
// the transcript and its subagents, as ledger record prices them), and
// its window's compaction point. Only --html needs it: it reads every
// transcript a second time, workers at once.
func aboutSessions(rep replay.Report, table *prices.Table, workers int) map[string]replay.About {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	pricer := orientation.NewPricer(table)
	out := make(map[string]replay.About, len(rep.Sessions))
	var mu sync.Mutex
	jobs := make(chan *replay.Session)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				a := aboutOne(s, pricer)
				mu.Lock()
				out[s.Path] = a
				mu.Unlock()
			}
		}()
	}
	for i := range rep.Sessions {
		jobs <- &rep.Sessions[i]
	}
	close(jobs)
	wg.Wait()
	return out
}

func aboutOne(s *replay.Session, pricer *orientation.Pricer) replay.About {
	var a replay.About
	ev := window.Evidence{Peak: s.Peak}
	for _, b := range s.Boundaries {
		if b.Kind == "compact" && b.Trigger == "auto" && b.PreTokens > 0 {
			ev.AutoCompactAt = b.PreTokens
			break
		}
	}
	w := window.Detect(ev, os.Getenv)
	a.WindowTokens, a.CompactsAt = w.Tokens, w.CompactsAt
	sess, err := orientation.Read(s.Path)
	if err != nil || len(sess.Responses) == 0 {
		return a
	}
	row := orientation.Row(sess, pricer, "", orientation.Options{Finished: true})
	if len(row.FirstResponseAt) >= 10 {
		a.Date = row.FirstResponseAt[:10]
	}
	a.Branch, a.OpeningPrompt = row.Branch, row.OpeningPrompt
	cost := row.Total.CostUSD
	a.SpentUSD = &cost
	return a
}
