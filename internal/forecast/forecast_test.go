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
	if got := p.Rewrite(); got != DefaultRewrite {
		t.Errorf("Rewrite = %v, want %v", got, DefaultRewrite)
	}
	if got := p.OutPerRequest(); got != DefaultOut {
		t.Errorf("OutPerRequest = %v, want %v", got, DefaultOut)
	}
}

func TestStepLeavesOrientationOut(t *testing.T) {
	var p Pace
	// Orientation: three reads, no act.
	ctx := int64(20_000)
	p.Response(ctx, ctx, 100, false, false)
	for _, s := range []int64{30_000, 25_000} {
		ctx += s
		p.Response(ctx, s, 100, false, false)
	}
	if len(p.Steps) != 0 || p.Step() != DefaultStep {
		t.Fatalf("steps before acting counted: %v, step %v", p.Steps, p.Step())
	}
	// The response that acts (its step is still the orientation's), then
	// work: 1,000 a step, and one big read mid-task, which counts.
	ctx += 20_000
	p.Response(ctx, 20_000, 100, true, false)
	for _, s := range []int64{1000, 1000, 8000, 1000} {
		ctx += s
		p.Response(ctx, s, 100, false, false)
	}
	want := (11_000.0 + DefaultStep*PriorWeight) / (4 + PriorWeight)
	if got := p.Step(); !near(got, want) {
		t.Errorf("Step = %v, want %v", got, want)
	}
	// A compaction starts a new orientation.
	p.Boundary()
	p.Response(30_000, 30_000, 100, false, false)
	p.Response(60_000, 30_000, 100, false, false)
	if len(p.Steps) != 0 {
		t.Errorf("steps after a boundary, before acting: %v", p.Steps)
	}
}

func TestActInALaterRecordOfTheResponse(t *testing.T) {
	var p Pace
	p.Response(20_000, 20_000, 10, false, false)
	p.Response(20_000, 20_000, 50, true, true) // the Edit block's record
	p.Response(22_000, 2_000, 10, false, false)
	if len(p.Steps) != 1 || p.Steps[0] != 2000 {
		t.Errorf("Steps = %v, want [2000]", p.Steps)
	}
}

func TestShrinkingStepsAreNoGrowth(t *testing.T) {
	var p Pace
	p.Response(50_000, 50_000, 0, true, false)
	p.Response(40_000, 0, 0, true, false) // a prune without a boundary record
	p.Response(41_000, 1_000, 0, true, false)
	want := (0 + 1000.0 + DefaultStep*PriorWeight) / (2 + PriorWeight)
	if got := p.Step(); !near(got, want) {
		t.Errorf("Step = %v, want %v", got, want)
	}
}

func TestRewrite(t *testing.T) {
	var p Pace
	p.Response(100_000, 100_000, 0, true, false) // the first writes everything: no rewrite
	p.Response(101_000, 1_000, 0, true, false)   // growth only
	p.Response(102_000, 102_000, 0, true, false) // cache expired: 101,000 re-written
	carried := 101_000.0 + 102_000
	prior := RewritePriorWeight * carried / 2
	want := (101_000 + DefaultRewrite*prior) / (carried + prior)
	if got := p.Rewrite(); !near(got, want) {
		t.Errorf("Rewrite = %v, want %v", got, want)
	}
	p.Boundary()
	if got := p.Rewrite(); got != DefaultRewrite {
		t.Errorf("after a boundary Rewrite = %v, want %v", got, DefaultRewrite)
	}
}

func TestOutputKeepsTheLastRecordOfAResponse(t *testing.T) {
	var p Pace
	p.Response(10_000, 10_000, 5, true, false)
	p.Response(10_000, 10_000, 300, true, true) // the same response, later record
	p.Response(11_000, 1_000, 100, true, false)
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
		p.Response(int64(1000+i*100), 100, 1, true, false)
	}
	if len(p.Steps) != MaxSteps {
		t.Errorf("kept %d steps, want %d", len(p.Steps), MaxSteps)
	}
}

func TestRoundTrip(t *testing.T) {
	var p Pace
	p.Response(20_000, 20_000, 10, true, false)
	p.Response(25_000, 30_000, 20, true, false)
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

// TestBashOnlySessionsGetAPace: a session that never edits (it works
// through Bash) counts as working once it has grown by the ramp-up.
func TestBashOnlySessionsGetAPace(t *testing.T) {
	var p Pace
	ctx := int64(20_000)
	p.Response(ctx, ctx, 10, false, false)
	for _, s := range []int64{30_000, 29_999, 2_000, 2_000} {
		ctx += s
		p.Response(ctx, s, 10, false, false)
	}
	// 20,000 + 30,000 + 29,999 is one token short of the ramp-up; the
	// next response reaches it, so only the last step counts.
	if len(p.Steps) != 1 || p.Steps[0] != 2000 {
		t.Errorf("Steps = %v, want [2000]", p.Steps)
	}
}
