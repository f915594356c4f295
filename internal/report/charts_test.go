package report

import (
	"slices"
	"testing"
)

// TestTicks: an axis is marked at a round step, four to ten times over
// its span, never "-0".
func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 170_000, []string{"0k", "25k", "50k", "75k", "100k", "125k", "150k"}},
		{0, 21_000, []string{"0k", "5k", "10k", "15k", "20k"}},
		{0, 20_000, []string{"0k", "2.5k", "5k", "7.5k", "10k", "12.5k", "15k", "17.5k", "20k"}},
		{0, 1_100_000, []string{"0k", "200k", "400k", "600k", "800k", "1000k"}},
	} {
		var got []string
		for _, tk := range kTicks.Ticks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v to %v: %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	var got []string
	for _, tk := range countTicks.Ticks(-4.6, 234.6) {
		got = append(got, tk.Label)
	}
	if want := []string{"0", "50", "100", "150", "200"}; !slices.Equal(got, want) {
		t.Errorf("requests: %v, want %v", got, want)
	}
}
