package replay

import (
	"math"
	"slices"
)

// Total sums sessions into the report's totals.
func Total(sessions []Session) Totals {
	var t Totals
	var errs []float64
	var predicted, actual float64
	for i := range sessions {
		s := &sessions[i]
		t.Sessions++
		t.Bytes += s.Bytes
		t.Responses += s.Responses
		if s.Error != "" {
			t.Errors++
		}
		t.Notices += len(s.Notices)
		for _, n := range s.Notices {
			if n.Level == "warn" {
				t.Warnings++
			}
		}
		t.Pauses += len(s.Pauses)
		if compactedFirst(s) {
			t.CompactedBeforeAnyNotice++
		}
		for _, p := range s.Pauses {
			if p.PredictedCarryOnUSD == nil || p.ActualCarryOnUSD == nil {
				continue
			}
			t.CarryOnPoints++
			predicted += *p.PredictedCarryOnUSD
			actual += *p.ActualCarryOnUSD
			if *p.ActualCarryOnUSD > 0 {
				errs = append(errs, math.Abs(*p.PredictedCarryOnUSD-*p.ActualCarryOnUSD) / *p.ActualCarryOnUSD)
			}
		}
	}
	if t.CarryOnPoints > 0 {
		t.PredictedCarryOnUSD, t.ActualCarryOnUSD = ptr(predicted), ptr(actual)
	}
	if len(errs) > 0 {
		t.CarryOnMedianAbsError = ptr(Median(errs))
	}
	return t
}

// compactedFirst reports whether the session's first compaction came
// before its first notice (or it compacted with no notice at all).
func compactedFirst(s *Session) bool {
	for _, b := range s.Boundaries {
		if b.Kind != "compact" {
			continue
		}
		return len(s.Notices) == 0 || s.Notices[0].Response > b.AfterResponse
	}
	return false
}

// Median returns the median of xs (the mean of the middle two for an even
// count); xs is sorted in place. It is NaN for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
