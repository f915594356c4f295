package replay

import (
	"math"
	"slices"
)

// Total sums sessions into the report's totals.
func Total(sessions []Session) Totals {
	var t Totals
	var errs, pointErrs, reqErrs []float64
	var predicted, actual float64
	var rooms []Room
	for i := range sessions {
		s := &sessions[i]
		s.Rooms = Rooms(s.Notices, s.Boundaries)
		rooms = append(rooms, s.Rooms...)
		t.Sessions++
		if s.CostUSD != nil {
			t.CostUSD += *s.CostUSD
			t.PricedSessions++
		}
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
		t.Points += len(s.Points)
		for _, p := range s.Points {
			if p.ActualCarryOnUSD > 0 {
				pointErrs = append(pointErrs, math.Abs(p.PredictedCarryOnUSD-p.ActualCarryOnUSD)/p.ActualCarryOnUSD)
			}
			if p.ActualRequests > 0 {
				reqErrs = append(reqErrs, math.Abs(p.PredictedRequests-float64(p.ActualRequests))/float64(p.ActualRequests))
			}
		}
		if compactedFirst(s) {
			t.CompactedBeforeAnyNotice++
		}
		for _, p := range s.Pauses {
			if p.Cheapest != "" {
				if t.Cheapest == nil {
					t.Cheapest = map[string]int{}
				}
				t.Cheapest[p.Cheapest]++
			}
			if p.SavingUSD != nil {
				t.ForecastSavingUSD += *p.SavingUSD
				t.ForecastPauses++
			}
			if p.PredictedCarryOnUSD == nil || p.ActualCarryOnUSD == nil {
				continue
			}
			t.CarryOnPoints++
			if p.SavingUSD != nil {
				// Relaying costs what the forecast said (carrying on less
				// the saving); carrying on cost what the session spent.
				t.CheckedForecastUSD += *p.SavingUSD
				t.CheckedSavingUSD += *p.SavingUSD + *p.ActualCarryOnUSD - *p.PredictedCarryOnUSD
			}
			predicted += *p.PredictedCarryOnUSD
			actual += *p.ActualCarryOnUSD
			if *p.ActualCarryOnUSD > 0 {
				errs = append(errs, math.Abs(*p.PredictedCarryOnUSD-*p.ActualCarryOnUSD) / *p.ActualCarryOnUSD)
			}
		}
	}
	t.Rooms = SummarizeRooms(rooms)
	t.Cold = coldTotals(sessions)
	if t.CarryOnPoints > 0 {
		t.PredictedCarryOnUSD, t.ActualCarryOnUSD = ptr(predicted), ptr(actual)
	}
	if len(errs) > 0 {
		t.PauseCarryOnMedianAbsError = ptr(Median(errs))
	}
	if len(pointErrs) > 0 {
		t.CarryOnMedianAbsError = ptr(Median(pointErrs))
	}
	if len(reqErrs) > 0 {
		t.RequestsMedianAbsError = ptr(Median(reqErrs))
	}
	t.CarryOnByModel = byModel(sessions)
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

// medianAbsError is the median of |predicted − actual| / actual over the
// points; nil for none.
func medianAbsError(points []Point) *float64 {
	var errs []float64
	for _, p := range points {
		if p.ActualCarryOnUSD > 0 {
			errs = append(errs, math.Abs(p.PredictedCarryOnUSD-p.ActualCarryOnUSD)/p.ActualCarryOnUSD)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return ptr(Median(errs))
}

// coldTotals sums the sessions' cold events.
func coldTotals(sessions []Session) ColdTotals {
	var t ColdTotals
	var idles, contexts []float64
	for i := range sessions {
		rewrote, stopped := false, false
		for _, e := range sessions[i].Cold {
			if e.Written > ColdMinRewrite {
				t.Rewrites++
				t.RewriteUSD += e.RewriteUSD
				idles = append(idles, float64(e.IdleSeconds))
				contexts = append(contexts, float64(e.Context))
				rewrote = true
			}
			if e.Stop {
				t.Stops++
				t.SavingUSD += e.SavingUSD
				t.StopRewriteUSD += e.RewriteUSD
				if e.Written < e.Context/2 {
					t.FalseStops++
				}
				stopped = true
			}
		}
		if rewrote {
			t.RewriteSessions++
		}
		if stopped {
			t.StopSessions++
		}
	}
	if len(idles) > 0 {
		t.MedianIdleSeconds, t.MedianContext = ptr(Median(idles)), ptr(Median(contexts))
	}
	return t
}
