package replay

import (
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// Options tune a replay.
type Options struct {
	// NewModel gives each session its Model; the path is the main
	// transcript's. Required.
	NewModel func(path string) Model
	// Prices prices responses for the actual carry-on cost; nil leaves
	// every actual null.
	Prices Prices
	// Series keeps every reading in Session.Readings.
	Series bool
	// Workers is how many files are replayed at once; 0 means one per CPU.
	Workers int
	// Progress, when set, is called from time to time and once at the end.
	Progress func(Progress)
}

// reader holds one worker's buffers, reused from file to file so that
// memory stays bounded by the number of workers, not the files' sizes.
type reader struct {
	rd *reading.Reader
}

func newReader() *reader {
	return &reader{rd: reading.NewReader(nil)}
}

// File replays one main transcript.
func File(src Source, opt Options) Session {
	return newReader().file(src, opt, func(int) {})
}

func (rd *reader) file(src Source, opt Options, count func(int)) Session {
	f, _, err := reading.Open(src.Path)
	if err != nil {
		s := newSession(src)
		s.Error = err.Error()
		return s
	}
	defer f.Close()
	return rd.replay(f, src, opt, count)
}

func newSession(src Source) Session {
	return Session{Path: src.Path, Project: filepath.Base(filepath.Dir(src.Path)), Bytes: src.Size, Subagents: len(src.Subagents),
		Boundaries: []Boundary{}, Notices: []Notice{}, Pauses: []Pause{}, Points: []Point{}, Rooms: []Room{}, Cold: []ColdEvent{}}
}

// replay walks one transcript read from r.
func (rd *reader) replay(r io.Reader, src Source, opt Options, count func(int)) Session {
	s := newSession(src)
	w := walker{model: opt.NewModel(src.Path), prices: opt.Prices, series: opt.Series, out: &s}
	w.carry.done = func(cw span, ok bool) {
		switch {
		case !ok:
		case cw.point:
			p := w.pending[cw.index]
			p.ActualRequests, p.ActualCarryOnUSD = cw.requests, cw.cost.Total()
			p.ActualReadUSD, p.ActualWriteUSD, p.ActualOutputUSD = cw.cost.Read, cw.cost.Write, cw.cost.Output
			s.Points = append(s.Points, p)
		default:
			s.Pauses[cw.index].ActualCarryOnUSD = ptr(cw.cost.Total())
			s.Pauses[cw.index].ActualRequests = ptr(cw.requests)
		}
	}
	err := eachLine(r, rd.rd, count, func(line []byte) {
		transcript.Decode(line, func(r *transcript.Record) {
			if s.SessionID == "" && r.SessionID != "" {
				s.SessionID = r.SessionID
			}
			w.record(r, line)
		})
	})
	w.end()
	if opt.Prices != nil {
		rd.subagentCost(&s, src, opt.Prices)
	}
	slices.SortFunc(s.Points, func(a, b Point) int { return a.Response - b.Response })
	s.CarryOnMedianAbsError = median(carryOnErrors(s.Points))
	if err != nil {
		s.Error = err.Error()
	}
	if s.SessionID == "" {
		s.SessionID = strings.TrimSuffix(filepath.Base(src.Path), ".jsonl")
	}
	return s
}

// subagentCost adds what the session's subagents cost to its CostUSD:
// each of their responses once (the last record of a message.id), at its
// model's rates. A file that cannot be read adds nothing.
func (rd *reader) subagentCost(s *Session, src Source, p Prices) {
	for _, path := range src.Subagents {
		f, _, err := reading.Open(path)
		if err != nil {
			continue
		}
		type response struct {
			model string
			usage transcript.Usage
		}
		byID := map[string]response{}
		var order []string
		eachLine(f, rd.rd, func(int) {}, func(line []byte) {
			transcript.Decode(line, func(r *transcript.Record) {
				m := r.Message
				if r.Type != "assistant" || m == nil || m.Usage == nil || m.Model == transcript.Synthetic {
					return
				}
				if _, ok := byID[m.ID]; !ok || m.ID == "" {
					order = append(order, m.ID)
				}
				byID[m.ID] = response{m.Model, *m.Usage}
			})
		})
		f.Close()
		for _, id := range order {
			r := byID[id]
			if cost, ok := p.Cost(r.model, r.usage.Speed, &r.usage); ok {
				s.CostUSD = ptr(cost.Total() + deref(s.CostUSD))
			}
		}
	}
}

// eachLine calls fn with every line of r worth decoding (transcript's
// filter words: the history's records and the operator's prompts),
// without its newline, through the one forward reader, so that a line past
// reading.MaxLine is skipped as the hook skips it. A past session's file
// is complete: its last line counts without its newline. fn must not keep
// line; count is told the bytes read.
func eachLine(r io.Reader, rd *reading.Reader, count func(int), fn func(line []byte)) error {
	rd.Reset(r, 0)
	rd.Final = true
	var done int64
	for {
		line, err := rd.Next()
		count(int(rd.Offset() - done))
		done = rd.Offset()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(line) > 0 && (transcript.MayHoldHistory(line) || transcript.MayHoldPrompt(line)) {
			fn(line)
		}
	}
}

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
