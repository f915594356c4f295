package lines

import "github.com/muthur/context-budget/internal/restart"

// The room the window cap keeps (design §4.1).
const (
	// RelayRoom is the room kept under the compaction point when the
	// window names none (window.Window.PauseRoom: the relay's own
	// window.EnoughRoom and the step a line is crossed in, fitted on real
	// sessions).
	RelayRoom = 15_000
	// WarnRoom is the room the warn notice promises before the pause: the
	// gap between the pinned priced lines (169,872 → 200,641) rounded.
	WarnRoom = 30_000
)

// capByWindow moves the lines not fixed by env before the compaction,
// and keeps a priced line from coming wastefully early on a window that
// compacts within its slice (see windowBound).
func (d *Decision) capByWindow() {
	room := d.Window.PauseRoom
	if room <= 0 {
		room = RelayRoom
	}
	pauseMax := d.Window.CompactsAt - room
	warnMax := pauseMax - WarnRoom
	if pauseMax <= 0 {
		return
	}
	if p := &d.Lines.Pause; p.SetBy != Env && p.Tokens > pauseMax {
		*p = Line{Tokens: pauseMax, SetBy: Window}
	}
	if w := &d.Lines.Warn; w.SetBy != Env && w.Tokens > warnMax && warnMax > 0 {
		*w = Line{Tokens: warnMax, SetBy: Window}
	}
	d.windowBound(&d.Lines.Pause, pauseMax, pauseMax)
	d.windowBound(&d.Lines.Warn, warnMax, pauseMax)
}

// windowBound re-judges a priced line l on a window whose compaction point
// lies within the slice past it: the session will relay at the window's
// pause line p anyway, so relaying at c saves only WindowSaving. The line
// moves to the first context from l on where that reaches the line's
// dollars, else to max (set by the window).
func (d *Decision) windowBound(l *Line, max, p int64) {
	if l.SetBy != Priced || l.Tokens >= max || l.Tokens+restart.Slice <= d.Window.CompactsAt {
		return
	}
	const step = 1_000
	for c := l.Tokens; c < max; c += step {
		if WindowSaving(d.At(c), c, p) >= l.SavingUSD {
			l.Tokens = c
			return
		}
	}
	*l = Line{Tokens: max, SetBy: Window}
}

// WindowSaving is what relaying at context c saves against carrying on to
// the window's pause line p and relaying there: the stretch's n = (p − c)·q
// requests read (and re-write a share ρ of) c − W fewer tokens each, and
// the later relay's summary turn would have read p − c more. Both ways
// pay one relay's summary and reorientation, which cancel.
func WindowSaving(m restart.Model, c, p int64) float64 {
	if c >= p {
		return 0
	}
	l := float64(p - c)
	return l*m.Q*(m.Read+m.Rewrite*m.Write)*float64(c-m.W) + l*m.Read
}
