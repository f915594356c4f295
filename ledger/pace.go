package ledger

// Pace is a session's measured pace over its whole life, the figures the
// forecast of carrying on needs: growth per request, the share of its
// context a request re-wrote to the cache beyond its growth (expiries,
// model switches, prunes), and output per request. The mean over a
// project's rows refines the prior the forecast shrinks a session
// towards. Nil on a row written before the pace was kept.
type Pace struct {
	// Model is the model of the session's last response.
	Model string `json:"model,omitempty"`
	// StepTokens is the context's net growth per request, within climbs
	// (a compaction's drop is not counted); Requests the requests it was
	// measured over.
	StepTokens float64 `json:"stepTokens"`
	Requests   int64   `json:"requests"`
	// RewriteShare is the cache writes beyond growth over the context the
	// requests carried.
	RewriteShare float64 `json:"rewriteShare"`
	// OutputPerRequest is the output tokens per response.
	OutputPerRequest float64 `json:"outputPerRequest"`
}

// Usable reports whether the pace was measured over enough of a session
// to count, with figures real sessions show (real.go): at least two
// requests, a growth per request from MinStepTokens to MaxStepTokens, a
// rewrite share from 0 to MaxRewriteShare, an output per request from 0
// to MaxOutputPerRequest. A row is shared by a team; a hand-edited one
// must not throw every forecast off.
func (p *Pace) Usable() bool {
	return p != nil && p.Requests >= 2 && p.StepTokens >= MinStepTokens && p.StepTokens <= MaxStepTokens &&
		p.RewriteShare >= 0 && p.RewriteShare <= MaxRewriteShare && p.OutputPerRequest >= 0 && p.OutputPerRequest <= MaxOutputPerRequest
}
