package lines

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

// capByWindow moves the lines not fixed by env before the compaction.
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
}
