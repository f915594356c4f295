package forecast

import (
	"math"
	"testing"
)

func TestForecastWithNothingMeasuredIsThePrior(t *testing.T) {
	var p Pace
	pr := Prior{Step: 1250, Rewrite: 0.02, Out: 50}
	e := p.Forecast(pr, Weights{Step: 30, Rewrite: 300, Out: 10})
	if !near(e.Q, 1/1250.0) || e.Rewrite != 0.02 || e.OutPerRequest != 50 {
		t.Errorf("estimate %+v", e)
	}
}

// TestForecastShrinks: a measured figure moves the estimate by its count
// against the prior's weight; no weight is the measured mean, a huge one
// the prior.
func TestForecastShrinks(t *testing.T) {
	var p Pace
	ctx := int64(40_000)
	p.Response(ctx, ctx, 30, true, false)
	for range 30 {
		ctx += 500
		p.Response(ctx, 500+2_000, 30, false, false) // 2,000 re-written
	}
	pr := Prior{Step: 1500, Rewrite: 0.01, Out: 60}
	e := p.Forecast(pr, Weights{Step: 30, Rewrite: 0, Out: 31})
	if want := (30*500.0 + 30*1500) / 60; !near(1/e.Q, want) {
		t.Errorf("step %v, want %v", 1/e.Q, want)
	}
	if want := float64(p.Rewritten) / float64(p.Carried); !near(e.Rewrite, want) {
		t.Errorf("rewrite %v, want the measured %v", e.Rewrite, want)
	}
	if want := (31*30.0 + 31*60) / 62; !near(e.OutPerRequest, want) {
		t.Errorf("out %v, want %v", e.OutPerRequest, want)
	}
	if e := p.Forecast(pr, Weights{Step: 1e9, Rewrite: 1e9, Out: 1e9}); math.Abs(1/e.Q-1500) > 0.1 ||
		math.Abs(e.Rewrite-0.01) > 1e-6 || math.Abs(e.OutPerRequest-60) > 1e-3 {
		t.Errorf("a huge weight is not the prior: %+v", e)
	}
}

func TestStepAt(t *testing.T) {
	pr := Prior{Step: 1000, Elasticity: 0.5}
	if pr.StepAt(ContextAt) != 1000 || pr.StepAt(ContextHi) != pr.StepAt(500_000) || pr.StepAt(ContextLo) != pr.StepAt(0) ||
		pr.StepAt(ContextLo) <= 1000 || pr.StepAt(ContextHi) >= 1000 {
		t.Errorf("StepAt: %v %v %v", pr.StepAt(0), pr.StepAt(ContextAt), pr.StepAt(ContextHi))
	}
	if (Prior{Step: 1000}).StepAt(3) != 1000 {
		t.Error("no elasticity moved the step")
	}
}

func TestFamily(t *testing.T) {
	for in, want := range map[string]string{
		"claude-opus-4-5-20251101":   "opus-4-5",
		"claude-opus-4-6":            "opus-4-6",
		"claude-sonnet-4-5-20250929": "sonnet-4-5",
		"Claude-Haiku-4-5-20251001":  "haiku-4-5",
		"claude-opus-4-6-2025":       "opus-4-6-2025",
		"":                           "",
	} {
		if got := Family(in); got != want {
			t.Errorf("Family(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShippedPrior(t *testing.T) {
	s := Shipped
	if s.Points == 0 || s.AsOf == "" || s.All.Step <= 0 || s.Band.Lo >= 1 || s.Band.Hi <= 1 || s.Band.Share <= 0 {
		t.Errorf("shipped fit %+v", s)
	}
	if s.Prior("claude-unknown-9") != s.All {
		t.Error("an unknown family does not take the corpus-wide prior")
	}
}

func FuzzFamily(f *testing.F) {
	f.Add("claude-opus-4-5-20251101")
	f.Add("x-12345678")
	f.Fuzz(func(t *testing.T, s string) {
		if got := Family(s); len(got) > len(s) {
			t.Errorf("Family(%q) = %q grew", s, got)
		}
	})
}
