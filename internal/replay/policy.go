package replay

import (
	"bytes"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// PolicyModel is the Model of the hook's own decision with its line cache
// (package lines) kept in memory: the history is fed record by record,
// and the decision is recomputed exactly when the hook's .line file
// would be stale — 10,000 tokens of growth since it was made, a drop, a
// crossing of 200,000 from below — so a replayed session sees the lines
// the hook would have seen after each response. With fixed lines there is
// no pricing and no history, as in the hook, but the same cache: the
// compaction point's sources are read at its recomputes.
//
// The successor's reorientation follows the hook's order of sources
// (design §8) without reading or writing anything of the project: the
// session's own orientation is measured read-only from the transcript as
// it stood after each response (the prefix is held until it is measured,
// as the hook measures it at a recompute and caches it), and, as the
// hook's line cache does when its .orientation file appears, the call
// after it was first measured recomputes. The ledger of relayed sessions
// is the project's and is not read: a project whose ledger holds relayed
// rows prices its hook's lines from their mean, which replay does not
// see. A change of Claude Code version within the session recomputes, as
// the version is part of the line cache's Key.
type PolicyModel struct {
	Settings tuning.Settings
	// Table is the price table; nil means the embedded one.
	Table *prices.Table
	// Root and Path locate the session for the reorientation. Replay
	// leaves Root empty: the estimate, and no file read or written.
	Root, Path string
	Getenv     func(string) string
	// Seen are the automatic compactions of the user's other sessions and
	// the project's ledger rows, of every time, indexed once: each
	// decision takes those before its response's time, as the hook's did,
	// leaving out this session's own (Session, the transcript's name) and
	// taking first those of its project (Project, the folder it ran in).
	// CompactWindow is the autoCompactWindow the settings files set for a
	// model (nil: none).
	Seen             *window.History
	Session, Project string
	CompactWindow    func(model string) int64

	h         forecast.History
	requested string // requestedModel of the latest response record
	version   string // Claude Code version of the latest response record
	model     string // the model of the latest response record
	time      string // the time of the latest response record
	cached    bool
	at        int64 // the reading the cached decision was made at
	d         lines.Decision

	// prefix is the main transcript so far while the session's own
	// orientation is not measured; own is it once it is; ownNew makes the
	// next decision a recompute (the hook's Key changes when it caches
	// the orientation). atVersion is the version the decision was made
	// under.
	prefix    []byte
	noPrefix  bool
	signs     orientation.Search
	own       *lines.Own
	ownNew    bool
	check     *OrientationCheck
	atVersion string
}

// maxPrefix bounds the transcript held for the orientation's measure; a
// session that has not acted by then keeps the estimate.
const maxPrefix = 64 << 20

// NewPolicyModel returns a PolicyModel for the transcript at path.
func NewPolicyModel(s tuning.Settings, table *prices.Table, root, path string, getenv func(string) string) *PolicyModel {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &PolicyModel{Settings: s, Table: table, Root: root, Path: path, Getenv: getenv}
}

// Observe feeds the history, as the hook's pass over the transcript would.
func (m *PolicyModel) Observe(r *transcript.Record, line []byte) {
	m.hold(line)
	if m.Settings.Fixed {
		if r.IsResponse() {
			m.took(r)
		}
		return
	}
	if m.h.AddRecord(r, line) {
		m.took(r)
	}
}

// took notes the latest response record's figures the decision reads.
func (m *PolicyModel) took(r *transcript.Record) {
	m.requested, m.version, m.model, m.time = r.RequestedModel, r.Version, r.Message.Model, r.Timestamp
}

// sources are the compaction point's sources as they stood at the latest
// response.
func (m *PolicyModel) sources() lines.Sources {
	src := lines.Sources{Seen: m.Seen, Time: m.time, Session: m.Session, Project: m.Project}
	if m.CompactWindow != nil {
		src.CompactWindow = m.CompactWindow(m.model)
	}
	return src
}

// hold keeps the line for the orientation's measure while it may be
// needed. A damaged line that held several records comes once per record;
// it is kept once.
func (m *PolicyModel) hold(line []byte) {
	if m.Settings.Fixed || m.own != nil || m.noPrefix || len(line) == 0 {
		return
	}
	if n := len(m.prefix); n >= len(line) && bytes.Equal(m.prefix[n-len(line):], line) {
		return
	}
	if len(m.prefix)+len(line) > maxPrefix {
		m.prefix, m.noPrefix = nil, true
		return
	}
	m.prefix = append(m.prefix, line...)
	if line[len(line)-1] != '\n' {
		m.prefix = append(m.prefix, '\n')
	}
	m.signs.Main(line)
}

// Lines returns the decision's lines at reading.
func (m *PolicyModel) Lines(reading int64) lines.Lines {
	return m.decide(reading).Lines
}

// CompactsAt is where the decision in force has Claude Code compact.
func (m *PolicyModel) CompactsAt() int64 { return m.d.Window.CompactsAt }

// Compactions is how many compactions the decision in force saw, as the
// hook's cached history would (it catches up at the recompute a
// compaction's drop causes).
func (m *PolicyModel) Compactions() int { return m.d.Compactions }

// Orientation is the session's own orientation, once measured, beside
// the prior's forecast of a fresh session's (nil before).
func (m *PolicyModel) Orientation() *OrientationCheck { return m.check }

// Predict returns the model's figures at reading when pricing ran.
func (m *PolicyModel) Predict(reading int64) *Prediction {
	return predict(m.decide(reading), reading)
}

// Forecast returns the cost model's figures at reading made afresh from
// the history so far, as if the line cache had just been recomputed: the
// estimator itself, which the forecast's points judge. The hook quotes
// the cached figures, up to Regrowth tokens older.
func (m *PolicyModel) Forecast(reading int64) *Prediction {
	if m.Settings.Fixed {
		return nil
	}
	d := lines.Decide(m.input(reading, m.table()))
	return predict(&d, reading)
}

// table is the price table: Table, or the embedded one.
func (m *PolicyModel) table() *prices.Table {
	if m.Table != nil {
		return m.Table
	}
	t, _ := prices.Embedded()
	return t
}

// input is the decision's input at reading, as the session stands,
// built as the hook builds it (lines.Call.Input): with the history and
// table unless the lines are fixed.
func (m *PolicyModel) input(reading int64, table *prices.Table) lines.Input {
	call := lines.Call{Root: m.Root, Transcript: m.Path, Settings: m.Settings, Getenv: m.Getenv,
		Reading: reading, RequestedModel: m.requested, Model: m.model, Version: m.version, Table: table,
		Sources: m.sources(), Own: m.own}
	return call.Input(&m.h)
}

func predict(d *lines.Decision, reading int64) *Prediction {
	if !d.Priced {
		return nil
	}
	c := d.At(reading)
	read, write, output := c.Parts(reading)
	m := d.Money(reading)
	p := &Prediction{SavingUSD: m.SavingUSD, CarryOnUSD: m.CarryOnUSD, Requests: c.N(),
		Parts: Parts{Read: read, Write: write, Output: output}}
	if m.Compacts {
		p.CompactUSD = ptr(m.CompactUSD)
	}
	p.Verdict = m.Verdict
	return p
}

// peek is decide without moving the simulated line cache, as the hook's
// cold check on a prompt decides without saving (Call.NoSave).
func (m *PolicyModel) peek(reading int64) lines.Decision {
	saved := *m
	d := *m.decide(reading)
	*m = saved
	return d
}

func (m *PolicyModel) decide(reading int64) *lines.Decision {
	if m.cached && lines.Fresh(m.at, reading) && !m.ownNew && m.atVersion == m.version {
		return &m.d
	}
	if m.Settings.Fixed {
		m.d = lines.Decide(m.input(reading, nil))
		m.cached, m.at, m.atVersion = true, reading, m.version
		return &m.d
	}
	table := m.table()
	measured := m.own == nil && m.measure(table)
	m.d = lines.Decide(m.input(reading, table))
	m.ownNew = false
	if measured {
		if m.d.Priced {
			// The hook measured it in this recompute and cached it: its
			// next call sees a new Key.
			m.prefix, m.ownNew = nil, true
			w, r := forecast.Shipped.Orientation.Reorientation(m.d.Cost.Rates, m.h.First.Context)
			m.check = &OrientationCheck{PredictedTokens: w, PredictedUSD: r,
				Tokens: m.own.Phase.ContextTokens, CostUSD: m.own.Phase.Spend.CostUSD}
		} else {
			// No pricing ran, so the hook did not look.
			m.own = nil
			m.signs.Again()
		}
	}
	m.cached, m.at, m.atVersion = true, reading, m.version
	return &m.d
}

// measure measures the session's own orientation from the transcript so
// far, as the hook's recompute does: only once the search has seen a
// sign that it acted; true when it is measured.
func (m *PolicyModel) measure(table *prices.Table) bool {
	if m.Root != "" || m.noPrefix || len(m.prefix) == 0 || m.h.Last == nil || !m.signs.Due(m.Path) {
		return false
	}
	s := orientation.ReadOrientationFrom(m.prefix, m.Path)
	ph := orientation.Orientation(s, orientation.NewPricer(table), orientation.Options{})
	if !ph.Measured() {
		return false
	}
	m.own = &lines.Own{Phase: ph, Relayed: orientation.Relayed(s)}
	return true
}
