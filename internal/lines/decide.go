package lines

import (
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// Input is what the decision is made from.
type Input struct {
	Settings tuning.Settings
	// Table is the price table; nil when the lines are fixed (no pricing
	// work at all).
	Table *prices.Table
	// History is the transcript's history; nil when the lines are fixed.
	History *forecast.History
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
	// Own is the session's own orientation when the caller (replay, with
	// no Root) measured it; nil when not measured (yet).
	Own *Own
	// Sources are what the caller found of Claude Code's settings and the
	// user's other sessions for the compaction point.
	Sources
}

// Sources are what the compaction point is learned from besides the
// session itself (design §4.1): the caller finds them, the decision
// applies them.
type Sources struct {
	// CompactWindow is the autoCompactWindow Claude Code's settings files
	// set for the model (0: none).
	CompactWindow int64
	// Seen are the automatic compactions of the user's other sessions and
	// the ledger's rows; Time is the reading's record time, before which
	// they count. Session and Project name the session (its own are left
	// out) and the folder it runs in (its project's come first).
	Seen             *window.History
	Time             string
	Session, Project string
}

// Reorientation is what the successor spends to re-orient: the one
// declaration is orientation's, which measures it.
type Reorientation = orientation.Reorientation

// Decision is the outcome: the lines and, when pricing ran, what it was
// priced with. It is what the line cache keeps.
type Decision struct {
	Lines Lines `json:"lines"`
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
	// Compactions counts the compactions the history saw: the
	// once-per-climb rule re-arms on a new one (climb.AdvanceIn).
	Compactions int `json:"compactions,omitempty"`
	// Spread is how far real sessions' carrying on scatters around the
	// forecast, and PaceFrom names the prior the pace was shrunk towards
	// (the fitted corpus, the project's ledger); both unset with the
	// design's since-boundary rate.
	Spread   *forecast.Band `json:"spread,omitempty"`
	PaceFrom string         `json:"pace_from,omitempty"`
	// Policy is the pause's policy the verdict follows
	// (MUTHUR_CONTEXT_BUDGET_PREFER).
	Policy string `json:"policy,omitempty"`
}

// Decide applies the rule.
func Decide(in Input) Decision {
	s := in.Settings
	d := Decision{Lines: Fixed(s), Policy: s.Prefer}
	getenv := in.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	ev := window.Evidence{Env: s.Window, Peak: in.Reading, Statusline: in.StatuslineWindow,
		Transcript1M: transcript.Asks1M(in.RequestedModel),
		Version:      in.Version, Settings: in.CompactWindow, Seen: in.Seen, Before: in.Time,
		Session: in.Sources.Session, Project: in.Sources.Project}
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

// What committed ledger rows may do to the priced lines (design §4): no
// set of rows moves a priced line below LedgerShare of the line the
// session alone gives, nor the pause below the successor's orientation
// plus SuccessorRoom, which would stop the successor as soon as it had
// oriented: a relay loop. The second bound holds with no rows too.
const (
	LedgerShare   = 0.8
	SuccessorRoom = 15_000
)

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
	d.Reorientation = in.reorient(h, rt, false)
	// alone is the decision without the ledger: the shipped prior, the
	// session's own reorientation.
	alone := Decision{Reorientation: d.Reorientation, Window: d.Window}
	if alone.Reorientation.Source == orientation.LedgerRelayed {
		alone.Reorientation = in.reorient(h, rt, true)
	}
	var prior, shipped *forecast.Prior
	if in.Settings.Rate != tuning.RateSinceBoundary {
		if h.Pace.Prior == nil {
			// Once per climb: a later ledger row does not move its lines.
			pr, from := forecast.Shipped.Refine(h.Last.Model, forecast.LedgerPaces(in.Root, sessionOf(in.SessionID, in.TranscriptPath)))
			h.Pace.Prior, h.Pace.PriorFrom = &pr, from
		}
		sp := forecast.Shipped.Prior(h.Last.Model)
		prior, shipped = h.Pace.Prior, &sp
		band := forecast.Shipped.Band
		d.Spread, d.PaceFrom = &band, h.Pace.PriorFrom
	}
	d.costModels(row, h, rt, prior)
	alone.costModels(row, h, rt, shipped)
	s := in.Settings
	if s.Warn == 0 {
		if c, ok := d.line(s.WarnSaving, alone.floor(s.WarnSaving, tuning.WarnCap)); ok && c < tuning.WarnCap {
			d.Lines.Warn = Line{Tokens: c, SetBy: Priced, SavingUSD: s.WarnSaving}
		}
	}
	if s.Pause == 0 {
		from := max(alone.floor(s.PauseSaving, tuning.PauseCap), alone.Reorientation.Tokens+SuccessorRoom)
		if c, ok := d.line(s.PauseSaving, from); ok && c < tuning.PauseCap {
			d.Lines.Pause = Line{Tokens: c, SetBy: Priced, SavingUSD: s.PauseSaving}
		}
	}
}

// costModels sets the cost model from the row's rates, the history, the
// decision's reorientation and, unless nil (the design's since-boundary
// rate), the prior the pace is forecast with.
func (d *Decision) costModels(row prices.Row, h *forecast.History, rt restart.Rates, prior *forecast.Prior) {
	d.Cost = restart.Model{Rates: rt, Q: h.Q(), W: d.Reorientation.Tokens, R: d.Reorientation.CostUSD}
	if prior != nil {
		e := h.Pace.Forecast(*prior, forecast.Shipped.Weights)
		d.Cost.Q, d.Cost.Rewrite, d.Cost.OutPerRequest = e.Q, e.Rewrite, e.OutPerRequest
	}
	if row.BandAbove > 0 && row.Band != nil {
		b := d.Cost
		b.Rates = rates(*row.Band, h.TTL1h)
		d.Band, d.BandAbove = &b, row.BandAbove
	}
}

// floor is the lowest the ledger may move the priced line at threshold
// usd: LedgerShare of this decision's line (the cap when it has none
// below it).
func (d *Decision) floor(usd float64, cap int64) int64 {
	c, ok := d.line(usd, 0)
	if !ok || c >= cap {
		c = cap
	}
	return int64(LedgerShare * float64(c))
}

func rates(r prices.Rates, ttl1h bool) restart.Rates {
	w := r.CacheWrite5m
	if ttl1h {
		w = r.CacheWrite1h
	}
	return restart.PerMillion(r.Output, r.CacheRead, w)
}

// lineStep is the step the search for a line within the compaction's
// reach takes.
const lineStep = 1_000

// line is the priced line at threshold usd: the lowest context from
// `from` on where relaying saves usd over the slice against the real
// alternative (Net). Where the window's compaction point lies past the
// slice, the alternative is carrying on, whose saving only grows with the
// context: the line is the cost model's closed form (carryOnLine). From
// where the point comes within the slice, the alternative is letting
// Claude Code compact, and the line is searched by the thousand up to
// the point; none there, no line (the window's cap then sets it).
func (d *Decision) line(usd float64, from int64) (int64, bool) {
	point := d.Window.CompactsAt
	reach := point - restart.Slice // past it, the point lies within the slice
	c, ok := d.carryOnLine(usd)
	if ok {
		c = max(c, from)
	}
	if point <= 0 || ok && c <= reach {
		return c, ok
	}
	for c := max(from, reach+1); c < point; c += lineStep {
		if d.Net(c) >= usd {
			return c, true
		}
	}
	return 0, false
}

// carryOnLine is where relaying saves usd against carrying on. Where the
// row has a band, a line past the band's start is priced at the band's
// rates; if those put it below the start, the line is the band's first
// token.
func (d *Decision) carryOnLine(usd float64) (int64, bool) {
	c, ok := d.Cost.Line(usd)
	if d.Band != nil && ok && c > d.BandAbove {
		if b, ok := d.Band.Line(usd); ok {
			c = max(b, d.BandAbove+1)
		}
	}
	return c, ok
}

// At returns the cost model that prices a request of c tokens.
func (d *Decision) At(c int64) restart.Model {
	if d.Band != nil && c > d.BandAbove {
		return *d.Band
	}
	return d.Cost
}

// PastCompaction reports the lines fixed by env that lie at or past the
// compaction point, which `lines` and `doctor` warn about.
func (d *Decision) PastCompaction() []string {
	var names []string
	if l := d.Lines.Warn; l.SetBy == Env && l.Tokens >= d.Window.CompactsAt {
		names = append(names, "warn")
	}
	if l := d.Lines.Pause; l.SetBy == Env && l.Tokens >= d.Window.CompactsAt {
		names = append(names, "pause")
	}
	return names
}
