// Package policy decides a session's two lines and the relay's dollars:
// the one rule the hook, `lines`, the statusline and replay all apply
// (design §4, §4.1, §6.1).
//
// In order:
//
//  1. The caps, 300,000 (warn) and 400,000 (pause), each replaced by its
//     MUTHUR_CONTEXT_BUDGET_WARN / _PAUSE value when set ("env").
//  2. Pricing, unless MUTHUR_CONTEXT_BUDGET_LINES=fixed, the model is not
//     in the price table, or there is no history: each line not fixed by
//     env moves to where relaying saves its dollar threshold, when that is
//     below its cap ("priced"). Pricing only ever moves a line earlier.
//  3. The window (package window): the pause line is never later than
//     the compaction point minus RelayRoom, the warn line never later than
//     that minus WarnRoom ("window"). A line fixed by env is not moved;
//     `lines` warns when it lies past the compaction point.
//
// Pricing "ran" when the model is priced and the lines are not fixed; then
// the notice carries the relay's dollars whichever rule set the line.
package policy

import (
	"strings"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/window"
)

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

// Input is what the decision is made from.
type Input struct {
	Settings config.Settings
	// Table is the price table; nil when the lines are fixed (no pricing
	// work at all).
	Table *prices.Table
	// History is the transcript's history; nil when the lines are fixed.
	History *history.History
	// Reading is the current reading, RequestedModel its record's
	// requestedModel (evidence of a 1M window).
	Reading        int64
	RequestedModel string
	// Root, SessionID and TranscriptPath locate the session for the
	// reorientation (SessionID defaults to the transcript's file name).
	Root, SessionID, TranscriptPath string
	// StatuslineWindow is the window our statusline recorded (0: none).
	StatuslineWindow int64
	// Getenv reads Claude Code's compaction variables.
	Getenv func(string) string
	// Version is the Claude Code version of the latest response ("":
	// the history's, if any).
	Version string
	// Own is the session's own orientation when the caller measured it
	// (replay, which reads nothing of the project: Root is empty); nil
	// when not measured (yet).
	Own *Own
	// Observed looks up the compactions of the user's other sessions
	// (nil: none).
	Observed func(version string, window int64) (window.Observation, bool)
}

// Reorientation is what the successor spends to re-orient: the one
// declaration is orientation's, which measures it.
type Reorientation = orientation.Reorientation

// Decision is the outcome: the lines and, when pricing ran, what it was
// priced with. It is what the line cache keeps.
type Decision struct {
	Lines lines.Lines `json:"lines"`
	// Priced reports that pricing ran.
	Priced bool   `json:"priced"`
	Model  string `json:"model,omitempty"`
	// Cost is the cost model at the row's base rates; Band, above
	// BandAbove tokens of prompt, at its band's.
	Cost          restart.Model  `json:"cost"`
	Band          *restart.Model `json:"band,omitempty"`
	BandAbove     int64          `json:"band_above,omitempty"`
	Reorientation Reorientation  `json:"reorientation"`
	QMeasured     bool           `json:"q_measured"`
	TTL           string         `json:"ttl,omitempty"`
	AsOf          string         `json:"as_of,omitempty"`
	Window        window.Window  `json:"window"`
	// Compactions counts the compactions the history saw: the state's
	// once-per-climb rule re-arms on a new one (state.AdvanceIn).
	Compactions int `json:"compactions,omitempty"`
	// Spread is how far real sessions' carrying on scatters around the
	// forecast, and PaceFrom names the prior the pace was shrunk towards
	// (the fitted corpus, the project's ledger); both unset with the
	// design's since-boundary rate.
	Spread   *forecast.Band `json:"spread,omitempty"`
	PaceFrom string         `json:"pace_from,omitempty"`
}

// Decide applies the rule.
func Decide(in Input) Decision {
	s := in.Settings
	d := Decision{Lines: lines.Fixed(s)}
	getenv := in.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	ev := window.Evidence{Env: s.Window, Peak: in.Reading, Statusline: in.StatuslineWindow,
		Transcript1M: strings.HasSuffix(strings.ToLower(in.RequestedModel), "[1m]"),
		Version:      in.Version, Observed: in.Observed}
	if h := in.History; h != nil {
		ev.Transcript1M = ev.Transcript1M || h.Window1M
		ev.Peak = max(ev.Peak, h.Peak)
		ev.AutoCompactAt = h.AutoCompactAt
		d.Compactions = h.Compactions
		if ev.Version == "" {
			ev.Version = h.Version
		}
	}
	d.Window = window.Detect(ev, getenv)
	if !s.Fixed {
		d.price(in)
	}
	d.capByWindow()
	return d
}

// price runs the cost model and moves the lines it may.
func (d *Decision) price(in Input) {
	h := in.History
	if in.Table == nil || h == nil || h.Last == nil || h.First == nil {
		return
	}
	row, ok := in.Table.Lookup(h.Last.Model, h.Last.Speed)
	if !ok {
		return
	}
	rt := rates(row.Rates, h.TTL1h)
	d.Priced, d.Model, d.TTL, d.AsOf = true, h.Last.Model, h.TTL(), in.Table.AsOf
	d.QMeasured = h.Measured()
	d.Reorientation = in.reorient(h, rt)
	d.Cost = restart.Model{Rates: rt, Q: h.Q(), W: d.Reorientation.Tokens, R: d.Reorientation.CostUSD}
	if in.Settings.Rate != config.RateSinceBoundary {
		if h.Pace.Prior == nil {
			// Once per climb: a ledger row written later in the climb
			// does not move its lines.
			pr, from := forecast.Shipped.Refine(h.Last.Model, forecast.LedgerPaces(in.Root, sessionOf(in.SessionID, in.TranscriptPath)))
			h.Pace.Prior, h.Pace.PriorFrom = &pr, from
		}
		e := h.Pace.Forecast(*h.Pace.Prior, forecast.Shipped.Weights)
		d.Cost.Q, d.Cost.Rewrite, d.Cost.OutPerRequest = e.Q, e.Rewrite, e.OutPerRequest
		band := forecast.Shipped.Band
		d.Spread, d.PaceFrom = &band, h.Pace.PriorFrom
	}
	if row.BandAbove > 0 && row.Band != nil {
		b := d.Cost
		b.Rates = rates(*row.Band, h.TTL1h)
		d.Band, d.BandAbove = &b, row.BandAbove
	}
	s := in.Settings
	if s.Warn == 0 {
		if c, ok := d.line(s.WarnSaving); ok && c < config.WarnCap {
			d.Lines.Warn = lines.Line{Tokens: c, SetBy: lines.Priced, SavingUSD: s.WarnSaving}
		}
	}
	if s.Pause == 0 {
		if c, ok := d.line(s.PauseSaving); ok && c < config.PauseCap {
			d.Lines.Pause = lines.Line{Tokens: c, SetBy: lines.Priced, SavingUSD: s.PauseSaving}
		}
	}
}

func rates(r prices.Rates, ttl1h bool) restart.Rates {
	w := r.CacheWrite5m
	if ttl1h {
		w = r.CacheWrite1h
	}
	return restart.PerMillion(r.Output, r.CacheRead, w)
}

// line is the priced line at threshold usd. Where the row has a band, a
// line past the band's start is priced at the band's rates; if those put
// it below the start, the line is the band's first token.
func (d *Decision) line(usd float64) (int64, bool) {
	c, ok := d.Cost.Line(usd)
	if d.Band != nil && ok && c > d.BandAbove {
		if b, ok := d.Band.Line(usd); ok {
			c = max(b, d.BandAbove+1)
		}
	}
	return c, ok
}

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
	if p := &d.Lines.Pause; p.SetBy != lines.Env && p.Tokens > pauseMax {
		*p = lines.Line{Tokens: pauseMax, SetBy: lines.Window}
	}
	if w := &d.Lines.Warn; w.SetBy != lines.Env && w.Tokens > warnMax && warnMax > 0 {
		*w = lines.Line{Tokens: warnMax, SetBy: lines.Window}
	}
	d.windowBound(&d.Lines.Pause, pauseMax, pauseMax)
	d.windowBound(&d.Lines.Warn, warnMax, pauseMax)
}

// windowBound re-judges a priced line l on a window whose compaction point
// lies within the slice past it. There, carrying on over the slice is not
// one of the choices: the session will relay at the window's pause line
// p anyway. What relaying at c saves is then only the stretch from c to p
// worked from the successor's context instead of this one's, and the
// context the window's relay would have read: WindowSaving. The line moves
// to the first context from l on where that saving reaches the line's
// dollars, else to max (set by the window). So on a 200k window the pause
// does not come wastefully early for a saving the window would not let
// the session collect.
func (d *Decision) windowBound(l *lines.Line, max, p int64) {
	if l.SetBy != lines.Priced || l.Tokens >= max || l.Tokens+restart.Slice <= d.Window.CompactsAt {
		return
	}
	const step = 1_000
	for c := l.Tokens; c < max; c += step {
		if WindowSaving(d.At(c), c, p) >= l.SavingUSD {
			l.Tokens = c
			return
		}
	}
	*l = lines.Line{Tokens: max, SetBy: lines.Window}
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

// At returns the cost model that prices a request of c tokens.
func (d *Decision) At(c int64) restart.Model {
	if d.Band != nil && c > d.BandAbove {
		return *d.Band
	}
	return d.Cost
}

// Money returns the relay's figures at reading c for the notice; nil when
// pricing did not run.
func (d *Decision) Money(c int64) *lines.Money {
	if !d.Priced {
		return nil
	}
	m := d.At(c)
	money := &lines.Money{
		UpfrontUSD: m.RelayUpfront(c),
		SavingUSD:  m.Saving(c),
		CarryOnUSD: m.CarryOn(c),
		Source:     d.Reorientation.Words,
		PaceFrom:   d.PaceFrom,
	}
	if b := d.Spread; b != nil {
		money.CarryOnLowUSD, money.CarryOnHighUSD, money.Share = b.Lo*money.CarryOnUSD, b.Hi*money.CarryOnUSD, b.Share
	}
	return money
}

// PastCompaction reports the lines fixed by env that lie at or past the
// compaction point, which `lines` and `doctor` warn about.
func (d *Decision) PastCompaction() []string {
	var names []string
	if l := d.Lines.Warn; l.SetBy == lines.Env && l.Tokens >= d.Window.CompactsAt {
		names = append(names, "warn")
	}
	if l := d.Lines.Pause; l.SetBy == lines.Env && l.Tokens >= d.Window.CompactsAt {
		names = append(names, "pause")
	}
	return names
}
