package notice

import "testing"

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
