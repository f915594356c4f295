package replay

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/muthur/context-budget/internal/forecast"
)

// Total sums sessions into the report's totals.
func Total(sessions []Session) Totals {
	var t Totals
	var errs, pointErrs, reqErrs []float64 // relative errors
	var predicted, actual float64
	var rooms []Room
	var orientTokens, orientUSD []float64
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
		if o := s.Orientation; o != nil {
			t.Orientations++
			orientTokens = append(orientTokens, orientErr(float64(o.PredictedTokens), float64(o.Tokens)))
			orientUSD = append(orientUSD, orientErr(o.PredictedUSD, o.CostUSD))
		}
		t.Points += len(s.Points)
		pointErrs = append(pointErrs, carryOnErrors(s.Points)...)
		for _, p := range s.Points {
			if p.ActualRequests > 0 {
				reqErrs = append(reqErrs, relErr(p.PredictedRequests, float64(p.ActualRequests)))
			}
		}
		if compactedFirst(s) {
			t.CompactedBeforeAnyNotice++
		}
		sums := SumPauses(s.Pauses)
		t.ForecastSavingUSD += sums.Forecast
		t.ForecastPauses += sums.Priced
		t.CheckedForecastUSD += sums.Said
		t.CheckedSavingUSD += sums.Checked
		for _, p := range s.Pauses {
			t.Verdicts.add(&p)
			if p.PredictedCarryOnUSD == nil || p.ActualCarryOnUSD == nil {
				continue
			}
			t.CarryOnPoints++
			predicted += *p.PredictedCarryOnUSD
			actual += *p.ActualCarryOnUSD
			if *p.ActualCarryOnUSD > 0 {
				errs = append(errs, relErr(*p.PredictedCarryOnUSD, *p.ActualCarryOnUSD))
			}
		}
	}
	t.Rooms = SummarizeRooms(rooms)
	t.Cold = coldTotals(sessions)
	if t.CarryOnPoints > 0 {
		t.PredictedCarryOnUSD, t.ActualCarryOnUSD = ptr(predicted), ptr(actual)
	}
	t.PauseCarryOnMedianAbsError = median(errs)
	t.CarryOnMedianAbsError = median(pointErrs)
	t.RequestsMedianAbsError = median(reqErrs)
	t.CarryOnByModel = byModel(sessions)
	t.OrientationTokensMedianAbsError, t.OrientationUSDMedianAbsError = finite(median(orientTokens)), finite(median(orientUSD))
	return t
}

// orientErr is |predicted − actual| / actual, infinite where the actual
// is nothing.
func orientErr(predicted, actual float64) float64 {
	if actual <= 0 {
		return math.Inf(1)
	}
	return relErr(predicted, actual)
}

// finite is v, or nil when it is not a finite number (JSON has none).
func finite(v *float64) *float64 {
	if v == nil || math.IsInf(*v, 0) || math.IsNaN(*v) {
		return nil
	}
	return v
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

// median is Median, nil for none.
func median(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	return ptr(Median(xs))
}

// relErr is |predicted − actual| / actual.
func relErr(predicted, actual float64) float64 { return math.Abs(predicted-actual) / actual }

// carryOnErrors are the relative errors of the points' carrying-on costs,
// of those with an actual.
func carryOnErrors(points []Point) []float64 {
	var errs []float64
	for _, p := range points {
		if p.ActualCarryOnUSD > 0 {
			errs = append(errs, relErr(p.PredictedCarryOnUSD, p.ActualCarryOnUSD))
		}
	}
	return errs
}

// ModelError is the forecast's accuracy on one model's points: the
// median of |predicted − actual| / actual of the carrying-on cost over
// the Points responses (of that model) after which a session went on
// 100k tokens.
type ModelError struct {
	Model          string  `json:"model"`
	Points         int     `json:"points"`
	MedianAbsError float64 `json:"median_abs_error"`
}

// byModel groups the sessions' points by the family of the model that
// answered there (claude-opus-4-6-20260101 and claude-opus-4-6 are one),
// most points first.
func byModel(sessions []Session) []ModelError {
	errs := map[string][]float64{}
	for i := range sessions {
		for _, p := range sessions[i].Points {
			if p.ActualCarryOnUSD > 0 {
				m := "claude-" + forecast.Family(p.Model)
				errs[m] = append(errs[m], relErr(p.PredictedCarryOnUSD, p.ActualCarryOnUSD))
			}
		}
	}
	var out []ModelError
	for m, e := range errs {
		out = append(out, ModelError{Model: m, Points: len(e), MedianAbsError: Median(e)})
	}
	slices.SortFunc(out, func(a, b ModelError) int {
		return cmp.Or(b.Points-a.Points, strings.Compare(a.Model, b.Model))
	})
	return out
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
	t.MedianIdleSeconds, t.MedianContext = median(idles), median(contexts)
	return t
}

// PauseSums are a session's priced pauses summed: the forecast's saving
// against the real alternative (the verdicts' net) over the Priced ones
// and, over the Known ones the session went on past
// far enough to check, what the forecast Said and the saving Checked
// against what carrying on really cost.
type PauseSums struct {
	Forecast      float64
	Priced        int
	Checked, Said float64
	Known         int
}

// SumPauses sums ps. Relaying costs what the forecast said (carrying on
// less the saving); carrying on cost what the session spent.
func SumPauses(ps []Pause) PauseSums {
	var out PauseSums
	for _, p := range ps {
		if p.SavingUSD == nil {
			continue
		}
		out.Forecast += *cmp.Or(p.NetUSD, p.SavingUSD)
		out.Priced++
		if p.ActualCarryOnUSD != nil && p.PredictedCarryOnUSD != nil {
			out.Said += *p.SavingUSD
			out.Checked += *p.SavingUSD + *p.ActualCarryOnUSD - *p.PredictedCarryOnUSD
			out.Known++
		}
	}
	return out
}
