package forecast

import "github.com/muthur/context-budget/internal/restart"

//go:generate go run ../../tools/fit -out prior_gen.go

// Fit is a prior fitted on a corpus of real sessions: what the forecast
// shrinks a session's pace towards, how much evidence moves it, and how
// far real sessions scatter around it. Shipped is the one generated from
// the shared corpus (prior_gen.go, by `go generate ./internal/forecast`).
type Fit struct {
	// AsOf is the date of the newest response in the corpus, Corpus what
	// it was, Sessions and Points how much it held: sessions, and the
	// points (responses after which a session went on 100k tokens without
	// a compaction) the prior was fitted on.
	AsOf     string
	Corpus   string
	Sessions int
	Points   int
	// Weights are the shrink weights chosen by cross-validation.
	Weights Weights
	// All is the corpus-wide prior; Families the priors of the model
	// families with enough sessions for one of their own.
	All      Prior
	Families []FamilyPrior
	// Band is the spread of held-out slices around their forecast.
	Band Band
	// Compaction is what Claude Code's own compaction does, fitted on the
	// corpus's Compactions automatic compactions (design §4.2).
	Compaction  restart.Compaction
	Compactions int
	// Orientation is how a fresh session finds its feet before it first
	// acts, the successor's reorientation where the project measured
	// none, fitted on the own orientations (design §8) of Orientations
	// sessions: fresh sessions stand in for successors.
	Orientation  restart.Ramp
	Orientations int
}

// FamilyPrior is one model family's prior.
type FamilyPrior struct {
	Family string
	Prior  Prior
}

// Prior returns the prior for a model id: its family's, else the
// corpus-wide one.
func (f *Fit) Prior(model string) Prior {
	fam := Family(model)
	for _, p := range f.Families {
		if p.Family == fam {
			return p.Prior
		}
	}
	return f.All
}
