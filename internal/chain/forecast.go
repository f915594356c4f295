package chain

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/ledger"
)

// Forecast is what one session carrying on, instead of the chain, would
// have cost by the cost model (design §4): the first session's own spend
// up to its hand-over, plus the work its successors did carried on from
// the first session's last reading, at its pace and prices. The work is
// the context the successors gained once re-oriented: what a single
// session would have had to add to its own. It is a forecast, not a
// measure: nobody ran that session. It leaves out the compactions a
// session carried past its window would have had.
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
	f.USD = f.FirstUSD + carryOn(d, from, f.Growth)
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
// context from, by the decision's cost model: slice by slice, each priced
// at the rates of the context it starts at (a model's rates can change
// above a band).
func carryOn(d lines.Decision, from, growth int64) float64 {
	usd := 0.0
	for c, left := from, growth; left > 0; {
		g := min(left, restart.Slice)
		usd += d.At(c).Over(c, g)
		c, left = c+g, left-g
	}
	return usd
}
