package replay

import (
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/linecache"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/policy"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/transcript"
)

// PolicyModel is the Model of the hook's own decision (package policy)
// with its line cache (package linecache) kept in memory: the history is
// fed record by record, and the decision is recomputed exactly when the
// hook's .line file would be stale — 10,000 tokens of growth since it was
// made, a drop, a crossing of 200,000 from below — so a replayed session
// sees the lines the hook would have seen after each response. With
// fixed lines there is no pricing and no cache, as in the hook.
//
// One difference, on purpose: replay reads and writes nothing of the
// session's project, so the successor's reorientation is always the
// estimate (policy.Reorient without a root). The hook, once the session
// has acted or the ledger holds relayed sessions, prices it from those
// instead (design §8), and its priced lines can then sit a few thousand
// tokens apart from replay's. The ledger as it stood when the session
// ran is gone anyway; the session's own orientation could be measured
// read-only, which is left to do.
type PolicyModel struct {
	Settings config.Settings
	// Table is the price table; nil means the embedded one.
	Table *prices.Table
	// Root and Path locate the session for the reorientation. Replay
	// leaves Root empty: the estimate, and no file read or written.
	Root, Path string
	Getenv     func(string) string

	h         history.History
	requested string // requestedModel of the latest response record
	cached    bool
	at        int64 // the reading the cached decision was made at
	d         policy.Decision
}

// NewPolicyModel returns a PolicyModel for the transcript at path.
func NewPolicyModel(s config.Settings, table *prices.Table, root, path string, getenv func(string) string) *PolicyModel {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &PolicyModel{Settings: s, Table: table, Root: root, Path: path, Getenv: getenv}
}

// Observe feeds the history, as the hook's pass over the transcript would.
func (m *PolicyModel) Observe(r *transcript.Record, line []byte) {
	if m.Settings.Fixed {
		if r.IsResponse() {
			m.requested = r.RequestedModel
		}
		return
	}
	if m.h.AddRecord(r, line) {
		m.requested = r.RequestedModel
	}
}

// Lines returns the decision's lines at reading.
func (m *PolicyModel) Lines(reading int64) lines.Lines {
	return m.decide(reading).Lines
}

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
	table := m.Table
	if table == nil {
		table, _ = prices.Embedded()
	}
	d := policy.Decide(policy.Input{Settings: m.Settings, Table: table, History: &m.h,
		Reading: reading, RequestedModel: m.requested, Root: m.Root, TranscriptPath: m.Path,
		Getenv: m.Getenv})
	return predict(&d, reading)
}

func predict(d *policy.Decision, reading int64) *Prediction {
	if !d.Priced {
		return nil
	}
	c := d.At(reading)
	read, write, output := c.Parts(reading)
	return &Prediction{SavingUSD: c.Saving(reading), CarryOnUSD: c.CarryOn(reading), Requests: c.N(),
		Parts: Parts{Read: read, Write: write, Output: output}}
}

func (m *PolicyModel) decide(reading int64) *policy.Decision {
	if m.Settings.Fixed {
		m.d = policy.Decide(policy.Input{Settings: m.Settings, Reading: reading,
			RequestedModel: m.requested, Getenv: m.Getenv})
		return &m.d
	}
	if m.cached && linecache.Fresh(m.at, reading) {
		return &m.d
	}
	table := m.Table
	if table == nil {
		table, _ = prices.Embedded()
	}
	m.d = policy.Decide(policy.Input{Settings: m.Settings, Table: table, History: &m.h,
		Reading: reading, RequestedModel: m.requested, Root: m.Root, TranscriptPath: m.Path,
		Getenv: m.Getenv})
	m.cached, m.at = true, reading
	return &m.d
}
