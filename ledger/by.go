package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// The keys rows are totalled by (ledger --by): the person who ran the
// session, its branch, the ISO week of its first response (UTC), its
// relay chain.
const (
	ByOperator = "operator"
	ByBranch   = "branch"
	ByWeek     = "week"
	ByChain    = "chain"
)

// ByKeys lists them, in the order they are offered.
var ByKeys = []string{ByOperator, ByBranch, ByWeek, ByChain}

// Group is the totals of the rows that share a key.
type Group struct {
	// Key is the value the rows share: an author, a branch, a week such
	// as "2026-W49", a chain's id; "" for rows that have none.
	Key      string `json:"key"`
	Sessions int    `json:"sessions"`
	// CostUSD is what the sessions cost at API rates.
	CostUSD float64 `json:"cost_usd"`
	// Relays counts the sessions that a relay started; Pauses the pause
	// notices the sessions were given.
	Relays int `json:"relays"`
	Pauses int `json:"pauses"`
	// NetUSD sums the pauses' verdicts: what relaying at them saves over
	// the alternative (negative: what it cost more).
	NetUSD float64 `json:"net_usd"`
}

// Key is the row's value of key by (one of ByKeys): the operator is the
// author (git user.email), else the GitHub login the hook resolved.
func (r *Row) Key(by string) string {
	switch by {
	case ByOperator:
		return cmp.Or(r.Author, r.Operator)
	case ByBranch:
		return r.Branch
	case ByWeek:
		return isoWeek(r.FirstResponseAt)
	case ByChain:
		return r.Chain
	}
	return ""
}

// isoWeek is the ISO 8601 week, UTC, of an RFC 3339 time, such as
// "2026-W49"; "" when it does not parse.
func isoWeek(at string) string {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return ""
	}
	y, w := t.UTC().ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
}

// By totals rows per value of key by (one of ByKeys): weeks in order,
// the other keys most costly first, rows without a value last.
func By(rows []Row, by string) ([]Group, error) {
	if !slices.Contains(ByKeys, by) {
		return nil, fmt.Errorf("no key %q (want operator, branch, week or chain)", by)
	}
	index := map[string]int{}
	var groups []Group
	for i := range rows {
		r := &rows[i]
		k := r.Key(by)
		j, ok := index[k]
		if !ok {
			j = len(groups)
			index[k] = j
			groups = append(groups, Group{Key: k})
		}
		groups[j].add(r)
	}
	slices.SortStableFunc(groups, func(a, b Group) int {
		if c := cmp.Compare(boolInt(a.Key == ""), boolInt(b.Key == "")); c != 0 {
			return c
		}
		if by == ByWeek {
			return cmp.Compare(a.Key, b.Key)
		}
		return cmp.Or(cmp.Compare(b.CostUSD, a.CostUSD), cmp.Compare(a.Key, b.Key))
	})
	return groups, nil
}

// Table is the rows totalled by one key: a group per value, and the
// totals of them all.
type Table struct {
	By     string  `json:"by"`
	Groups []Group `json:"groups"`
	Total  Group   `json:"total"`
}

// TableBy is By with the totals.
func TableBy(rows []Row, by string) (Table, error) {
	groups, err := By(rows, by)
	if err != nil {
		return Table{}, err
	}
	if groups == nil {
		groups = []Group{}
	}
	return Table{By: by, Groups: groups, Total: Sum(groups)}, nil
}

// Sum is the totals of every group, its key "".
func Sum(groups []Group) Group {
	var all Group
	for _, g := range groups {
		all.Sessions += g.Sessions
		all.CostUSD += g.CostUSD
		all.Relays += g.Relays
		all.Pauses += g.Pauses
		all.NetUSD += g.NetUSD
	}
	return all
}

// add counts one row into g.
func (g *Group) add(r *Row) {
	g.Sessions++
	g.CostUSD += r.Total.CostUSD
	if r.Relayed() {
		g.Relays++
	}
	for _, n := range r.Notices {
		if n.Level != LevelPause {
			continue
		}
		g.Pauses++
		if n.Verdict != nil {
			g.NetUSD += n.Verdict.NetUSD
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
