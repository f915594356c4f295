package fuse

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// ProjectDay returns a project's spend on one UTC day (YYYY-MM-DD): the
// tallies of its live sessions in the state folder dir (own, fresh, for
// the session asking) and the ledger rows (under ledgerDir, the day's
// month) of sessions that keep no tally. A ledger row holds a whole
// session, so a row counts on the day of its last response, whole.
func ProjectDay(dir, ledgerDir, session string, own *Tally, day string) Sum {
	total := own.Day(day)
	live := map[string]bool{session: true}
	// A file last written before the day began holds nothing of it: the
	// state folder keeps every past session's tally, and only today's are
	// worth parsing.
	start, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return total
	}
	fresh := func(name string) bool {
		fi, err := os.Stat(name)
		return err == nil && !fi.ModTime().Before(start)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"+state.SpendSuffix))
	for _, name := range names {
		id := strings.TrimSuffix(filepath.Base(name), state.SpendSuffix)
		if live[id] {
			continue
		}
		live[id] = true
		if fresh(name) {
			total = total.Add(LoadSettled(name).Day(day))
		}
	}
	rows, _ := filepath.Glob(filepath.Join(ledgerDir, day[:7], "*.json"))
	for _, name := range rows {
		if live[strings.TrimSuffix(filepath.Base(name), ".json")] || !fresh(name) {
			continue
		}
		data, err := reading.ReadFile(name, reading.MaxLedgerRow)
		if err != nil {
			continue
		}
		row, err := ledger.Parse(data)
		if err != nil || live[row.SessionID] || !strings.HasPrefix(row.LastResponseAt, day) {
			continue
		}
		t := row.Total
		total = total.Add(Sum{USD: t.CostUSD, Tokens: t.InputTokens + t.CacheWrite5mTokens + t.CacheWrite1hTokens +
			t.CacheReadTokens + t.OutputTokens, Responses: t.Responses})
	}
	return total
}
