package replay

import (
	"math"
	"testing"
)

// TestByModel: points group by model family (a dated id joins its
// undated one), each with its median error and count, most points first;
// a point without an actual is left out.
func TestByModel(t *testing.T) {
	pt := func(model string, pred, actual float64) Point {
		return Point{Model: model, PredictedCarryOnUSD: pred, ActualCarryOnUSD: actual}
	}
	sessions := []Session{
		{Points: []Point{pt("claude-opus-4-6", 11, 10), pt("claude-opus-4-6-20260101", 7, 10), pt("claude-opus-4-6", 10, 10)}},
		{Points: []Point{pt("claude-sonnet-4-5", 5, 10), pt("claude-sonnet-4-5", 5, 0)}},
	}
	got := byModel(sessions)
	if len(got) != 2 || got[0].Model != "claude-opus-4-6" || got[0].Points != 3 || math.Abs(got[0].MedianAbsError-0.1) > 1e-9 ||
		got[1].Model != "claude-sonnet-4-5" || got[1].Points != 1 || math.Abs(got[1].MedianAbsError-0.5) > 1e-9 {
		t.Errorf("byModel = %+v", got)
	}
	if tot := Total(sessions); len(tot.CarryOnByModel) != 2 {
		t.Errorf("totals by model %+v", tot.CarryOnByModel)
	}
}
