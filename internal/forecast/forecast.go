// Package forecast reads a session's history from its transcript (History:
// its first and latest responses, growth, cache TTL and window evidence),
// measures its pace — how it grows, how often it re-writes its cache, how
// much it outputs per request — and forecasts the next slice of work from
// it, refining the design's model (§4), which under-predicted carrying on:
//
//   - Pace leaves a session's orientation out: the steps up to and
//     including its first acting response (design §8's acting, less its
//     path rule), or until the context has grown OrientationGrowth, after
//     a compaction likewise. The plain mean of the later steps is shrunk
//     towards the default with the weight of a few requests.
//   - A request re-writes the whole context when the cache expired, the
//     model changed or old tool results were pruned: Pace measures the
//     tokens written beyond each request's growth as a share of the
//     context carried, and the forecast charges that share every request.
//   - Output is paid on every request: Pace keeps the mean output per
//     response, shrunk towards DefaultOut. It cancels out of the saving
//     and the lines, but belongs in the carrying-on figure a notice quotes.
//
// Pace is plain data and round-trips through JSON: the line cache keeps it
// inside the History.
package forecast

import (
	"slices"
	"strings"
)

// Defaults the estimates shrink towards, and how many requests' weight
// they carry.
const (
	// DefaultStep is the growth per request of the design's default q
	// (40 requests per 100k tokens).
	DefaultStep = 2_500
	// DefaultOut is the output per request of the design's ramp-up
	// estimate.
	DefaultOut = 700
	// PriorWeight is how many requests the defaults weigh.
	PriorWeight = 5
	// DefaultRewrite is the rewrite ratio assumed before any is measured:
	// one whole-context re-write per hundred requests (a cache expiry, a
	// model switch, a prune), where the design assumed none.
	DefaultRewrite = 0.01
	// RewritePriorWeight is how many requests, at the session's mean
	// context, that prior weighs: a single cache expiry early on must not
	// set the ratio alone.
	RewritePriorWeight = 20
	// OrientationGrowth is the growth after which a session counts as
	// working even if it has not acted: the design's RAMP_UP.
	OrientationGrowth = 60_000
	// MaxSteps bounds the steps kept: the most recent ones, which is also
	// the window the pace is measured over.
	MaxSteps = 400
)

// Pace is the measured pace of a session.
type Pace struct {
	// Working is set once the session acted since the latest boundary;
	// Steps is the growth of each response over the one before it since
	// then, most recent last, at most MaxSteps.
	Working bool    `json:"working,omitempty"`
	Steps   []int32 `json:"steps,omitempty"`
	// Prev is the context of the latest response (0: none since the
	// latest boundary), Start the context of the first.
	Prev  int64 `json:"prev,omitempty"`
	Start int64 `json:"start,omitempty"`
	// Rewritten is the cache writes beyond growth since the latest
	// boundary, Carried the context those responses carried.
	Rewritten int64 `json:"rewritten,omitempty"`
	Carried   int64 `json:"carried,omitempty"`
	Rewrites  int   `json:"rewrites,omitempty"`
	// Output is the output tokens of the session's responses, Responses
	// their count, LastOut the latest response's output (a response's
	// records repeat it, growing).
	Output    int64 `json:"output,omitempty"`
	Responses int   `json:"responses,omitempty"`
	LastOut   int64 `json:"last_out,omitempty"`
	// Life is the session's pace over its whole life, boundaries and
	// all: what its ledger row keeps.
	Life Life `json:"life,omitzero"`
	// Prior is the prior this climb is priced from, chosen at its first
	// priced decision and kept until the next boundary, so that a ledger
	// row written meanwhile does not move the lines in mid-climb; nil
	// until then. PriorFrom names it.
	Prior     *Prior `json:"prior,omitempty"`
	PriorFrom string `json:"prior_from,omitempty"`
}

// Life sums a session's steps, re-writes and output over its whole life.
type Life struct {
	// Growth is the net growth over Steps requests within climbs.
	Growth int64 `json:"growth,omitempty"`
	Steps  int64 `json:"steps,omitempty"`
	// Rewritten and Carried are as in Pace, never reset.
	Rewritten int64 `json:"rewritten,omitempty"`
	Carried   int64 `json:"carried,omitempty"`
}

// Boundary resets what is measured since the latest boundary: after a
// compaction the context starts again, and the first response after it
// writes the whole summary, which is no rewrite.
func (p *Pace) Boundary() {
	p.Steps, p.Prev, p.Start, p.Rewritten, p.Carried, p.Working = nil, 0, 0, 0, 0, false
	p.Prior, p.PriorFrom = nil, ""
}

// Response takes one response: its context, cache writes and output, and
// whether it acts. again is true for a further record of the latest
// response (same message id), which only updates the output and whether
// it acts.
func (p *Pace) Response(context, written, output int64, acts, again bool) {
	if again {
		p.Output += output - p.LastOut
		p.LastOut = output
		p.Working = p.Working || acts
		return
	}
	p.Responses++
	p.Output += output
	p.LastOut = output
	if p.Prev > 0 {
		step := context - p.Prev
		if p.Working {
			p.Steps = append(p.Steps, int32(min(max(step, -1<<31), 1<<31-1)))
			if len(p.Steps) > MaxSteps {
				p.Steps = slices.Delete(p.Steps, 0, len(p.Steps)-MaxSteps)
			}
		}
		rw := max(written-max(step, 0), 0)
		p.Rewritten += rw
		p.Carried += context
		p.Rewrites++
		p.Life.Growth += step
		p.Life.Steps++
		p.Life.Rewritten += rw
		p.Life.Carried += context
	} else {
		p.Start = context
	}
	p.Prev = context
	p.Working = p.Working || acts || context-p.Start >= OrientationGrowth
}

// Step is the forecast growth per request: the mean of the steps since
// the session began to work, a shrink (a prune without a boundary record)
// counting as no growth, shrunk towards DefaultStep.
func (p *Pace) Step() float64 {
	e := p.Evidence()
	return max(shrink(e.StepSum, e.Steps, DefaultStep, PriorWeight), 1)
}

// Q is the forecast requests per token of growth.
func (p *Pace) Q() float64 { return 1 / p.Step() }

// Rewrite is the forecast share of the context a request re-writes to the
// cache, beyond its growth.
func (p *Pace) Rewrite() float64 {
	if p.Rewrites == 0 || p.Carried <= 0 {
		return DefaultRewrite
	}
	return shrink(float64(p.Rewritten), float64(p.Carried), DefaultRewrite, RewritePriorWeight*float64(p.Carried)/float64(p.Rewrites))
}

// OutPerRequest is the forecast output tokens per request.
func (p *Pace) OutPerRequest() float64 {
	return shrink(float64(p.Output), float64(p.Responses), DefaultOut, PriorWeight)
}

// Family is a model id's family, the key of the fitted priors: the id
// without its "claude-" prefix and its date, e.g. claude-opus-4-5-20251101
// → opus-4-5.
func Family(model string) string {
	// ASCII only: strings.ToLower turns a byte that is not UTF-8 into
	// U+FFFD, three bytes (a fuzzer's find); model ids are ASCII.
	m := strings.TrimPrefix(lowerASCII(model), "claude-")
	if i := strings.LastIndexByte(m, '-'); i >= 0 && len(m)-i-1 == 8 && strings.Trim(m[i+1:], "0123456789") == "" {
		m = m[:i]
	}
	return m
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
