package forecast

import (
	"encoding/json"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

func TestNothingMeasured(t *testing.T) {
	var p Pace
	if got := p.Step(); got != DefaultStep {
		t.Errorf("Step = %v, want %v", got, DefaultStep)
	}
	if got := p.Q(); !near(got, 40.0/100_000) {
		t.Errorf("Q = %v, want 0.0004", got)
	}
	if got := p.Rewrite(); got != 0 {
		t.Errorf("Rewrite = %v, want 0", got)
	}
	if got := p.OutPerRequest(); got != DefaultOut {
		t.Errorf("OutPerRequest = %v, want %v", got, DefaultOut)
	}
}

func TestStepTrimsTheLargestQuarter(t *testing.T) {
	var p Pace
	p.Response(20_000, 20_000, 100, false)
	// Eight steps: six of 1,000 and two reads of 30,000. The quarter
	// left out is the two reads.
	ctx := int64(20_000)
	for _, s := range []int64{1000, 30_000, 1000, 1000, 30_000, 1000, 1000, 1000} {
		ctx += s
		p.Response(ctx, s, 100, false)
	}
	want := (6*1000.0 + DefaultStep*PriorWeight) / (6 + PriorWeight)
	if got := p.Step(); !near(got, want) {
		t.Errorf("Step = %v, want %v", got, want)
	}
	// The design's mean would have been (6,000 + 60,000) / 8 = 8,250.
}

func TestNegativeStepsAreNotPace(t *testing.T) {
	var p Pace
	p.Response(50_000, 50_000, 0, false)
	p.Response(40_000, 0, 0, false) // a prune without a boundary record
	p.Response(41_000, 1_000, 0, false)
	want := (1000.0 + DefaultStep*PriorWeight) / (1 + PriorWeight)
	if got := p.Step(); !near(got, want) {
		t.Errorf("Step = %v, want %v", got, want)
	}
}

func TestRewrite(t *testing.T) {
	var p Pace
	p.Response(100_000, 100_000, 0, false) // the first writes everything: no rewrite
	p.Response(101_000, 1_000, 0, false)   // growth only
	p.Response(102_000, 102_000, 0, false) // cache expired: 101,000 re-written
	carried := 101_000.0 + 102_000
	want := 101_000 / (carried + RewritePriorWeight*carried/2)
	if got := p.Rewrite(); !near(got, want) {
		t.Errorf("Rewrite = %v, want %v", got, want)
	}
	p.Boundary()
	if got := p.Rewrite(); got != 0 {
		t.Errorf("after a boundary Rewrite = %v, want 0", got)
	}
}

func TestOutputKeepsTheLastRecordOfAResponse(t *testing.T) {
	var p Pace
	p.Response(10_000, 10_000, 5, false)
	p.Response(10_000, 10_000, 300, true) // the same response, later record
	p.Response(11_000, 1_000, 100, false)
	want := (300.0 + 100 + DefaultOut*PriorWeight) / (2 + PriorWeight)
	if got := p.OutPerRequest(); !near(got, want) {
		t.Errorf("OutPerRequest = %v, want %v", got, want)
	}
	if len(p.Steps) != 1 || p.Steps[0] != 1000 {
		t.Errorf("Steps = %v, want [1000]", p.Steps)
	}
}

func TestStepsAreBounded(t *testing.T) {
	var p Pace
	for i := range MaxSteps + 50 {
		p.Response(int64(1000+i*100), 100, 1, false)
	}
	if len(p.Steps) != MaxSteps {
		t.Errorf("kept %d steps, want %d", len(p.Steps), MaxSteps)
	}
}

func TestRoundTrip(t *testing.T) {
	var p Pace
	p.Response(20_000, 20_000, 10, false)
	p.Response(25_000, 30_000, 20, false)
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Pace
	if err := json.Unmarshal(data, &q); err != nil {
		t.Fatal(err)
	}
	if q.Step() != p.Step() || q.Rewrite() != p.Rewrite() || q.OutPerRequest() != p.OutPerRequest() {
		t.Errorf("round trip changed the pace: %+v → %+v", p, q)
	}
}
