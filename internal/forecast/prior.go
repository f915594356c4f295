package forecast

import "math"

// Prior is what a session's measured figures shrink towards: what
// sessions in general do, fitted on a corpus of real sessions (package
// fit, run by go generate) and refined by the project's own ledger.
type Prior struct {
	// Step is the growth per request in tokens of a session at
	// ContextAt tokens of context (100,000 / Step requests per 100k).
	Step float64 `json:"step"`
	// Elasticity is how the pace rises with the context: requests per
	// token scale as (context / ContextAt)^Elasticity, the context held
	// within [ContextLo, ContextHi], the range the fit saw. Early in a
	// climb a session still reads in big steps; further on it edits and
	// tests in small ones.
	Elasticity float64 `json:"elasticity,omitempty"`
	// Rewrite is the share of its context a request re-writes to the
	// cache beyond its growth (expiries, model switches, prunes).
	Rewrite float64 `json:"rewrite"`
	// Out is the output tokens of a request.
	Out float64 `json:"out"`
}

// Weights say how much evidence each prior is worth, in the session's
// own units: Step in working steps, Rewrite in requests at the session's
// mean context, Out in responses. A session's measured figure counts as
// much as the prior once it has that many. The fit chooses them by
// cross-validation across sessions.
type Weights struct {
	Step    float64 `json:"step"`
	Rewrite float64 `json:"rewrite"`
	Out     float64 `json:"out"`
}

// Band is the spread of real sessions around the forecast: a share Share
// of the slices the fit held out cost between Lo and Hi times what was
// forecast for them.
type Band struct {
	Share float64 `json:"share"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Estimate is the forecast of the next slice's inputs.
type Estimate struct {
	// Q is the requests per token of growth.
	Q float64
	// Rewrite is the share of the context a request re-writes.
	Rewrite float64
	// OutPerRequest is the output tokens per request.
	OutPerRequest float64
}

// ContextAt is the context Prior.Step is given at; ContextLo and
// ContextHi bound the context the elasticity is applied to: the contexts
// of the corpus's points (every one of them lies early in a climb, as a
// point needs 100k tokens of room after it), beyond which the fit cannot
// say.
const (
	ContextAt = 50_000
	ContextLo = 20_000
	ContextHi = 80_000
)

// StepAt is the prior's growth per request at a context of c tokens.
func (pr Prior) StepAt(c float64) float64 {
	if pr.Elasticity == 0 {
		return pr.Step
	}
	c = min(max(c, ContextLo), ContextHi)
	return pr.Step * math.Pow(c/ContextAt, -pr.Elasticity)
}

// Evidence is what a forecast needs of a pace: sums and counts, so that
// pricing it with many priors (the fit does) costs no pass over the steps.
type Evidence struct {
	// StepSum is the growth over Steps working steps (a shrink counts
	// as none).
	StepSum, Steps float64
	// Rewritten is the cache writes beyond growth over Rewrites requests
	// that carried Carried tokens.
	Rewritten, Carried, Rewrites float64
	// Output is the output tokens of Responses responses.
	Output, Responses float64
	// Context is the latest response's context.
	Context float64
}

// Evidence sums the pace.
func (p *Pace) Evidence() Evidence {
	var sum int64
	for _, s := range p.Steps {
		sum += max(int64(s), 0)
	}
	return Evidence{StepSum: float64(sum), Steps: float64(len(p.Steps)),
		Rewritten: float64(p.Rewritten), Carried: float64(p.Carried), Rewrites: float64(p.Rewrites),
		Output: float64(p.Output), Responses: float64(p.Responses), Context: float64(p.Prev)}
}

// Forecast shrinks the session's measured figures towards pr, each with
// the weight w gives the prior: growth per working step, the rewrite
// ratio, output per response. With nothing measured it is the prior.
func (p *Pace) Forecast(pr Prior, w Weights) Estimate {
	return p.Evidence().Forecast(pr, w)
}

// Forecast is Pace.Forecast on the sums.
func (e Evidence) Forecast(pr Prior, w Weights) Estimate {
	step := shrink(e.StepSum, e.Steps, pr.StepAt(e.Context), w.Step)
	est := Estimate{Q: 1 / max(step, 1), Rewrite: pr.Rewrite,
		OutPerRequest: shrink(e.Output, e.Responses, pr.Out, w.Out)}
	if e.Rewrites > 0 && e.Carried > 0 {
		mean := e.Carried / e.Rewrites
		est.Rewrite = shrink(e.Rewritten, e.Carried, pr.Rewrite, w.Rewrite*mean)
	}
	return est
}

// shrink is (sum + weight·prior) / (count + weight): the measured mean
// sum/count pulled towards prior with the weight of that many counts. A
// huge weight is the prior; none, the measured mean (the prior when
// nothing was measured).
func shrink(sum, count, prior, weight float64) float64 {
	if count+weight <= 0 {
		return prior
	}
	return (sum + weight*prior) / (count + weight)
}
