package lines

import "github.com/muthur/context-budget/internal/forecast"

// The choices a notice compares over the slice (design §4.2).
const (
	ChoiceCarryOn = "carry on"
	ChoiceCompact = "compact"
	ChoiceRelay   = "relay"
)

// Money is the relay's figures at one reading when pricing ran, as the
// notice and the status line say them (Decision.Money).
type Money struct {
	// UpfrontUSD is what relaying now costs: the summary turn plus the
	// successor's reorientation.
	UpfrontUSD float64
	// SavingUSD is what relaying saves over the next 100k tokens of work
	// (negative: what it costs).
	SavingUSD float64
	// CarryOnUSD is what carrying on over those 100k tokens costs.
	CarryOnUSD float64
	// Source says in words what the successor's reorientation was priced
	// from, e.g. "an estimate (no session measured yet)".
	Source string
	// CarryOnLowUSD and CarryOnHighUSD bound what carrying on cost a
	// share Share of real sessions forecast at CarryOnUSD; Share 0 means
	// no band (the design's since-boundary rate).
	CarryOnLowUSD, CarryOnHighUSD, Share float64
	// PaceFrom names the prior the pace was priced from, e.g. "the prior
	// fitted on 186 real sessions (as of 2026-02-16)".
	PaceFrom string
	// CompactUSD is what letting Claude Code compact at the window's
	// point costs over those 100k tokens; Compacts says the point lies
	// within them (else carrying on is the same thing).
	CompactUSD float64
	Compacts   bool
	CompactAt  int64
	// Cheapest is the cheapest choice over the slice: ChoiceCarryOn,
	// ChoiceCompact or ChoiceRelay.
	Cheapest string
}

// RelayUSD is what relaying now and then doing the slice costs.
func (m *Money) RelayUSD() float64 { return m.CarryOnUSD - m.SavingUSD }

// Money returns the relay's figures at reading c for the notice; nil when
// pricing did not run.
func (d *Decision) Money(c int64) *Money {
	if !d.Priced {
		return nil
	}
	m := d.At(c)
	money := &Money{
		UpfrontUSD: m.RelayUpfront(c),
		SavingUSD:  m.Saving(c),
		CarryOnUSD: m.CarryOn(c),
		Source:     d.Reorientation.Words,
		PaceFrom:   d.PaceFrom,
	}
	if b := d.Spread; b != nil {
		money.CarryOnLowUSD, money.CarryOnHighUSD, money.Share = b.Lo*money.CarryOnUSD, b.Hi*money.CarryOnUSD, b.Share
	}
	money.CompactUSD, money.Compacts = m.Compact(c, d.Window.CompactsAt, forecast.Shipped.Compaction)
	money.CompactAt = d.Window.CompactsAt
	money.Cheapest = ChoiceCarryOn
	best := money.CarryOnUSD
	if money.Compacts && money.CompactUSD < best {
		money.Cheapest, best = ChoiceCompact, money.CompactUSD
	}
	if money.RelayUSD() < best {
		money.Cheapest = ChoiceRelay
	}
	return money
}
