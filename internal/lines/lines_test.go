package lines

import (
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/tuning"
)

func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		s    tuning.Settings
		want Lines
	}{
		{tuning.Settings{}, Lines{Line{300_000, Cap, 0}, Line{400_000, Cap, 0}}},
		{tuning.Settings{Warn: 100_000}, Lines{Line{100_000, Env, 0}, Line{400_000, Cap, 0}}},
		{tuning.Settings{Pause: 500_000}, Lines{Line{300_000, Cap, 0}, Line{500_000, Env, 0}}},
		{tuning.Settings{Warn: 1, Pause: 2, Fixed: true}, Lines{Line{1, Env, 0}, Line{2, Env, 0}}},
	} {
		got := Fixed(tc.s)
		if got != tc.want {
			t.Errorf("Fixed(%+v) = %+v, want %+v", tc.s, got, tc.want)
		}
		if tok := got.Tokens(); tok != (climb.LineTokens{Warn: tc.want.Warn.Tokens, Pause: tc.want.Pause.Tokens}) {
			t.Errorf("Tokens() = %+v", tok)
		}
	}
}
