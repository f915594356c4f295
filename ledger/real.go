package ledger

// What a committed row may bring to someone's lines (the pace, the
// orientation a successor needs) lies within what real sessions show: the
// fitted corpus's range (TestCorpusLedgerBounds, package cli) widened by
// half and rounded outward. A row outside it is left out of the mean:
// five rows of 10 tokens per request would otherwise put a session's
// pause just past its orientation, a relay loop.
const (
	// MinStepTokens and MaxStepTokens bound a pace's growth per
	// request (corpus: 185 to 6,276).
	MinStepTokens = 120
	MaxStepTokens = 9_500
	// MaxRewriteShare bounds a pace's rewrite share (corpus: up to
	// 0.483).
	MaxRewriteShare = 0.75
	// MaxOutputPerRequest bounds a pace's output per response (corpus:
	// up to 1,384).
	MaxOutputPerRequest = 2_100
	// MinOrientationTokens and MaxOrientationTokens bound the context an
	// orientation ended at (corpus: 25,817 to 149,660).
	MinOrientationTokens = 17_000
	MaxOrientationTokens = 225_000
	// MaxOrientationUSD bounds what an orientation spent (corpus: up to
	// $2.70 on Opus 4.5 and 4.6).
	MaxOrientationUSD = 25
)

// Plausible reports whether a measured phase's context and spend lie
// within what real sessions show (MinOrientationTokens to
// MaxOrientationTokens, at most MaxOrientationUSD): the mean of a
// ledger's relayed rows counts only those.
func (p *Phase) Plausible() bool {
	return p.Measured() && p.ContextTokens >= MinOrientationTokens && p.ContextTokens <= MaxOrientationTokens &&
		CostOK(p.Spend.CostUSD) && p.Spend.CostUSD <= MaxOrientationUSD
}
