package main

import (
	"bytes"
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
// ./tools/fit): the error of the episode after an automatic compaction
// (the first request and the re-orientation) over every one, and of the
// whole figure a notice quotes, less the summary request the transcripts
// do not show, where the session went on far enough to measure it. The
// bars hold what was measured, so that a change that makes it worse
// shows.
func TestCompactionFigures(t *testing.T) {
	r := corpusFit(t)
	c := r.compact
	t.Log("\n" + c.report())
	episode, slice, ne, ns := c.errors()
	if ne < 40 {
		t.Errorf("only %d compactions with an episode; the corpus holds 49 automatic ones", ne)
	}
	if episode > 0.45 {
		t.Errorf("the episode's cross-validated error is %.1f%%; it was 38.9%%", 100*episode)
	}
	if ns < 10 || slice > 0.35 {
		t.Errorf("the whole figure's cross-validated error is %.1f%% over %d compactions; it was 28.1%% over 13", 100*slice, ns)
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
