package notice

import "github.com/muthur/context-budget/internal/window"

// WindowWords describes the window for a notice: "the window: Claude
// Code 2.1.x compacts this 200k window at ~155k, seen in 3 of your
// sessions", its tokens said as every notice says them (K).
func WindowWords(w window.Window) string {
	series := w.SeriesWords()
	if series != "" {
		series += " "
	}
	return "the window: Claude Code " + series + "compacts this " + K(w.Tokens) + " window at ~" + K(w.CompactsAt) + ", " + w.PointWords()
}
