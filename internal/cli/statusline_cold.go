package cli

import (
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
)

// statusNow is the clock the status line checks the cache against; tests
// set it.
var statusNow = time.Now

// coldMark is the status line's mark of a cold cache, " · cold 14m ·
// re-write $1.90", or "" when the cache is warm or the check is off. A
// response younger than the shortest TTL ends it before any file is
// read.
func coldMark(dir, id, path string, d *lines.Decision, r reading.Reading, getenv func(string) string) string {
	now := statusNow()
	last, ok := cold.LastResponse(r.Time)
	if !ok || now.Sub(last) < cold.TTL5m {
		return ""
	}
	if cs, err := config.ColdFromEnv(getenv); err != nil || cs.Mode == config.ColdOff || cold.CompactedSince(path) {
		return ""
	}
	// The status line's Decision holds only what the bar shows; the cold
	// figures need the whole entry, read here in the rare cold case.
	e, ok := lines.Load(lines.FileName(dir, id))
	if ok {
		d = &e.Decision
	}
	f, isCold, priced := cold.At(d, &e.History, r, now)
	if !isCold {
		return ""
	}
	return " · " + cold.Status(f, priced)
}
