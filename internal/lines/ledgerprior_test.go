package lines

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

func writeRows(t *testing.T, root string, from, n int, step float64) {
	t.Helper()
	for i := from; i < from+n; i++ {
		r := ledger.Row{SessionID: fmt.Sprintf("r%d", i), FirstResponseAt: "2026-03-01T10:00:00Z",
			Pace: &ledger.Pace{Model: "claude-opus-4-6", StepTokens: step, Requests: 50, RewriteShare: 0.01, OutputPerRequest: 100}}
		if _, err := ledger.Write(root, &r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLedgerPrior: from five ledger rows on, their mean refines the
// prior, which the lines and "priced from" name; a row written later in
// the climb moves nothing until the next boundary.
func TestLedgerPrior(t *testing.T) {
	root := t.TempDir()
	s := settings(t, map[string]string{})
	h := climbHistory("claude-opus-4-6", 150_000)
	in := Input{Settings: s, Table: table(t), History: h, Reading: 150_000, Root: root, SessionID: "me"}

	writeRows(t, root, 0, 4, 500)
	d := Decide(in)
	shipped := forecast.Shipped.Prior("claude-opus-4-6")
	if !near(d.Cost.Q, 1/shipped.Step) || strings.Contains(d.PaceFrom, "ledger") {
		t.Fatalf("four rows moved the prior: q %v, from %q", d.Cost.Q, d.PaceFrom)
	}

	// A fifth row mid-climb: the prior stays.
	writeRows(t, root, 4, 1, 500)
	if d2 := Decide(in); d2.Cost != d.Cost || d2.Lines != d.Lines || d2.PaceFrom != d.PaceFrom {
		t.Errorf("a ledger row moved the lines in mid-climb: %+v → %+v", d.Lines, d2.Lines)
	}

	// A new climb (after a boundary) takes the five rows.
	h.Pace.Boundary()
	d3 := Decide(in)
	k, n := float64(forecast.LedgerWeight), 5.0
	want := (k/shipped.Step + n/500) / (k + n)
	if math.Abs(d3.Cost.Q-want) > 1e-12 || !strings.Contains(d3.PaceFrom, "this project's 5 ledger sessions") {
		t.Errorf("q %v, want %v; from %q", d3.Cost.Q, want, d3.PaceFrom)
	}
	if m := d3.Money(150_000); !strings.Contains(m.PaceFrom, "5 ledger sessions") || m.CarryOnLowUSD >= m.CarryOnUSD || m.CarryOnHighUSD <= m.CarryOnUSD {
		t.Errorf("money %+v", m)
	}

	// The design's estimator has no prior and no band.
	in.Settings = settings(t, map[string]string{tuning.EnvRate: tuning.RateSinceBoundary})
	if d := Decide(in); d.Spread != nil || d.PaceFrom != "" || d.Money(150_000).Share != 0 {
		t.Errorf("since-boundary has a band or a prior: %+v %q", d.Spread, d.PaceFrom)
	}
}
