package forecast

import (
	"math"
	"strings"
	"testing"

	"github.com/muthur/context-budget/ledger"
)

func TestRefine(t *testing.T) {
	f := Fit{Sessions: 186, AsOf: "2026-02-16", All: Prior{Step: 1000, Rewrite: 0.02, Out: 40}}
	row := func(step float64) *ledger.Pace {
		return &ledger.Pace{StepTokens: step, Requests: 10, RewriteShare: 0.04, OutputPerRequest: 80}
	}
	rows := []*ledger.Pace{row(500), row(500), row(500), row(500), nil, {StepTokens: 2e9, Requests: 9}}
	pr, words := f.Refine("claude-opus-4-6", rows)
	if pr != f.All || words != "the prior fitted on 186 real sessions (as of 2026-02-16)" {
		t.Errorf("four usable rows refined the prior: %+v %q", pr, words)
	}
	rows = append(rows, row(250))
	pr, words = f.Refine("claude-opus-4-6", rows)
	// q: (5/1000 + 4/500 + 1/250) / 10 = 0.0017.
	if !near(pr.Step, 1/0.0017) || !near(pr.Rewrite, 0.03) || !near(pr.Out, 60) {
		t.Errorf("refined %+v", pr)
	}
	if !strings.HasPrefix(words, "this project's 5 ledger sessions and the prior fitted on 186") {
		t.Errorf("words %q", words)
	}
}

func TestRow(t *testing.T) {
	var p Pace
	p.Response(20_000, 20_000, 100, true, false)
	p.Response(22_000, 2_500, 300, false, false) // 500 re-written
	p.Boundary()
	p.Response(10_000, 10_000, 200, false, false) // a compaction's drop: no step
	p.Response(14_000, 4_000, 200, false, false)
	r := p.Row("claude-opus-4-6")
	if r.Requests != 2 || r.StepTokens != 3000 || r.OutputPerRequest != 200 || math.Abs(r.RewriteShare-500.0/36_000) > 1e-6 || !r.Usable() {
		t.Errorf("row %+v", r)
	}
	if (&Pace{}).Row("m") != nil {
		t.Error("a pace with no response made a row")
	}
}
