package cli

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// TestCorpusLedgerBounds derives the range of the figures a committed
// row may bring to the lines (ledger/real.go) from the corpus: each
// session's row as the Stop hook writes it. Every real row lies within
// the shipped bounds, and each bound lies within twice its corpus
// extreme (the dollars: also within the table's widest price ratio over
// the corpus's models), so the bounds neither refuse a real session nor
// leave room for an absurd one. -v prints the range.
func TestCorpusLedgerBounds(t *testing.T) {
	dir := sharedtest.CorpusOrSkip(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	root := t.TempDir()
	for _, p := range paths {
		if _, err := recordRow(root, p, "", os.Getenv, io.Discard, nil); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	rd, err := ledger.NewReader(ledger.Dir(root))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := rd.ReadAll()
	if len(rows) < 180 {
		t.Fatalf("%d rows from %d sessions", len(rows), len(paths))
	}
	type span struct{ lo, hi float64 }
	grow := func(s *span, v float64) { s.lo, s.hi = min(s.lo, v), max(s.hi, v) }
	empty := span{math.Inf(1), math.Inf(-1)}
	step, rewrite, out, ctx, usd := empty, empty, empty, empty, empty
	paces := 0
	for _, r := range rows {
		if p := r.Pace; p != nil && p.Requests >= 2 && p.StepTokens > 0 {
			paces++
			grow(&step, p.StepTokens)
			grow(&rewrite, p.RewriteShare)
			grow(&out, p.OutputPerRequest)
			if !p.Usable() {
				t.Errorf("%s: the real pace %+v is not usable", r.SessionID, *p)
			}
		}
		if o := r.Orientation; o.Measured() {
			grow(&ctx, float64(o.ContextTokens))
			grow(&usd, o.Spend.CostUSD)
			if !o.Plausible() {
				t.Errorf("%s: the real orientation (%d tokens, $%.2f) is not plausible", r.SessionID, o.ContextTokens, o.Spend.CostUSD)
			}
		}
	}
	t.Logf("%d rows, %d paces: step %.0f–%.0f tokens, rewrite share up to %.3f, output up to %.0f a request; orientation %.0f–%.0f tokens, up to $%.2f",
		len(rows), paces, step.lo, step.hi, rewrite.hi, out.hi, ctx.lo, ctx.hi, usd.hi)

	// The widest price over the corpus's models: the table's dearest cache
	// read over Opus 4.6's.
	emb, _ := prices.Embedded()
	opus, _ := emb.Lookup("claude-opus-4-6", "")
	ratio := 0.0
	for _, r := range emb.Rows {
		ratio = max(ratio, r.CacheRead/opus.CacheRead)
	}
	for _, b := range []struct {
		name        string
		bound, real float64
		upper       bool
		slack       float64
	}{
		{"MinStepTokens", ledger.MinStepTokens, step.lo, false, 2},
		{"MaxStepTokens", ledger.MaxStepTokens, step.hi, true, 2},
		{"MaxRewriteShare", ledger.MaxRewriteShare, rewrite.hi, true, 2},
		{"MaxOutputPerRequest", ledger.MaxOutputPerRequest, out.hi, true, 2},
		{"MinOrientationTokens", ledger.MinOrientationTokens, ctx.lo, false, 2},
		{"MaxOrientationTokens", ledger.MaxOrientationTokens, ctx.hi, true, 2},
		{"MaxOrientationUSD", ledger.MaxOrientationUSD, usd.hi, true, 2 * ratio},
	} {
		if b.upper && (b.bound < b.real || b.bound > b.slack*b.real) || !b.upper && (b.bound > b.real || b.bound < b.real/b.slack) {
			t.Errorf("%s = %v, the corpus's extreme %v: want within %v× of it, outward", b.name, b.bound, b.real, b.slack)
		}
	}
}
