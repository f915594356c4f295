package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
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
	"github.com/muthur/context-budget/internal/window"
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
	// The whole figure where the session shows it: at C, the first
	// response of the climb whose reading reached the window's pause
	// line (the point less the pause's room), the figure less the
	// summary request (not in the transcript), against SliceActual, what
	// the session's own responses after C cost up to the one whose
	// context, after the compaction, had grown by the slice's rest.
	C           int64
	CModel      restart.Model
	SliceActual float64
	// StretchActual is the part of SliceActual before the compaction:
	// from C to the point, carried on at the session's pace.
	StretchActual float64
}

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
			if n := len(resp); n > 0 && mr.id != "" && resp[n-1].id == mr.id {
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
		// The whole figure, from where the window's pause would have come.
		climbStart := 0
		if i > 0 {
			climbStart = bounds[i-1].after
		}
		line := b.pre - window.EnoughRoom - window.Shipped().StepAllowance
		for j := climbStart; j < b.after; j++ {
			if resp[j].context >= line && resp[j].priced && resp[j].context < b.pre {
				o.C, o.CModel = resp[j].context, resp[j].m
				rest := restart.Slice - max(b.pre-o.C, 0)
				end := ph.context + rest
				next := len(resp)
				if i+1 < len(bounds) {
					next = bounds[i+1].after
				}
				sum, stretch, reached := 0.0, 0.0, false
				for x := j + 1; x < next; x++ {
					sum += cost(&resp[x])
					if x < b.after {
						stretch += cost(&resp[x])
					}
					if x >= b.after && resp[x].context >= end {
						reached = true
						break
					}
				}
				if reached {
					o.SliceActual, o.StretchActual = sum, stretch
				}
				break
			}
		}
		out = append(out, o)
	}
	return out, nil
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
	obs      []*compactObs
	shipped  restart.Compaction
	episode  []float64 // held-out predictions of each episode
	slice    []float64 // held-out predictions of the whole figure, less the summary; NaN where unmeasured
	sessions int
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
	r.slice = make([]float64, len(r.obs))
	heldOut(r.obs, func(x *compactObs) string { return x.Session }, fitCompaction, func(i int, c restart.Compaction) {
		x := r.obs[i]
		r.episode[i] = x.Model.CompactEpisode(x.Pre, c)
		r.slice[i] = math.NaN()
		if x.SliceActual > 0 {
			fig, _ := x.CModel.Compact(x.C, x.Pre, c)
			r.slice[i] = fig - float64(x.Pre)*x.CModel.Read - x.CModel.O()
		}
	})
	return r
}

// errors are the median relative errors held out: of the episode over
// every compaction, of the whole figure where measured, and how many.
func (r *compactResult) errors() (episode float64, slice float64, nEpisode, nSlice int) {
	var e, s []float64
	for i, x := range r.obs {
		if x.Actual > 0 {
			e = append(e, relErr(r.episode[i], x.Actual))
		}
		if !math.IsNaN(r.slice[i]) {
			s = append(s, relErr(r.slice[i], x.SliceActual))
		}
	}
	return median(e), median(s), len(e), len(s)
}

// stretchError is the median relative error, where the whole figure is
// measured, of its stretch from C to the point: carrying on at the
// forecast's pace, which the compaction's parts do not touch.
func (r *compactResult) stretchError() float64 {
	var s []float64
	for _, x := range r.obs {
		if x.SliceActual > 0 && x.StretchActual > 0 {
			s = append(s, relErr(x.CModel.Over(x.C, max(x.Pre-x.C, 0)), x.StretchActual))
		}
	}
	return median(s)
}

// report says what the compaction's fit measured.
func (r *compactResult) report() string {
	e, s, ne, ns := r.errors()
	c := r.shipped
	var pre []float64
	for _, x := range r.obs {
		pre = append(pre, float64(x.Pre))
	}
	slices.Sort(pre)
	return fmt.Sprintf("compaction: %d automatic compactions in %d sessions: the first request after one carries %.1f%% of the context compacted, writing %.1f%% of it to the cache; then %.0f requests and %.0f tokens of growth before the session acts again\n"+
		"compaction: median |predicted − actual| / actual, cross-validated by session: the episode after it %.1f%% (%d compactions), the whole figure less the summary request %.1f%% (%d compactions the session went on far enough to measure), of which the stretch from the pause to the point, at the forecast's pace, %.1f%%\n",
		len(r.obs), r.sessions, 100*c.PostShare, 100*c.FreshShare, c.Requests, c.Growth, 100*e, ne, 100*s, ns, 100*r.stretchError())
}
