package notice

import (
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
)

func TestK(t *testing.T) {
	for _, tc := range []struct {
		tokens int64
		want   string
	}{
		{200_641, "201k"}, {202_500, "203k"}, {202_499, "202k"}, {0, "0k"}, {499, "0k"}, {500, "1k"},
	} {
		if got := K(tc.tokens); got != tc.want {
			t.Errorf("K(%d) = %q, want %q", tc.tokens, got, tc.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{169_872, "169,872"}, {1_000_000, "1,000,000"}, {999, "999"}, {1000, "1,000"}, {0, "0"}, {-1234, "-1,234"}, {-123, "-123"},
	} {
		if got := Thousands(tc.n); got != tc.want {
			t.Errorf("Thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestEndings(t *testing.T) {
	ls := lines.Lines{Warn: lines.Line{Tokens: 300_000, SetBy: lines.Cap}, Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap}}
	const (
		auto   = "without asking and with no argument, run /relay"
		manual = "end your turn offering /relay; do not run it unasked"
		offer  = "If you'd rather I ask before relaying, say so."
	)
	for _, level := range []climb.Level{climb.Warn, climb.Pause} {
		for _, tc := range []struct {
			manual, offer bool
			want, not     []string
		}{
			{false, false, []string{auto}, []string{manual, offer}},
			{false, true, []string{auto, offer}, []string{manual}},
			{true, false, []string{manual}, []string{auto, offer}},
			// Manual mode has nothing to offer: the operator is asked anyway.
			{true, true, []string{manual}, []string{auto, offer}},
		} {
			got := Text(Facts{Level: level, Reading: 410_000, Lines: ls, Manual: tc.manual, Offer: tc.offer})
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%v manual=%v offer=%v: notice lacks %q:\n%s", level, tc.manual, tc.offer, w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%v manual=%v offer=%v: notice has %q:\n%s", level, tc.manual, tc.offer, n, got)
				}
			}
			for _, skill := range []string{"/relay", "/go skill"} {
				if !strings.Contains(got, skill) {
					t.Errorf("%v: notice does not name %s", level, skill)
				}
			}
			if strings.Contains(got, "manual-relay") || strings.Contains(got, ".claude") {
				t.Errorf("%v: notice names a file:\n%s", level, got)
			}
			if len(got) >= 2000 {
				t.Errorf("%v: notice is %d characters, want under 2,000", level, len(got))
			}
		}
	}
}

func TestUSD(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{5.825, "$5.83"}, {1.2175, "$1.22"}, {0.9825, "$0.98"}, {0.8, "$0.80"}, {0, "$0.00"}, {-1.375, "-$1.38"}, {12.004, "$12.00"},
	} {
		if got := USD(tc.v); got != tc.want {
			t.Errorf("USD(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 sessions"}, {1, "1 session"}, {2, "2 sessions"}} {
		if got := Count(tc.n, "session"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
