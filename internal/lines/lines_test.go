package lines

import (
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/config"
)

func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		s    config.Settings
		want Lines
	}{
		{config.Settings{}, Lines{Line{300_000, Cap, 0}, Line{400_000, Cap, 0}}},
		{config.Settings{Warn: 100_000}, Lines{Line{100_000, Env, 0}, Line{400_000, Cap, 0}}},
		{config.Settings{Pause: 500_000}, Lines{Line{300_000, Cap, 0}, Line{500_000, Env, 0}}},
		{config.Settings{Warn: 1, Pause: 2, Fixed: true}, Lines{Line{1, Env, 0}, Line{2, Env, 0}}},
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
