package main

import (
	"bytes"
	"github.com/muthur/context-budget/internal/restart"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/tools/sharedtest"
)

var (
	once   sync.Once
	fitted *result
	fitErr error
)

// corpusFit fits the shared corpus once for the tests of this package,
// or skips without it.
func corpusFit(t *testing.T) *result {
	t.Helper()
	dir := sharedtest.CorpusOrSkip(t)
	if testing.Short() {
		t.Skip("the fit takes a minute or two")
	}
	once.Do(func() {
		table, err := prices.Embedded()
		if err != nil {
			fitErr = err
			return
		}
		c, err := collect([]string{dir}, table)
		if err != nil {
			fitErr = err
			return
		}
		fitted = fitCorpus(c)
		obs, err := collectCompactions([]string{dir}, table)
		if err != nil {
			fitErr = err
			return
		}
		fitted.compact = fitCompactions(obs)
		orient, err := collectOrientations([]string{dir}, table)
		if err != nil {
			fitErr = err
			return
		}
		fitted.orient = fitOrientations(orient)
	})
	if fitErr != nil {
		t.Fatal(fitErr)
	}
	return fitted
}

// TestCorpusFigures prints what the fit measures on the corpus (go test
// -v -run CorpusFigures ./tools/fit) and holds the issue's
// bars: cross-validated by session, the forecast is at least as good as
// the best single corpus-wide constant and better than the design's
// estimator and the forecast before the fit, and the band holds the share
// it claims within 5 points.
func TestCorpusFigures(t *testing.T) {
	r := corpusFit(t)
	t.Log("\n" + r.report())
	cv := map[string]float64{}
	for _, f := range r.figures {
		cv[f.name[:3]], _ = r.errOf(f.cv, "")
	}
	if cv["(b)"] > cv["(a)"] {
		t.Errorf("the forecast's CV error %.3f is above the corpus-wide constant's %.3f", cv["(b)"], cv["(a)"])
	}
	if cv["(b)"] >= cv["(c)"] || cv["(b)"] >= cv["(d)"] {
		t.Errorf("the forecast's CV error %.3f does not beat since-boundary (%.3f) and the forecast before the fit (%.3f)",
			cv["(b)"], cv["(c)"], cv["(d)"])
	}
	if d := r.coverage - r.band.Share; d < -0.05 || d > 0.05 {
		t.Errorf("the band claims %.0f%% and holds %.1f%% of held-out points", 100*r.band.Share, 100*r.coverage)
	}
	if r.band.Lo >= 1 || r.band.Hi <= 1 {
		t.Errorf("band %+v does not hold the forecast itself", r.band)
	}
}

// TestCompactionFigures reports what the compaction's fit measures on the
// corpus, cross-validated by session (go test -v -run CompactionFigures
// ./tools/fit), and holds it where it was measured, so that a change that
// makes it worse shows.
//
// The episode: over every automatic compaction whose session acted again,
// the first request after it and the re-orientation, priced with the
// compaction's parts (Model.CompactEpisode) against what those responses
// cost.
//
// The path (issue 38's "compaction path"): the figure the verdict
// compares relaying with (Model.Compact) against what the session spent.
// Its readings are every hook call before an automatic compaction that
// the hook priced and from which the compaction lies within the slice
// (the reading is under the compacted context and at most 100k below
// it): the pause and every other reading where `lines` and the status
// line price the compaction. From each, the figure is priced with the
// cost model the hook had there, at the compaction's real point
// (preTokens: the path's price, not the point's forecast), with the
// compaction's parts fitted on the other four folds' compactions; what
// the session spent is its own responses after the reading, up to the one
// whose context, once it had re-oriented after the compaction, had grown
// by the slice's rest (100k less the growth to the point). A reading
// after which the session ended sooner is left out. The summary request
// is not in the transcript: the figure is compared less it (less the
// model's pre·r + O), never priced on one side alone. The error is the
// median of |figure − spent| / spent, each compaction weighing one
// however many readings it has (a long climb is one compaction, not
// hundreds of independent tries).
//
// The path is mostly carrying on at the session's pace over a stretch
// shorter than the forecast's slice: its error is bounded below by the
// carry-on forecast's own (the report gives the stretch's and the rest's
// error by themselves).
func TestCompactionFigures(t *testing.T) {
	r := corpusFit(t)
	c := r.compact
	t.Log("\n" + c.report())
	episode, path, ne, ns, np := c.errors()
	if ne < 40 {
		t.Errorf("only %d compactions with an episode; the corpus holds 49 automatic ones", ne)
	}
	if episode > 0.45 {
		t.Errorf("the episode's cross-validated error is %.1f%%; it was 38.9%%", 100*episode)
	}
	if np < 40 || ns < 1000 {
		t.Errorf("the path is measured from %d readings before %d compactions; it was 1,287 before 44", ns, np)
	}
	if path > 0.28 {
		t.Errorf("the path's cross-validated error is %.1f%%; it was 25.0%%", 100*path)
	}
}

// TestOrientationFigures reports what the orientation's fit measures on
// the corpus, cross-validated by session (go test -v -run
// OrientationFigures ./tools/fit): how far the prior's forecast of a
// fresh session's orientation lies from what the session's own cost, in
// tokens and in dollars; and holds the aims, 30% and 60%, and
// that it beats the fixed estimate it replaced.
func TestOrientationFigures(t *testing.T) {
	r := corpusFit(t)
	o := r.orient
	t.Log("\n" + o.report())
	w, usd, ew, eusd := o.errors()
	if len(o.obs) < 150 {
		t.Errorf("only %d sessions with an orientation; the corpus holds 186", len(o.obs))
	}
	if w > 0.30 || usd > 0.60 {
		t.Errorf("cross-validated: %.1f%% in tokens, %.1f%% in dollars; want within 30%% and 60%%", 100*w, 100*usd)
	}
	if w >= ew || usd >= eusd {
		t.Errorf("the prior (%.1f%%, %.1f%%) does not beat the fixed estimate (%.1f%%, %.1f%%)", 100*w, 100*usd, 100*ew, 100*eusd)
	}
}

// TestShippedPriorIsCurrent fails when a refit from the corpus would
// change the shipped prior: the fit or the corpus changed and `go
// generate ./internal/forecast` was not run.
func TestShippedPriorIsCurrent(t *testing.T) {
	r := corpusFit(t)
	want, err := r.source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../internal/forecast/prior_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("internal/forecast/prior_gen.go is not what a refit from the corpus gives; run go generate ./internal/forecast\nrefit:\n%s", want)
	}
}

// TestFold: the split is by session and spreads sessions over every fold.
func TestFold(t *testing.T) {
	seen := map[int]int{}
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"} {
		k := fold(id)
		if k != fold(id) || k < 0 || k >= Folds {
			t.Fatalf("fold(%q) = %d", id, k)
		}
		seen[k]++
	}
	if len(seen) < 3 {
		t.Errorf("16 sessions fall in only %d folds: %v", len(seen), seen)
	}
}

// TestGolden finds the minimum of a piecewise-linear loss with two dips.
func TestGolden(t *testing.T) {
	f := func(x float64) float64 { return min(abs(x-3)+0.5, abs(x-7)) }
	if x := golden(0, 10, f); abs(x-7) > 1e-6 {
		t.Errorf("golden = %v, want 7", x)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPathPartsAreCompact: the parts the path is measured by add up to
// the figure the verdict uses, less its summary request, so that the
// measurement measures the shipped figure.
func TestPathPartsAreCompact(t *testing.T) {
	m := restart.Model{Rates: restart.PerMillion(25, 0.5, 6.25), Q: 1.0 / 1275, Rewrite: 0.0249, OutPerRequest: 42}
	k := restart.Compaction{PostShare: 0.321, FreshShare: 0.467, Requests: 2, Growth: 7904}
	for _, c := range []int64{70_000, 130_000, 166_000} {
		s := compactStart{C: c, Model: m}
		a, b, d := pathParts(&s, 167_000, k)
		fig, ok := m.Compact(c, 167_000, k)
		if want := fig - 167_000*m.Read - m.O(); !ok || math.Abs(a+b+d-want) > 1e-9 {
			t.Errorf("at %d: parts %v + %v + %v, want %v (ok %v)", c, a, b, d, want, ok)
		}
	}
}

// TestWeightedMedian: each value counts by its weight.
func TestWeightedMedian(t *testing.T) {
	if got := weightedMedian([]float64{5, 1, 9}, []float64{1, 1, 1}); got != 5 {
		t.Errorf("equal weights: %v, want 5", got)
	}
	// Three values of one compaction weigh a third each: 9 alone outweighs them.
	if got := weightedMedian([]float64{1, 2, 3, 9, 10}, []float64{1. / 3, 1. / 3, 1. / 3, 1, 1}); got != 9 {
		t.Errorf("weighted: %v, want 9", got)
	}
}
