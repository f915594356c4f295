// Package restart is the cost model of design §4: what carrying on costs
// over the next slice of work, what relaying to a fresh session costs up
// front and over that slice, the saving, and the context at which the
// saving reaches a dollar threshold (a priced line).
//
// Every function is pure arithmetic on a Model; rates are USD per token.
// Notation follows the design: C the reading, S the slice, n = S·q the
// requests in the slice, r the cache-read rate, o the output rate, w the
// cache-write rate of the session's TTL, W and R the successor's
// reorientation context and cost, O = SummaryOut·o the summary turn's
// output.
package restart

import "math"

// Constants of the model (design §4, §8).
const (
	// Slice is the further work the saving is measured over, in tokens.
	Slice = 100_000
	// SummaryOut is the output of the relay's summary turn, in tokens.
	SummaryOut = 8_000
	// MinGrowth is the growth since a boundary below which q is not
	// measured but defaulted.
	MinGrowth = 20_000
	// RequestsPerToken is the default q: 40 requests per 100k tokens.
	RequestsPerToken = 40.0 / 100_000
)

// Rates are what the model needs of a price row, in USD per token.
type Rates struct {
	// Read is the cache-read rate r.
	Read float64
	// Output is the output rate o.
	Output float64
	// Write is the cache-write rate w of the session's TTL.
	Write float64
}

// PerMillion converts rates in USD per million tokens (a price table's
// unit) to USD per token.
func PerMillion(output, read, write float64) Rates {
	return Rates{Read: read / 1e6, Output: output / 1e6, Write: write / 1e6}
}

// Model is one session's situation.
type Model struct {
	Rates
	// Q is the forecast requests per token of growth.
	Q float64
	// W is the successor's reorientation context in tokens, R its cost.
	W int64
	R float64
	// Rewrite is the share ρ of its context a request re-writes to the
	// cache beyond its growth (expiries, model switches, prunes), and
	// OutPerRequest the output tokens ō of a request. Both zero is the
	// design's model: the cache written once, output left out.
	Rewrite       float64 `json:"rewrite,omitempty"`
	OutPerRequest float64 `json:"out_per_request,omitempty"`
}

// N is the number of requests in the slice: S·q.
func (m Model) N() float64 { return Slice * m.Q }

// O is the cost of the summary turn's output.
func (m Model) O() float64 { return SummaryOut * m.Output }

// CarryOn is what carrying on over the slice costs from context c:
// n·r·(C + S/2) + S·w + ρ·n·w·(C + S/2) + n·ō·o (every request re-reads
// the context, which grows by the slice; the slice's new tokens are
// written to the cache once, and a share ρ of the context again per
// request; every request pays its output).
func (m Model) CarryOn(c int64) float64 {
	return m.Over(c, Slice)
}

// Over is what carrying on costs over g tokens of growth from context c:
// CarryOn with the slice S replaced by g, and its g·q requests. It adds
// up: Over(c, a) + Over(c+a, b) = Over(c, a+b).
func (m Model) Over(c, g int64) float64 {
	if g <= 0 {
		return 0
	}
	read, write, output := m.parts(float64(c), float64(g))
	return read + write + output
}

// Parts splits CarryOn(c) into what the slice's requests pay for cache
// reads, for cache writes, and for output.
func (m Model) Parts(c int64) (read, write, output float64) {
	return m.parts(float64(c), Slice)
}

// parts splits the cost of g tokens of growth from context c.
func (m Model) parts(c, g float64) (read, write, output float64) {
	n := g * m.Q
	mid := c + g/2
	return n * m.Read * mid, g*m.Write + m.Rewrite*n*m.Write*mid, n * m.OutPerRequest * m.Output
}

// RelayUpfront is what relaying at context c costs before any further
// work: C·r + O + R (the summary turn reads the context once and writes
// its summary; the successor re-orients).
func (m Model) RelayUpfront(c int64) float64 {
	return float64(c)*m.Read + m.O() + m.R
}

// RelayOverSlice is what relaying at c and then doing the slice costs:
// the up-front cost plus the slice carried on from the successor's
// reorientation context W.
func (m Model) RelayOverSlice(c int64) float64 {
	return m.RelayUpfront(c) + m.CarryOn(m.W)
}

// Saving is what relaying at c saves over the slice against carrying on:
// (n − 1)·r·C − n·r·W + ρ·n·w·(C − W) − O − R (the output of the slice's
// requests is the same either way and cancels). Negative means relaying
// costs more.
func (m Model) Saving(c int64) float64 {
	n := m.N()
	cf, wf := float64(c), float64(m.W)
	return (n-1)*m.Read*cf - n*m.Read*wf + m.Rewrite*n*m.Write*(cf-wf) - m.O() - m.R
}

// Line is the context at which the saving reaches d dollars, rounded to
// the nearest token: C* = (D + n·W·(r + ρ·w) + O + R) / ((n − 1)·r +
// ρ·n·w), which with ρ = 0 is the design's (D + n·r·W + O + R) /
// (r·(n − 1)). There is no line (ok false) when n ≤ 1 — with at most one
// request per slice a bigger context never costs more to carry — or when
// the read rate is not positive.
func (m Model) Line(d float64) (tokens int64, ok bool) {
	n := m.N()
	if n <= 1 || m.Read <= 0 {
		return 0, false
	}
	rw := m.Rewrite * m.Write
	c := (d + n*float64(m.W)*(m.Read+rw) + m.O() + m.R) / (m.Read*(n-1) + rw*n)
	if math.IsNaN(c) || math.IsInf(c, 0) || c > math.MaxInt64/2 {
		return 0, false
	}
	return int64(math.Round(c)), true
}

// Ramp is how a fresh session finds its feet before it first acts: the
// successor's reorientation where nothing of the project was measured
// (design §8), fitted on real sessions' own orientations (tools/fit; the
// shipped figures are forecast.Shipped.Orientation). From its first
// context C₁ the session grows by Growth tokens before it acts; its
// requests write FirstWrite·C₁ of that first context and the growth to
// the cache; it makes Requests requests, each reading its context as it
// grows and writing OutPerRequest output tokens.
type Ramp struct {
	Growth        float64 `json:"growth"`
	FirstWrite    float64 `json:"first_write"`
	Requests      float64 `json:"requests"`
	OutPerRequest float64 `json:"out_per_request"`
}

// Reorientation is W and R of a successor that starts at context c1:
// W = C₁ + Growth; R = (FirstWrite·C₁ + Growth)·w +
// Requests·(C₁ + Growth/2)·r + Requests·OutPerRequest·o.
func (k Ramp) Reorientation(rt Rates, c1 int64) (w int64, r float64) {
	c := float64(c1)
	w = c1 + int64(math.Round(k.Growth))
	r = (k.FirstWrite*c+k.Growth)*rt.Write + k.Requests*(c+k.Growth/2)*rt.Read + k.Requests*k.OutPerRequest*rt.Output
	return w, r
}
