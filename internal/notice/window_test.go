package notice

import (
	"testing"

	"github.com/muthur/context-budget/internal/window"
)

func TestWindowWords(t *testing.T) {
	for _, tc := range []struct {
		w    window.Window
		want string
	}{
		{window.Window{Tokens: window.Standard, Source: window.Default, CompactsAt: 155_000, CompactSource: window.PointTable, Version: "2.1.17", Count: 30, Sessions: 20},
			"the window: Claude Code 2.1.x compacts this 200k window at ~155k, fitted on 30 compactions in 20 real sessions"},
		{window.Window{Tokens: window.Standard, Source: window.Default, CompactsAt: 155_000, CompactSource: window.PointSessions, Version: "2.1.17", Count: 14, Sessions: 12},
			"the window: Claude Code 2.1.x compacts this 200k window at ~155k, seen in 12 of your sessions"},
		{window.Window{Tokens: window.OneM, Source: window.Observed, CompactsAt: 967_000, CompactSource: window.PointDefault},
			"the window: Claude Code compacts this 1M window at ~967k, a cautious default (a version the table does not know)"},
	} {
		if got := WindowWords(tc.w); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
