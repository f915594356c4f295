package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/ledger"
)

// orientObs is one session's own orientation (design §8: what it spent
// before it first acted) and what a successor knows at its start: its
// first context and its model's rates. Fresh sessions stand in for
// successors: the corpus has no relays.
type orientObs struct {
	Session string
	// C1 and P1 are the first own response's context and cache read.
	C1, P1 int64
	Rates  restart.Rates
	// W and R are the acting response's context and what the session
	// spent before it; Spend splits R.
	W     int64
	R     float64
	Spend ledger.Tally
}

// collectOrientations measures the orientation of every session under
// paths that acted, priced by table at the rates of its first response's
// model and the session's cache TTL.
func collectOrientations(paths []string, table *prices.Table) ([]orientObs, error) {
	sources, err := replay.Discover(paths)
	if err != nil {
		return nil, err
	}
	pr := orientation.NewPricer(table)
	var out []orientObs
	for _, src := range sources {
		s, err := orientation.Read(src.Path)
		if err != nil {
			return nil, err
		}
		ph := orientation.Orientation(s, pr, orientation.Options{Finished: true})
		if !ph.Measured() {
			continue
		}
		var first *orientation.Response
		ttl1h := false
		for i := range s.Responses {
			if r := &s.Responses[i]; !r.Sub {
				if first == nil {
					first = r
				}
				ttl1h = ttl1h || r.Usage.Write1h() > 0
			}
		}
		row, ok := table.Lookup(first.Model, first.Speed())
		if !ok {
			continue
		}
		w := row.CacheWrite5m
		if ttl1h {
			w = row.CacheWrite1h
		}
		out = append(out, orientObs{Session: strings.TrimSuffix(filepath.Base(src.Path), ".jsonl"),
			C1: first.Usage.Context(), P1: first.Usage.CacheReadInputTokens,
			Rates: restart.PerMillion(row.Output, row.CacheRead, w),
			W:     ph.ContextTokens, R: ph.Spend.CostUSD, Spend: ph.Spend})
	}
	return out, nil
}

// fitRamp fits the ramp on xs, each figure on what it forecasts with the
// robust loss (each minimiser a median, so that a few sessions that read
// a whole repository before acting cannot drag it): Growth on the acting
// context, FirstWrite on the tokens written (and sent uncached), Requests
// on the tokens read, OutPerRequest on the output.
func fitRamp(xs []*orientObs) restart.Ramp {
	sum := func(f func(x *orientObs) (pred, actual float64)) float64 {
		var s float64
		for _, x := range xs {
			if p, a := f(x); a > 0 {
				s += loss(p, a)
			}
		}
		return s
	}
	var k restart.Ramp
	k.Growth = math.Round(golden(0, 200_000, func(g float64) float64 {
		return sum(func(x *orientObs) (float64, float64) { return float64(x.C1) + g, float64(x.W) })
	}))
	k.FirstWrite = round3(golden(0, 1, func(f float64) float64 {
		return sum(func(x *orientObs) (float64, float64) {
			written := x.Spend.CacheWrite5mTokens + x.Spend.CacheWrite1hTokens + x.Spend.InputTokens
			return f*float64(x.C1) + k.Growth, float64(written)
		})
	}))
	k.Requests = round3(golden(0, 100, func(n float64) float64 {
		return sum(func(x *orientObs) (float64, float64) {
			return n * (float64(x.C1) + k.Growth/2), float64(x.Spend.CacheReadTokens)
		})
	}))
	k.OutPerRequest = math.Round(golden(0, 10_000, func(o float64) float64 {
		return sum(func(x *orientObs) (float64, float64) { return k.Requests * o, float64(x.Spend.OutputTokens) })
	}))
	return k
}

// designEstimate is the fixed estimate of design §8 the ramp replaces
// (W = C₁ + 60k; R = (C₁ − P₁ + 60k)·w + 10·(C₁ + 30k)·r + 10·700·o),
// kept here only to report what the fit changed.
func designEstimate(x *orientObs) (int64, float64) {
	const rampUp, requests, out = 60_000, 10, 700
	c := float64(x.C1)
	return x.C1 + rampUp, (c-float64(x.P1)+rampUp)*x.Rates.Write + requests*(c+rampUp/2)*x.Rates.Read + requests*out*x.Rates.Output
}

// orientResult is the ramp's fit and its cross-validated forecasts.
type orientResult struct {
	obs     []*orientObs
	shipped restart.Ramp
	// w and r are each session's held-out forecast; ew and er the
	// design's estimate's.
	w, r, ew, er []float64
}

// fitOrientations fits the ramp on all of obs and, fold by fold, on four
// folds to forecast the fifth.
func fitOrientations(obs []orientObs) *orientResult {
	r := &orientResult{}
	for i := range obs {
		r.obs = append(r.obs, &obs[i])
	}
	r.shipped = fitRamp(r.obs)
	n := len(r.obs)
	r.w, r.r, r.ew, r.er = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	heldOut(r.obs, func(x *orientObs) string { return x.Session }, fitRamp, func(i int, ramp restart.Ramp) {
		x := r.obs[i]
		w, usd := ramp.Reorientation(x.Rates, x.C1)
		r.w[i], r.r[i] = float64(w), usd
	})
	for i, x := range r.obs {
		w, usd := designEstimate(x)
		r.ew[i], r.er[i] = float64(w), usd
	}
	return r
}

// orientErr is the median |predicted − actual| / actual of pred against
// the sessions' orientation in tokens or dollars. A session that acted in
// its first response spent nothing before it: any forecast of it counts
// as infinitely wrong, not left out.
func orientErr(xs []*orientObs, pred []float64, dollars bool) float64 {
	e := make([]float64, len(xs))
	for i, x := range xs {
		actual := float64(x.W)
		if dollars {
			actual = x.R
		}
		e[i] = math.Inf(1)
		if actual > 0 {
			e[i] = relErr(pred[i], actual)
		}
	}
	return median(e)
}

// errors are the ramp's cross-validated median errors in tokens and
// dollars, and the design's estimate's.
func (r *orientResult) errors() (w, usd, estW, estUSD float64) {
	return orientErr(r.obs, r.w, false), orientErr(r.obs, r.r, true), orientErr(r.obs, r.ew, false), orientErr(r.obs, r.er, true)
}

// report says what the orientation's fit measured.
func (r *orientResult) report() string {
	w, usd, ew, eusd := r.errors()
	k := r.shipped
	zero := 0
	for _, x := range r.obs {
		if x.R == 0 {
			zero++
		}
	}
	return fmt.Sprintf("orientation: %d sessions that acted (%d in their first response, for nothing): from its first context a fresh session grows %.0f tokens before it acts, writing %.1f%% of that context and the growth, over %.2f requests of %.0f output tokens\n"+
		"orientation: median |predicted − actual| / actual, cross-validated by session: %.1f%% in tokens, %.1f%% in dollars (the fixed estimate it replaces: %.1f%%, %.1f%%)\n",
		len(r.obs), zero, k.Growth, 100*k.FirstWrite, k.Requests, k.OutPerRequest, 100*w, 100*usd, 100*ew, 100*eusd)
}
