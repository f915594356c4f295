package lines

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/tuning"
)

// The choices a notice compares over the slice (design §4.2).
const (
	ChoiceCarryOn = "carry on"
	ChoiceCompact = "compact"
	ChoiceRelay   = "relay"
)

// Verdict is the one answer at a notice (design §4.2): what the agent is
// told to do, the real alternative to relaying now, and what relaying
// saves over it. The notice, the person's line, the status line, `lines`,
// replay and run all say it.
type Verdict struct {
	// Choice is what the agent is told: ChoiceRelay, or under
	// tuning.PreferCheapest the cheaper Against.
	Choice string `json:"choice"`
	// Against is the real alternative to relaying now: ChoiceCompact
	// where the window's compaction point lies within the slice (the
	// session cannot carry on past it), else ChoiceCarryOn.
	Against string `json:"against"`
	// NetUSD is what relaying now saves over the slice against Against;
	// negative: what it costs more.
	NetUSD float64 `json:"net_usd"`
	// Policy is MUTHUR_CONTEXT_BUDGET_PREFER's: tuning.PreferRelay or
	// tuning.PreferCheapest.
	Policy string `json:"policy"`
}

// Relays reports whether the agent is told to relay.
func (v *Verdict) Relays() bool { return v.Choice == ChoiceRelay }

// Money is the relay's figures at one reading when pricing ran, as the
// notice and the status line say them (Decision.Money).
type Money struct {
	// Verdict is what the notice says, in one net figure.
	Verdict Verdict
	// UpfrontUSD is what relaying now costs: the summary turn plus the
	// successor's reorientation.
	UpfrontUSD float64
	// SavingUSD is what relaying saves over the next 100k tokens of work
	// against carrying on (negative: what it costs), whether or not the
	// window lets the session carry on that far.
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
		CompactAt:  d.Window.CompactsAt,
	}
	if b := d.Spread; b != nil {
		money.CarryOnLowUSD, money.CarryOnHighUSD, money.Share = b.Lo*money.CarryOnUSD, b.Hi*money.CarryOnUSD, b.Share
	}
	money.CompactUSD, money.Compacts = m.Compact(c, d.Window.CompactsAt, forecast.Shipped.Compaction)
	money.Verdict = d.Verdict(c)
	return money
}

// alternative is the real alternative to relaying at context c and what
// it costs over the slice: letting Claude Code compact where the window's
// compaction point lies within the slice, else carrying on.
func (d *Decision) alternative(c int64) (string, float64) {
	m := d.At(c)
	if usd, ok := m.Compact(c, d.Window.CompactsAt, forecast.Shipped.Compaction); ok {
		return ChoiceCompact, usd
	}
	return ChoiceCarryOn, m.CarryOn(c)
}

// Net is what relaying at context c saves over the slice against the
// real alternative (negative: what it costs more). Against carrying on it
// is the cost model's Saving.
func (d *Decision) Net(c int64) float64 { return d.Verdict(c).NetUSD }

// Verdict is the one verdict at reading c, computed from what the line
// cache keeps (the cost model, the window, the policy): under
// tuning.PreferRelay the choice is always to relay; under
// tuning.PreferCheapest it is relaying where that saves anything against
// the real alternative, else the alternative. It is meaningful only when
// pricing ran.
func (d *Decision) Verdict(c int64) Verdict {
	against, usd := d.alternative(c)
	v := Verdict{Choice: ChoiceRelay, Against: against, NetUSD: usd - d.At(c).RelayOverSlice(c), Policy: d.policy()}
	if v.Policy == tuning.PreferCheapest && v.NetUSD < 0 {
		v.Choice = against
	}
	return v
}

// policy is the decision's policy, tuning.PreferRelay unless it says
// otherwise.
func (d *Decision) policy() string {
	if d.Policy == tuning.PreferCheapest {
		return tuning.PreferCheapest
	}
	return tuning.PreferRelay
}
