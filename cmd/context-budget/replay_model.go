package main

import (
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
	"github.com/muthur/context-budget/internal/linecache"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/policy"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/transcript"
)

// policyModel is the replay's Model: the hook's policy, fed the session's
// records as the hook's history pass would read them, and kept by the
// line cache's rule, so that replay finds the lines the hook would have
// had after each response.
type policyModel struct {
	s      config.Settings
	table  *prices.Table
	getenv func(string) string

	h         history.History
	requested string // the latest response's requestedModel
	d         *policy.Decision
	at        int64 // the reading d was made at
}

func (m *policyModel) Observe(r *transcript.Record) {
	if m.h.Add(r) {
		m.requested = r.RequestedModel
	}
}

func (m *policyModel) decision(reading int64) *policy.Decision {
	if m.s.Fixed {
		// The hook's fixed lines: no history, no cache.
		d := policy.Decide(policy.Input{Settings: m.s, Reading: reading, RequestedModel: m.requested, Getenv: m.getenv})
		return &d
	}
	if m.d != nil && linecache.Fresh(m.at, reading) {
		return m.d
	}
	d := policy.Decide(policy.Input{Settings: m.s, Table: m.table, History: &m.h,
		Reading: reading, RequestedModel: m.requested, Getenv: m.getenv})
	m.d, m.at = &d, reading
	return m.d
}

func (m *policyModel) Lines(reading int64) lines.Lines { return m.decision(reading).Lines }

func (m *policyModel) Predict(reading int64) *replay.Prediction {
	d := m.decision(reading)
	if !d.Priced {
		return nil
	}
	c := d.At(reading)
	return &replay.Prediction{SavingUSD: c.Saving(reading), CarryOnUSD: c.CarryOn(reading), Requests: c.N()}
}

// tablePrices prices responses from a price table.
type tablePrices struct{ t *prices.Table }

func (p tablePrices) Cost(model, speed string, u *transcript.Usage) (float64, bool) {
	row, ok := p.t.Lookup(model, speed)
	if !ok {
		return 0, false
	}
	return row.Cost(u), true
}

// replayOptions builds the lines and the prices a replay uses: the hook's
// policy with these settings and this price table (nil: the embedded
// one).
func replayOptions(s config.Settings, table *prices.Table, getenv func(string) string) replay.Options {
	if table == nil {
		table, _ = prices.Embedded()
	}
	return replay.Options{
		NewModel: func(string) replay.Model { return &policyModel{s: s, table: table, getenv: getenv} },
		Prices:   tablePrices{table},
	}
}
