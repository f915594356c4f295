package lines

import (
	"testing"

	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/window"
)

// On a window that compacts within the slice, a priced line moves to where
// relaying saves its dollars against carrying on to the window's pause.
func TestWindowBound(t *testing.T) {
	m := restart.Model{Rates: restart.PerMillion(25, 0.5, 6.25), Q: 40.0 / 100_000, W: 30_000}
	d := Decision{Cost: m, Window: window.Window{Tokens: window.Standard, CompactsAt: 155_000, PauseRoom: 28_000}}
	if s := WindowSaving(m, 127_000, 127_000); s != 0 {
		t.Errorf("no stretch, saving %v", s)
	}
	// 40 requests per 100k, r = $0.5/M: at 80k the stretch to 127k is
	// 18.8 requests each reading 50k fewer tokens, plus 47k read once:
	// 18.8·50,000·0.5e-6 + 47,000·0.5e-6 = 0.47 + 0.0235.
	if s := WindowSaving(m, 80_000, 127_000); s < 0.4934 || s > 0.4936 {
		t.Errorf("saving at 80k %v, want 0.4935", s)
	}
	// A pause priced at 70k for $0.80 can never save that on the way to
	// 127k: the window's pause is the line.
	d.Lines = Lines{Warn: Line{Tokens: 60_000, SetBy: Priced, SavingUSD: 0.45},
		Pause: Line{Tokens: 70_000, SetBy: Priced, SavingUSD: 0.80}}
	d.capByWindow()
	if p := d.Lines.Pause; p.SetBy != Window || p.Tokens != 127_000 {
		t.Errorf("pause %+v, want the window's 127k", p)
	}
	// A warn priced at 60k for $0.45: the first context where relaying
	// saves that much before the window's pause.
	w := d.Lines.Warn
	if w.SetBy != Priced || w.Tokens != 63_000 {
		t.Fatalf("warn %+v", w)
	}
	if WindowSaving(m, w.Tokens, 127_000) < 0.45 || WindowSaving(m, w.Tokens-1_000, 127_000) >= 0.45 {
		t.Errorf("warn at %d is not the first thousand where the saving reaches $0.45", w.Tokens)
	}
	// On a 1M window the slice fits before the compaction: untouched.
	d = Decision{Cost: m, Window: window.Window{Tokens: window.OneM, CompactsAt: 967_000, PauseRoom: 28_000},
		Lines: Lines{Warn: Line{Tokens: 160_000, SetBy: Priced, SavingUSD: 0.20},
			Pause: Line{Tokens: 200_000, SetBy: Priced, SavingUSD: 0.80}}}
	d.capByWindow()
	if d.Lines.Pause.Tokens != 200_000 || d.Lines.Warn.Tokens != 160_000 {
		t.Errorf("1M window: %+v", d.Lines)
	}
}
