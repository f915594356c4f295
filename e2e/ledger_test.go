package e2e

import (
	"fmt"
	"testing"

	"github.com/muthur/context-budget/ledger"
)

// served sums the usage the mock served to requests of one kind, as the
// ledger tallies it (tokens and responses; the dollars are the price
// table's business).
func served(s *Session, k Kind) ledger.Tally {
	var t ledger.Tally
	for _, r := range s.Mock.Requests() {
		if r.Kind != k || r.Served == nil {
			continue
		}
		u := r.Served.usage
		t.InputTokens += u.Input
		t.CacheWrite5mTokens += u.CacheCreation
		t.CacheReadTokens += u.CacheRead
		t.OutputTokens += u.Output
		t.Responses++
	}
	return t
}

// checkLedger asserts the run's Stop hook (registered by install) left one
// ledger row for the session whose totals match the usage the mock served:
// own turns from the main requests, subagents from theirs. A compaction's
// summarisation response is in neither: 2.1.332 writes no record of it to
// the transcript, so no ledger can count it.
func checkLedger(t *testing.T, s *Session) {
	t.Helper()
	rd, err := ledger.NewReader(ledger.Dir(s.Project))
	if err != nil {
		t.Fatalf("ledger: %v", err)
	}
	rows, err := rd.ReadAll()
	if err != nil || rd.Skipped > 0 || len(rows) != 1 {
		t.Fatalf("ledger under %s: %d rows, %d skipped, err %v; want one row", ledger.Dir(s.Project), len(rows), rd.Skipped, err)
	}
	row := rows[0]
	cc := "none"
	if row.ClaudeCodeTotalUSD != nil {
		cc = fmt.Sprintf("$%.4f", *row.ClaudeCodeTotalUSD)
	}
	t.Logf("ledger row: own turns $%.4f, subagents $%.4f; Claude Code's own total %s", row.OwnTurns.CostUSD, row.Subagents.CostUSD, cc)
	for _, c := range []struct {
		name      string
		got, want ledger.Tally
	}{
		{"own turns", row.OwnTurns, served(s, KindMain)},
		{"subagents", row.Subagents, served(s, KindSubagent)},
	} {
		cost := c.got.CostUSD
		c.got.CostUSD = 0
		if c.got != c.want {
			t.Errorf("ledger row's %s = %+v, the mock served %+v", c.name, c.got, c.want)
		}
		if (c.want.Responses > 0) != (cost > 0) {
			t.Errorf("ledger row's %s cost $%.4f for %d responses", c.name, cost, c.want.Responses)
		}
	}
	if row.Total != row.OwnTurns.Add(row.Subagents) {
		t.Errorf("ledger row's total %+v is not own turns plus subagents", row.Total)
	}
}
