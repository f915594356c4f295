package cli

import (
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
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
	// figures need the cost models and two facts of the history, which
	// the cache's header holds. A cache an older build wrote is read
	// whole.
	name := lines.FileName(dir, id)
	cd, h, ok := lines.Cold(name)
	if !ok {
		cd, h = coldWhole(name, d)
	}
	return coldWords(&cd, &h, r, now)
}

// coldWhole is what coldMark prices with from the whole cache entry: its
// Decision and History, or, without an entry that loads, the status
// line's Decision d and no history.
func coldWhole(name string, d *lines.Decision) (lines.Decision, history.History) {
	if e, ok := lines.Load(name); ok {
		return e.Decision, e.History
	}
	return *d, history.History{}
}

// coldWords is the mark for decision d and history h at reading r and
// now: "" while the cache is warm.
func coldWords(d *lines.Decision, h *history.History, r reading.Reading, now time.Time) string {
	f, isCold, priced := cold.At(d, h, r, now)
	if !isCold {
		return ""
	}
	return " · " + cold.Status(f, priced)
}
