package main

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/restart"
)

// Folds is the number of cross-validation folds; sessions, never points,
// are split between them.
const Folds = 5

// MinFamilyPoints and MinFamilySessions are what a model family needs in
// the training data for a prior of its own; with less it takes the
// corpus-wide one.
const (
	MinFamilyPoints   = 40
	MinFamilySessions = 8
)

// priors is a fitted prior per family and the corpus-wide one.
type priors struct {
	all    forecast.Prior
	family map[string]forecast.Prior
}

func (p priors) of(family string) forecast.Prior {
	if pr, ok := p.family[family]; ok {
		return pr
	}
	return p.all
}

// carryOn is what the cost model forecasts for x's slice from an estimate.
func carryOn(x *obs, e forecast.Estimate) float64 {
	m := restart.Model{Rates: x.Rates, Q: e.Q, Rewrite: e.Rewrite, OutPerRequest: e.OutPerRequest}
	return m.CarryOn(x.Reading)
}

// predict is the forecast at x with prior pr and weights w.
func predict(x *obs, pr forecast.Prior, w forecast.Weights) float64 {
	return carryOn(x, x.Ev.Forecast(pr, w))
}

// loss is the robust loss of a forecast: |log(predicted/actual)|, whose
// minimiser puts the forecast at the median of what sessions cost, and
// which a few wild slices cannot drag.
func loss(pred, actual float64) float64 {
	if pred <= 0 || actual <= 0 {
		return math.Inf(1)
	}
	return math.Abs(math.Log(pred / actual))
}

// relErr is the reported error: |predicted − actual| / actual.
func relErr(pred, actual float64) float64 { return math.Abs(pred-actual) / actual }

// fitPrior fits one prior on xs with weights w, each figure on what it
// forecasts, so that each stays what it says and one cannot stand in for
// another (at the early points where the forecast matters, a higher pace
// and more re-writes both scale with the context, and a fit on the total
// alone trades one for the other):
//
//   - Step on the slice's requests: |log(S·q̂ / requests)| (and, when
//     elastic, its Elasticity, from elasticityGrid);
//   - Rewrite on the slice's cache writes and input, given its real
//     requests: |log((S + ρ̂·n·(C + S/2))·w / writes)|;
//   - Out on the slice's output per request: |log(ō̂ / output per request)|.
//
// Each is a robust loss whose minimiser is a median, so a few wild
// slices cannot drag the prior.
func fitPrior(xs []*obs, w forecast.Weights, elastic bool) forecast.Prior {
	var pr forecast.Prior
	if len(xs) == 0 {
		return start
	}
	stepLoss := func(p forecast.Prior) float64 {
		var s float64
		for _, x := range xs {
			s += loss(restart.Slice*x.Ev.Forecast(p, w).Q, float64(x.ActualRequests))
		}
		return s
	}
	best := math.Inf(1)
	els := []float64{0}
	if elastic {
		els = elasticityGrid
	}
	for _, el := range els {
		st := math.Exp(golden(math.Log(100), math.Log(100_000), func(v float64) float64 {
			return stepLoss(forecast.Prior{Step: math.Exp(v), Elasticity: el})
		}))
		if l := stepLoss(forecast.Prior{Step: st, Elasticity: el}); l < best {
			best, pr.Step, pr.Elasticity = l, st, el
		}
	}
	pr.Rewrite = math.Exp(golden(math.Log(1e-5), math.Log(0.5), func(v float64) float64 {
		p := forecast.Prior{Step: start.Step, Rewrite: math.Exp(v), Out: start.Out}
		var s float64
		for _, x := range xs {
			e := x.Ev.Forecast(p, w)
			mid := float64(x.Reading) + restart.Slice/2
			writes := (restart.Slice + e.Rewrite*float64(x.ActualRequests)*mid) * x.Rates.Write
			s += loss(writes, x.ActualParts.Write)
		}
		return s
	}))
	pr.Out = math.Exp(golden(math.Log(0.1), math.Log(100_000), func(v float64) float64 {
		p := forecast.Prior{Step: start.Step, Rewrite: start.Rewrite, Out: math.Exp(v)}
		var s float64
		for _, x := range xs {
			out := x.ActualParts.Output / x.Rates.Output / float64(x.ActualRequests)
			s += loss(x.Ev.Forecast(p, w).OutPerRequest, out)
		}
		return s
	}))
	return pr
}

// golden minimises f over [a, b]: on a grid first, so that a loss with
// several dips (a sum of absolute values is piecewise smooth) starts in
// the right one, then by golden-section search around the best.
func golden(a, b float64, f func(float64) float64) float64 {
	const steps = 40
	best, bestF := a, math.Inf(1)
	for i := range steps + 1 {
		x := a + (b-a)*float64(i)/steps
		if fx := f(x); fx < bestF {
			best, bestF = x, fx
		}
	}
	h := (b - a) / steps
	lo, hi := max(a, best-h), min(b, best+h)
	const phi = 0.6180339887498949
	x1, x2 := hi-phi*(hi-lo), lo+phi*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for range 60 {
		if f1 < f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - phi*(hi-lo)
			f1 = f(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + phi*(hi-lo)
			f2 = f(x2)
		}
	}
	return (lo + hi) / 2
}

// start is where the fits begin: the design's defaults.
var start = forecast.Prior{Step: forecast.DefaultStep, Rewrite: forecast.DefaultRewrite, Out: forecast.DefaultOut}

// fitPriors fits the corpus-wide prior and, when byFamily, one per family
// with enough data.
func fitPriors(xs []*obs, sc scheme) priors {
	w, byFamily := sc.w, sc.byFamily
	p := priors{all: fitPrior(xs, w, sc.elastic), family: map[string]forecast.Prior{}}
	if !byFamily {
		return p
	}
	groups := map[string][]*obs{}
	sessions := map[string]map[string]bool{}
	for _, x := range xs {
		groups[x.Family] = append(groups[x.Family], x)
		if sessions[x.Family] == nil {
			sessions[x.Family] = map[string]bool{}
		}
		sessions[x.Family][x.Session] = true
	}
	for fam, g := range groups {
		if len(g) >= MinFamilyPoints && len(sessions[fam]) >= MinFamilySessions {
			p.family[fam] = fitPrior(g, w, sc.elastic)
		}
	}
	return p
}

// fold is the session's fold: a hash of its id, so the split does not
// depend on the order files are read in.
func fold(session string) int {
	h := fnv.New32a()
	h.Write([]byte(session))
	return int(h.Sum32() % Folds)
}

// scheme is one way of forecasting: weights, and whether priors are per
// family.
type scheme struct {
	w        forecast.Weights
	byFamily bool
	// elastic lets the prior pace rise with the context.
	elastic bool
}

// crossValidate fits the scheme on four folds and forecasts the fifth,
// for each fold, and returns every point's held-out forecast.
func crossValidate(xs []*obs, sc scheme) []float64 {
	pred := make([]float64, len(xs))
	var wg sync.WaitGroup
	for k := range Folds {
		wg.Go(func() {
			var train []*obs
			for _, x := range xs {
				if fold(x.Session) != k {
					train = append(train, x)
				}
			}
			p := fitPriors(train, sc)
			for i, x := range xs {
				if fold(x.Session) == k {
					pred[i] = predict(x, p.of(x.Family), sc.w)
				}
			}
		})
	}
	wg.Wait()
	return pred
}

// heldOut fits on four folds of xs (split by session) and hands each of
// the fifth's indices to predict with that fit, for every fold.
func heldOut[T any, M any](xs []*T, session func(*T) string, fit func([]*T) M, predict func(i int, m M)) {
	for k := range Folds {
		var train []*T
		for _, x := range xs {
			if fold(session(x)) != k {
				train = append(train, x)
			}
		}
		m := fit(train)
		for i, x := range xs {
			if fold(session(x)) == k {
				predict(i, m)
			}
		}
	}
}

// medianErr is the median relative error of pred against the actuals.
func medianErr(xs []*obs, pred []float64) float64 {
	errs := make([]float64, len(xs))
	for i, x := range xs {
		errs[i] = relErr(pred[i], x.Actual)
	}
	return median(errs)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// quantile is the q-quantile of v by linear interpolation.
func quantile(v []float64, q float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(v)-1)
	i := int(pos)
	if i+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[i] + (pos-float64(i))*(v[i+1]-v[i])
}

// inf is the weight of a prior that no session's evidence moves.
const inf = 1e9

// elasticityGrid is the elasticities of the pace to the context tried.
var elasticityGrid = []float64{0, 0.25, 0.5, 0.75, 1, 1.25}

// grid is the weights tried, in each unit.
var grid = []float64{0, 1, 3, 10, 30, 100, 300, 1000, inf}

// weightedMedian is the median of v, each value weighing w[i].
func weightedMedian(v, w []float64) float64 {
	idx := make([]int, len(v))
	total := 0.0
	for i := range idx {
		idx[i] = i
		total += w[i]
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	acc := 0.0
	for _, i := range idx {
		acc += w[i]
		if acc >= total/2 {
			return v[i]
		}
	}
	return math.NaN()
}
