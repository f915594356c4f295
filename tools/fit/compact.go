package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
)

// compactObs is one automatic compaction of the corpus and what followed
// it (design §4.2), in the terms Compaction is fitted in.
type compactObs struct {
	Session string
	// Pre is the context compacted; K0 the first request's context after
	// it and Fresh what that request wrote to the cache.
	Pre, K0, Fresh int64
	// Requests are the requests after the first before the session acted
	// again, Growth the context they added (design §8's reorientation).
	Requests float64
	Growth   int64
	// Model is the cost model at the last response before the compaction
	// (its rates, the forecast's output per request); Actual what the
	// episode cost: the first request after it and the reorientation.
	Model  restart.Model
	Actual float64
	// Starts are the readings the path is measured from (see
	// TestCompactionFigures).
	Starts []compactStart
}

// compactStart is one reading before a compaction from which the path
// is priced, and what the session really spent from it.
type compactStart struct {
	// C is the reading, Model the cost model the hook priced with there.
	C     int64
	Model restart.Model
	// Pause is set at the hook call that would give the climb's pause.
	Pause bool
	// What the session's own responses after C cost, up to the one
	// whose context, once it had re-oriented after the compaction, had
	// grown by the slice's rest: Stretch before the compaction, Episode
	// the first request after it and the re-orientation, Post the rest.
	Stretch, Episode, Post float64
}

// Actual is what the session spent over the path from s.
func (s *compactStart) Actual() float64 { return s.Stretch + s.Episode + s.Post }

// collectCompactions reads every automatic compaction of the transcripts
// under paths.
func collectCompactions(paths []string, table *prices.Table) ([]compactObs, error) {
	sources, err := replay.Discover(paths)
	if err != nil {
		return nil, err
	}
	s, err := tuning.FromEnv(func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	var out []compactObs
	for _, src := range sources {
		obs, err := sessionCompactions(src.Path, s, table)
		if err != nil {
			return nil, err
		}
		out = append(out, obs...)
	}
	return out, nil
}

// mainResponse is one own response as the pass saw it.
type mainResponse struct {
	id      string
	usage   transcript.Usage
	model   string
	context int64
	// m is the cost model the hook would have priced with after it.
	m      restart.Model
	priced bool
	// tool is set when it makes a tool call (the hook runs after it),
	// pause is the decision's pause line there.
	tool  bool
	pause int64
}

// sessionCompactions reads one transcript's automatic compactions.
func sessionCompactions(path string, s tuning.Settings, table *prices.Table) ([]compactObs, error) {
	sess, err := orientation.Read(path)
	if err != nil {
		return nil, err
	}
	_, phases := orientation.Phases(sess, orientation.NewPricer(table), orientation.Options{Finished: true})
	data, err := reading.ReadFile(path, 1<<30)
	if err != nil {
		return nil, err
	}
	var resp []mainResponse
	type bound struct {
		after int // main responses before it
		pre   int64
		auto  bool
	}
	var bounds []bound
	var h forecast.History
	rd := reading.NewReader(strings.NewReader(string(data)))
	for {
		line, err := rd.Next()
		if err != nil {
			break
		}
		transcript.Decode(line, func(r *transcript.Record) {
			if !h.AddRecord(r, line) {
				if r.Subtype == "compact_boundary" && r.CompactMetadata != nil {
					bounds = append(bounds, bound{len(resp), r.CompactMetadata.PreTokens, r.CompactMetadata.Trigger == "auto"})
				}
				return
			}
			u := *r.Message.Usage
			mr := mainResponse{id: r.Message.ID, usage: u, model: r.Message.Model, context: u.Context()}
			d := lines.Decide(lines.Input{Settings: s, Table: table, History: &h, Reading: mr.context})
			mr.m, mr.priced = d.At(mr.context), d.Priced
			mr.pause = d.Lines.Pause.Tokens
			mr.tool = replay.MakesToolCall(r.Message.Content)
			if n := len(resp); n > 0 && mr.id != "" && resp[n-1].id == mr.id {
				mr.tool = mr.tool || resp[n-1].tool
				resp[n-1] = mr
				return
			}
			resp = append(resp, mr)
		})
	}
	// Phases has one reorientation per boundary, microcompactions too, in
	// order: the compactions' are those of compact_boundary records.
	var compactPhases []ledger2
	for _, ph := range phases {
		if ph.Trigger != "micro" {
			compactPhases = append(compactPhases, ledger2{ph.Trigger, ph.ContextTokens, ph.Spend.Responses, ph.Spend.CostUSD})
		}
	}
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	tp := replay.TablePrices{Table: table}
	cost := func(r *mainResponse) float64 {
		p, _ := tp.Cost(r.model, r.usage.Speed, &r.usage)
		return p.Total()
	}
	climbStart := func(i int) int {
		if i > 0 {
			return bounds[i-1].after
		}
		return 0
	}
	next := func(i int) int {
		if i+1 < len(bounds) {
			return bounds[i+1].after
		}
		return len(resp)
	}
	var out []compactObs
	for i, b := range bounds {
		if !b.auto || b.after == 0 || b.after >= len(resp) || i >= len(compactPhases) {
			continue
		}
		before, first := &resp[b.after-1], &resp[b.after]
		ph := compactPhases[i]
		if !before.priced || ph.context <= 0 {
			// Unpriced, or the session never acted again.
			continue
		}
		o := compactObs{Session: id, Pre: b.pre, K0: first.context, Fresh: first.usage.CacheCreationInputTokens,
			Growth: max(ph.context-first.context, 0), Model: before.m, Actual: ph.cost}
		o.Requests = float64(max(ph.responses-1, 0))
		if ph.responses == 0 {
			// The first request after the compaction acted: it is not in
			// the phase's spend, but it re-wrote the context all the same.
			o.Actual = cost(first)
		}
		o.Starts = compactStarts(resp, b.pre, ph, bounds[i].after, climbStart(i), next(i), cost)
		out = append(out, o)
	}
	return out, nil
}

// compactStarts are the readings of the climb resp[from:after] before a
// compaction of pre tokens from which the path is measured: every priced
// hook call (a response with a tool call) from which the compaction lies
// within the slice, and what the session's responses up to next (the
// next compaction, or its end) spent from there; ph is the
// re-orientation after it. A reading after which the session did not go
// on far enough is left out.
func compactStarts(resp []mainResponse, pre int64, ph ledger2, after, from, next int, cost func(*mainResponse) float64) []compactStart {
	// The re-orientation ends with the phase's last response (the first
	// after the compaction when that one acted).
	epEnd := after
	if ph.responses > 0 {
		epEnd = min(after+int(ph.responses)-1, next-1)
	}
	var out []compactStart
	paused := false
	for j := from; j < after; j++ {
		r := &resp[j]
		if !r.priced || !r.tool || r.context >= pre {
			continue
		}
		st := compactStart{C: r.context, Model: r.m, Pause: !paused && r.context >= r.pause}
		paused = paused || st.Pause
		if pre-r.context >= restart.Slice {
			continue
		}
		end := ph.context + restart.Slice - (pre - r.context)
		for x := j + 1; x < next; x++ {
			c := cost(&resp[x])
			switch {
			case x < after:
				st.Stretch += c
			case x <= epEnd:
				st.Episode += c
			default:
				st.Post += c
			}
			if x >= epEnd && resp[x].context >= end {
				out = append(out, st)
				break
			}
		}
	}
	return out
}

// ledger2 is what sessionCompactions keeps of a reorientation phase.
type ledger2 struct {
	trigger   string
	context   int64
	responses int64
	cost      float64
}

// fitCompaction fits the parts of a compaction on xs: each the median of
// its measure, so that a few wild compactions cannot drag it.
func fitCompaction(xs []*compactObs) restart.Compaction {
	var post, fresh, req, growth []float64
	for _, x := range xs {
		post = append(post, float64(x.K0)/float64(x.Pre))
		if x.K0 > 0 {
			fresh = append(fresh, float64(x.Fresh)/float64(x.K0))
		}
		req = append(req, x.Requests)
		growth = append(growth, float64(x.Growth))
	}
	return restart.Compaction{PostShare: round3(median(post)), FreshShare: round3(median(fresh)),
		Requests: median(req), Growth: math.Round(median(growth))}
}

// compactResult is the compaction's fit and its cross-validated errors.
type compactResult struct {
	obs     []*compactObs
	shipped restart.Compaction
	episode []float64 // held-out predictions of each episode
	// path are the held-out predictions of the path from every start,
	// less the summary request, in the order of obs and their Starts.
	path     []pathPred
	sessions int
}

// pathPred is one start's held-out prediction of the path, by part.
type pathPred struct {
	x                      *compactObs
	s                      *compactStart
	stretch, episode, post float64
}

func (p pathPred) total() float64 { return p.stretch + p.episode + p.post }

// pathParts prices the path from s with k, by part, less the summary
// request: carrying on to the point, the episode after the compaction,
// and the rest of the slice from the context after it. They add up to
// Model.Compact less pre·r + O.
func pathParts(s *compactStart, pre int64, k restart.Compaction) (stretch, episode, post float64) {
	m, g := s.Model, max(pre-s.C, 0)
	return m.Over(s.C, g), m.CompactEpisode(pre, k), m.Over(k.After(pre), restart.Slice-g)
}

// fitCompactions fits on all of xs and, fold by fold, on four folds to
// predict the fifth.
func fitCompactions(obs []compactObs) *compactResult {
	r := &compactResult{}
	seen := map[string]bool{}
	for i := range obs {
		r.obs = append(r.obs, &obs[i])
		seen[obs[i].Session] = true
	}
	r.sessions = len(seen)
	r.shipped = fitCompaction(r.obs)
	r.episode = make([]float64, len(r.obs))
	preds := make([][]pathPred, len(r.obs))
	heldOut(r.obs, func(x *compactObs) string { return x.Session }, fitCompaction, func(i int, c restart.Compaction) {
		x := r.obs[i]
		r.episode[i] = x.Model.CompactEpisode(x.Pre, c)
		for j := range x.Starts {
			s := &x.Starts[j]
			p := pathPred{x: x, s: s}
			p.stretch, p.episode, p.post = pathParts(s, x.Pre, c)
			preds[i] = append(preds[i], p)
		}
	})
	for _, p := range preds {
		r.path = append(r.path, p...)
	}
	return r
}

// pathErr is the median relative error of part (of a prediction, against
// the same part of what the session spent) over the starts keep keeps,
// each compaction weighing one however many starts it has; and how many
// starts and compactions.
func (r *compactResult) pathErr(keep func(pathPred) bool, part func(pathPred) (pred, actual float64)) (e float64, starts, compactions int) {
	n := map[*compactObs]float64{}
	for _, p := range r.path {
		if keep(p) {
			n[p.x]++
		}
	}
	var errs, ws []float64
	for _, p := range r.path {
		if keep(p) {
			pred, actual := part(p)
			errs = append(errs, relErr(pred, actual))
			ws = append(ws, 1/n[p.x])
		}
	}
	return weightedMedian(errs, ws), len(errs), len(n)
}

func everyStart(pathPred) bool { return true }
func atPause(p pathPred) bool  { return p.s.Pause }
func wholePath(p pathPred) (float64, float64) {
	return p.total(), p.s.Actual()
}

// errors are the median relative errors held out: of the episode over
// every compaction, and of the path over every start, with their counts.
func (r *compactResult) errors() (episode, path float64, nEpisode, nStarts, nPath int) {
	var e []float64
	for i, x := range r.obs {
		if x.Actual > 0 {
			e = append(e, relErr(r.episode[i], x.Actual))
		}
	}
	path, nStarts, nPath = r.pathErr(everyStart, wholePath)
	return median(e), path, len(e), nStarts, nPath
}

// report says what the compaction's fit measured.
func (r *compactResult) report() string {
	e, p, ne, ns, np := r.errors()
	pause, npause, _ := r.pathErr(atPause, wholePath)
	stretch, _, _ := r.pathErr(everyStart, func(p pathPred) (float64, float64) { return p.stretch, p.s.Stretch })
	post, _, _ := r.pathErr(everyStart, func(p pathPred) (float64, float64) { return p.post, p.s.Post })
	c := r.shipped
	return fmt.Sprintf("compaction: %d automatic compactions in %d sessions: the first request after one carries %.1f%% of the context compacted, writing %.1f%% of it to the cache; then %.0f requests and %.0f tokens of growth before the session acts again\n"+
		"compaction: median |predicted − actual| / actual, cross-validated by session: the episode after it %.1f%% (%d compactions); the path less the summary request %.1f%% (%d hook calls before %d compactions, each compaction weighing one; at the pause alone %.1f%%, %d), its stretch to the point %.1f%% and its rest after the episode %.1f%%, both at the forecast's pace\n",
		len(r.obs), r.sessions, 100*c.PostShare, 100*c.FreshShare, c.Requests, c.Growth, 100*e, ne, 100*p, ns, np, 100*pause, npause, 100*stretch, 100*post)
}
