package orientation

import (
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// Speed is a response's speed as the ledger names it: "standard" unless
// the usage says otherwise.
func (r *Response) Speed() string {
	if r.Usage.Speed == "" {
		return "standard"
	}
	return r.Usage.Speed
}

// Pricer prices responses with a table, remembering the lookups.
type Pricer struct {
	Table *prices.Table
	rows  map[[2]string]lookup
}

type lookup struct {
	row prices.Row
	ok  bool
}

// NewPricer returns a Pricer over t.
func NewPricer(t *prices.Table) *Pricer {
	return &Pricer{Table: t, rows: map[[2]string]lookup{}}
}

// Tally returns one response as a tally; ok is false when its model and
// speed are not in the table (its tokens count, its cost is zero).
func (p *Pricer) Tally(r *Response) (t ledger.Tally, ok bool) {
	u := &r.Usage
	t = ledger.Tally{
		InputTokens:        u.InputTokens,
		CacheWrite5mTokens: u.Write5m(),
		CacheWrite1hTokens: u.Write1h(),
		CacheReadTokens:    u.CacheReadInputTokens,
		OutputTokens:       u.OutputTokens,
		Responses:          1,
	}
	key := [2]string{r.Model, u.Speed}
	l, seen := p.rows[key]
	if !seen {
		l.row, l.ok = p.Table.Lookup(r.Model, u.Speed)
		p.rows[key] = l
	}
	if l.ok {
		t.CostUSD = l.row.Cost(u)
	}
	return t, l.ok
}
