package orientation

import (
	"fmt"
	"maps"
	"math"
	"slices"

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
		key := r.Model + "/" + r.Speed()
		t, ok := p.Tally(r)
		if !ok {
			unpriced[key]++
		}
		if r.Sub {
			row.Subagents = row.Subagents.Add(t)
		} else {
			row.OwnTurns = row.OwnTurns.Add(t)
		}
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
	for _, k := range slices.Sorted(maps.Keys(unpriced)) {
		row.Warnings = append(row.Warnings, fmt.Sprintf("unpriced model %s: %d responses counted at $0 (price table as of %s)", k, unpriced[k], p.Table.AsOf))
	}
	if len(s.Responses) > 0 {
		or, cs := Phases(s, p, o)
		row.Orientation, row.Compactions = &or, cs
	}
	// Dollars rounded to a millionth of a cent: rows are committed and
	// read in review, and float sums carry noise in the last digits.
	row.EachTally(func(t *ledger.Tally) { t.CostUSD = math.Round(t.CostUSD*1e8) / 1e8 })
	// A price table gone wrong (NaN, an infinity) must not stop the row
	// from being written: out-of-range figures become 0, with a warning.
	row.Sanitize()
	return row
}
