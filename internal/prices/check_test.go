package prices

import (
	"errors"
	"math"
	"testing"
)

// TestPlausible: the ranges come from the shipped table's spread, hold
// every shipped rate, and leave out zero and a million dollars.
func TestPlausible(t *testing.T) {
	lo, hi := Plausible()
	// The shipped table's cheapest input is Haiku 5.5's $0.10 and its
	// dearest cache read is a fast Opus's $3.
	if lo[0] != 0.01 || hi[2] != 30 {
		t.Errorf("input from %v, cache_read to %v; want 0.01 and 30", lo[0], hi[2])
	}
	emb, _ := Embedded()
	for _, r := range emb.Rows {
		if err := r.Check(); err != nil {
			t.Errorf("shipped row %s: %v", r.ID, err)
		}
	}
	for k := range lo {
		if !(lo[k] > 0 && hi[k] < 1e6 && lo[k] < hi[k]) {
			t.Errorf("%s: from %v to %v", RateKeys[k], lo[k], hi[k])
		}
	}
}

func TestCheck(t *testing.T) {
	ok := Rates{Input: 5, Output: 25, CacheRead: 0.5, CacheWrite5m: 6.25, CacheWrite1h: 10}
	for _, tc := range []struct {
		name string
		row  Row
		key  string // the RateError's key, or "" for another error or none
		bad  bool
	}{
		{"a price", Row{ID: "m", Rates: ok}, "", false},
		{"no id", Row{Rates: ok}, "", true},
		{"zero", Row{ID: "m", Rates: Rates{Input: 0, Output: 25, CacheRead: 0.5, CacheWrite5m: 6.25, CacheWrite1h: 10}}, "input", true},
		{"a million", Row{ID: "m", Rates: Rates{Input: 5, Output: 1e6, CacheRead: 0.5, CacheWrite5m: 6.25, CacheWrite1h: 10}}, "output", true},
		{"negative", Row{ID: "m", Rates: Rates{Input: 5, Output: 25, CacheRead: -0.5, CacheWrite5m: 6.25, CacheWrite1h: 10}}, "cache_read", true},
		{"NaN", Row{ID: "m", Rates: Rates{Input: 5, Output: 25, CacheRead: 0.5, CacheWrite5m: math.NaN(), CacheWrite1h: 10}}, "cache_write_5m", true},
		{"Inf", Row{ID: "m", Rates: Rates{Input: 5, Output: 25, CacheRead: 0.5, CacheWrite5m: 6.25, CacheWrite1h: math.Inf(1)}}, "cache_write_1h", true},
		{"cache read of 40", Row{ID: "m", Rates: Rates{Input: 5, Output: 25, CacheRead: 40, CacheWrite5m: 6.25, CacheWrite1h: 10}}, "cache_read", true},
		{"band", Row{ID: "m", Rates: ok, BandAbove: 100_000, Band: &ok}, "", false},
		{"bad band", Row{ID: "m", Rates: ok, BandAbove: 100_000, Band: &Rates{Input: 5}}, "band.output", true},
		{"band_above without a band", Row{ID: "m", Rates: ok, BandAbove: 100_000}, "", true},
		{"negative band_above", Row{ID: "m", Rates: ok, BandAbove: -1, Band: &ok}, "", true},
	} {
		err := tc.row.Check()
		if (err != nil) != tc.bad {
			t.Errorf("%s: err = %v, want bad %v", tc.name, err, tc.bad)
			continue
		}
		var re *RateError
		if got := errors.As(err, &re); got != (tc.key != "") || got && re.Key != tc.key {
			t.Errorf("%s: err = %v, want a RateError for %q", tc.name, err, tc.key)
		}
	}
}
