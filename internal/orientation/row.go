package orientation

import (
	"fmt"
	"math"
	"sort"

	"github.com/muthur/context-budget/ledger"
)

// Row builds the ledger row of a session, priced by p. Operator is the
// GitHub login behind the session, "" if none was resolved.
func Row(s *Session, p *Pricer, operator string, o Options) ledger.Row {
	row := ledger.Row{
		SessionID:          s.ID,
		Branch:             s.Branch,
		Cwd:                s.Cwd,
		OpeningPrompt:      s.OpeningPrompt,
		Operator:           operator,
		PricesAsOf:         p.Table.AsOf,
		ClaudeCodeTotalUSD: s.ClaudeCodeTotalUSD,
		ByRate:             map[string]ledger.Tally{},
		Warnings:           []string{},
	}
	unpriced := map[string]int{}
	var first, last *Response
	for i := range s.Responses {
		r := &s.Responses[i]
		t, ok := p.Tally(r)
		if !ok {
			unpriced[r.Model+"/"+r.Speed()]++
		}
		if r.Sub {
			row.Subagents = row.Subagents.Add(t)
		} else {
			row.OwnTurns = row.OwnTurns.Add(t)
		}
		key := r.Model + "/" + r.Speed()
		row.ByRate[key] = row.ByRate[key].Add(t)
		if r.Stamp != "" {
			if first == nil || before(r, first) {
				first = r
			}
			if last == nil || before(last, r) {
				last = r
			}
		}
	}
	row.Total = row.OwnTurns.Add(row.Subagents)
	if first != nil {
		row.FirstResponseAt, row.LastResponseAt = first.Stamp, last.Stamp
	}
	keys := make([]string, 0, len(unpriced))
	for k := range unpriced {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		row.Warnings = append(row.Warnings, fmt.Sprintf("unpriced model %s: %d responses counted at $0 (price table as of %s)", k, unpriced[k], p.Table.AsOf))
	}
	if len(s.Responses) > 0 {
		or, cs := Phases(s, p, o)
		row.Orientation = &or
		row.Compactions = cs
	}
	roundRow(&row)
	// A price table gone wrong (NaN, an infinity) must not stop the row
	// from being written: out-of-range figures become 0, with a warning.
	row.Sanitize()
	return row
}

// roundRow rounds the dollars to a millionth of a cent: rows are committed
// and read in review, and float sums carry noise in the last digits.
func roundRow(r *ledger.Row) {
	round := func(t *ledger.Tally) { t.CostUSD = math.Round(t.CostUSD*1e8) / 1e8 }
	round(&r.Total)
	round(&r.OwnTurns)
	round(&r.Subagents)
	for k, t := range r.ByRate {
		round(&t)
		r.ByRate[k] = t
	}
	if r.Orientation != nil {
		round(&r.Orientation.Spend)
	}
	for i := range r.Compactions {
		round(&r.Compactions[i].Spend)
	}
}
