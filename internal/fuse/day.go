package fuse

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// dayCount is a project's spend on one UTC day as the fuse keeps it, in
// its own folder (day-YYYY-MM-DD.json): each session's spend of the day,
// from its tally or from its ledger row, the largest ever seen. Removing,
// moving or re-dating a row later lowers nothing.
type dayCount struct {
	Sessions map[string]Sum `json:"sessions"`
	// Rows are the ledger rows read, by path, with their size and
	// modification time: a row is parsed again only when it changed.
	Rows map[string][2]int64 `json:"rows,omitempty"`
}

// dayName is the day's count in the fuse's folder.
func dayName(day string) string {
	return "day-" + day + ".json"
}

// projectDay returns a project's spend on one UTC day (YYYY-MM-DD) and
// records own, the asking session's spend of the day, in the fuse's
// count (in its folder fo): the count's sessions, with the ledger rows
// (under ledgerDir, in the day's month or the one before, where their
// first response was) whose last response is on the day, each counting
// whole. The count changes under its lock, taken by by.
func projectDay(fo *folder, ledgerDir, session string, own Sum, day string, by time.Time) (Sum, error) {
	start, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return Sum{}, err
	}
	name := dayName(day)
	unlock, err := fo.lock(name+state.LockSuffix, by)
	if err != nil {
		return Sum{}, err
	}
	defer unlock()
	dc, err := fo.loadDay(name)
	if err != nil {
		return Sum{}, err
	}
	changed := raise(dc.Sessions, session, own)
	for _, month := range []string{start.AddDate(0, -1, 0).Format("2006-01"), day[:7]} {
		names, _ := filepath.Glob(filepath.Join(ledgerDir, month, "*.json"))
		for _, n := range names {
			fi, err := os.Stat(n)
			if err != nil {
				continue
			}
			seen := [2]int64{fi.Size(), fi.ModTime().UnixNano()}
			if dc.Rows[n] == seen {
				continue
			}
			dc.Rows[n], changed = seen, true
			data, err := reading.ReadFile(n, reading.MaxLedgerRow)
			if err != nil {
				continue
			}
			row, err := ledger.Parse(data)
			if err != nil || !state.PlainName(row.SessionID) || !strings.HasPrefix(row.LastResponseAt, day) {
				continue
			}
			t := row.Total
			raise(dc.Sessions, row.SessionID, Sum{USD: t.CostUSD, Tokens: t.InputTokens + t.CacheWrite5mTokens +
				t.CacheWrite1hTokens + t.CacheReadTokens + t.OutputTokens, Responses: t.Responses})
		}
	}
	total, err := dc.total()
	if err != nil {
		return Sum{}, err
	}
	if changed {
		data, _ := json.Marshal(dc)
		if err := fo.write(name, append(data, '\n')); err != nil {
			return Sum{}, err
		}
	}
	return total, nil
}

// errDayDamaged reports a count of the day that does not parse or holds
// figures no counting makes.
var errDayDamaged = errors.New("the fuse's count of the day is damaged")

// loadDay reads the count of a day (dayName) in the folder: an empty one
// when there is none.
func (fo *folder) loadDay(name string) (dayCount, error) {
	var dc dayCount
	data, err := fo.read(name, reading.MaxTally)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return dc, err
	case json.Unmarshal(data, &dc) != nil:
		return dc, errDayDamaged
	}
	if dc.Sessions == nil {
		dc.Sessions = map[string]Sum{}
	}
	if dc.Rows == nil {
		dc.Rows = map[string][2]int64{}
	}
	return dc, nil
}

// total is the project's spend of the day: every session's.
func (dc dayCount) total() (Sum, error) {
	var total Sum
	for _, s := range dc.Sessions {
		if !sumOK(s) {
			return Sum{}, errDayDamaged
		}
		total = total.Add(s)
	}
	return total, nil
}

// raise sets m[id] to s where s is more, field by field; it reports
// whether it changed anything.
func raise(m map[string]Sum, id string, s Sum) bool {
	old := m[id]
	up := Sum{USD: max(old.USD, s.USD), Tokens: max(old.Tokens, s.Tokens),
		UnpricedTokens: max(old.UnpricedTokens, s.UnpricedTokens), Responses: max(old.Responses, s.Responses)}
	if up == old {
		return false
	}
	m[id] = up
	return true
}
