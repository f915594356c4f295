package forecast

import (
	"fmt"
	"strconv"

	"github.com/muthur/context-budget/ledger"
)

// The project's own history (design §8's source order, for the pace):
// from MinLedgerRows rows with a measured pace on, the mean of the rows
// refines the shipped prior, the shipped prior weighing as much as
// LedgerWeight rows.
const (
	MinLedgerRows = 5
	LedgerWeight  = 5
)

// Row is what a ledger row keeps of the pace, for the session's last
// model: its whole life's growth per request, rewrite share and output
// per response. Nil when nothing was measured.
func (p *Pace) Row(model string) *ledger.Pace {
	if p.Responses == 0 {
		return nil
	}
	r := &ledger.Pace{Model: model, Requests: p.Life.Steps,
		OutputPerRequest: round(float64(p.Output) / float64(p.Responses))}
	if p.Life.Steps > 0 {
		r.StepTokens = round(float64(p.Life.Growth) / float64(p.Life.Steps))
	}
	if p.Life.Carried > 0 {
		r.RewriteShare = round(float64(p.Life.Rewritten) / float64(p.Life.Carried))
	}
	return r
}

// round keeps six significant digits: a row is read by people too.
func round(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return r
}

// Refine returns the prior for model refined by the paces of a
// project's ledger rows, and the words naming where it came from. Fewer
// than MinLedgerRows usable rows leave the shipped prior. The rows'
// requests per token, rewrite shares and outputs are averaged, each
// session counting once, and pulled towards the shipped prior.
func (f *Fit) Refine(model string, rows []*ledger.Pace) (Prior, string) {
	pr := f.Prior(model)
	words := fmt.Sprintf("the prior fitted on %d real sessions (as of %s)", f.Sessions, f.AsOf)
	var n, q, rw, out float64
	for _, r := range rows {
		if !r.Usable() {
			continue
		}
		n++
		q += 1 / r.StepTokens
		rw += r.RewriteShare
		out += r.OutputPerRequest
	}
	if n < MinLedgerRows {
		return pr, words
	}
	k := float64(LedgerWeight)
	pr.Step = (k + n) / (k/pr.Step + q)
	pr.Rewrite = (k*pr.Rewrite + rw) / (k + n)
	pr.Out = (k*pr.Out + out) / (k + n)
	return pr, fmt.Sprintf("this project's %d ledger sessions and %s", int(n), words)
}

// LedgerPaces reads the paces of the ledger rows under root, leaving out
// session's own row (its pace is the session's evidence already). A
// missing ledger is no rows; a bad row is skipped.
func LedgerPaces(root, session string) []*ledger.Pace {
	if root == "" {
		return nil
	}
	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		return nil
	}
	var out []*ledger.Pace
	for {
		r, err := rd.Read()
		if err != nil {
			break
		}
		if r.SessionID != session && r.Pace.Usable() {
			out = append(out, r.Pace)
		}
	}
	return out
}
