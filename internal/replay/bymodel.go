package replay

import (
	"math"
	"sort"

	"github.com/muthur/context-budget/internal/forecast"
)

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
				errs[m] = append(errs[m], math.Abs(p.PredictedCarryOnUSD-p.ActualCarryOnUSD)/p.ActualCarryOnUSD)
			}
		}
	}
	var out []ModelError
	for m, e := range errs {
		out = append(out, ModelError{Model: m, Points: len(e), MedianAbsError: Median(e)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Points != out[j].Points {
			return out[i].Points > out[j].Points
		}
		return out[i].Model < out[j].Model
	})
	return out
}
