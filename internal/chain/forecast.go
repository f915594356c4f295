package chain

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/ledger"
)

// Forecast is what one session carrying on, instead of the chain, would
// have cost by the cost model (design §4, §4.2): the first session's own
// spend up to its hand-over, plus the work its successors did carried on
// from the first session's last reading, at its pace and prices, the
// window's compactions included: where the context reaches the point at
// which Claude Code compacts the window, that session would have
// compacted there and gone on from the smaller context (the real
// alternative to relaying, never a carry-on the window cannot hold). The
// work is the context the successors gained once re-oriented: what a
// single session would have had to add to its own. It is a forecast, not
// a measure: nobody ran that session.
type Forecast struct {
	// USD is the forecast.
	USD float64
	// FirstUSD is what the first session spent, From its last reading.
	FirstUSD float64
	From     int64
	// Growth is the context the successors gained once re-oriented.
	Growth int64
	// Model is the first session's model, whose prices it is at.
	Model string
	// Compactions is how many times that session would have compacted,
	// at CompactAt.
	Compactions int
	CompactAt   int64
}

// forecastOf forecasts one session carrying on for a chain of sessions;
// nil when there is nothing to compare (fewer than two sessions) or the
// first session has no cost model.
func forecastOf(cfg Config, sessions []Session) *Forecast {
	if cfg.Decide == nil || len(sessions) < 2 || sessions[0].Transcript == "" {
		return nil
	}
	first := sessions[0]
	d, from, ok := cfg.Decide(cfg.Dir, first.Transcript, first.ID)
	if !ok {
		return nil
	}
	f := &Forecast{FirstUSD: first.CostUSD, From: from, Model: d.Model}
	for _, s := range sessions[1:] {
		if s.Transcript != "" {
			f.Growth += regrowth(s.Transcript, rowOf(cfg.Dir, s.ID))
		}
	}
	var usd float64
	usd, f.Compactions = carryOn(d, from, f.Growth)
	f.USD, f.CompactAt = f.FirstUSD+usd, d.Window.CompactsAt
	return f
}

// regrowth is the context a successor gained once re-oriented: its growth
// over its life within climbs (a compaction's drop left out), less what
// it gained before it first acted, as its ledger row measured it (all of
// it counts when the row measured none).
func regrowth(transcript string, row *ledger.Row) int64 {
	var h forecast.History
	if h.Update(transcript) != nil || h.First == nil {
		return 0
	}
	g := h.Pace.Life.Growth
	if row != nil && row.Orientation.Measured() {
		g -= max(row.Orientation.ContextTokens-h.First.Context, 0)
	}
	return max(g, 0)
}

// carryOn is what growth tokens of further work cost carried on from
// context from, by the decision's cost model, and how many compactions
// that takes: slice by slice, each priced at the rates of the context it
// starts at (a model's rates can change above a band), and wherever the
// context reaches the window's compaction point, a compaction priced as
// the verdict prices it (restart.Model.Compact: the summary request, the
// episode after it), the work going on from the context after it.
func carryOn(d lines.Decision, from, growth int64) (usd float64, compactions int) {
	point, k := d.Window.CompactsAt, forecast.Shipped.Compaction
	for c, left := from, growth; left > 0; {
		m := d.At(c)
		if point > 0 && c >= point && k.After(c) < c {
			usd += float64(c)*m.Read + m.O() + m.CompactEpisode(c, k)
			c, compactions = k.After(c), compactions+1
			continue
		}
		g := min(left, restart.Slice)
		if point > c {
			g = min(g, point-c)
		}
		usd += m.Over(c, g)
		c, left = c+g, left-g
	}
	return usd, compactions
}
