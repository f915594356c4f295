package notice

import (
	"fmt"
	"math"
	"testing"
)

// usdFmt is USD as fmt would write it: the reference USD, built without
// fmt, is held to.
func usdFmt(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	cents := int64(math.Floor(v*100 + 0.5 + 1e-6))
	return fmt.Sprintf("%s$%d.%02d", sign, cents/100, cents%100)
}

// FuzzUSD: USD gives the fmt version's text for any amount.
func FuzzUSD(f *testing.F) {
	for _, v := range []float64{0, 5.825, -0.125, 0.004, 0.005, 99.995, 1e9, -1e-9, math.NaN(), math.Inf(1), math.Inf(-1)} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if got, want := USD(v), usdFmt(v); got != want {
			t.Fatalf("USD(%v) = %q, fmt gives %q", v, got, want)
		}
	})
}
