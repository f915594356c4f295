// Package forecast reads a session's history from its transcript (History:
// its first and latest responses, growth, cache TTL and window evidence),
// measures its pace — how it grows, how often it re-writes its cache, how
// much it outputs per request — and forecasts the next slice of work from
// it.
//
// The design's model (§4) takes the requests a slice will need from the
// mean growth per request since the latest boundary, writes each new token
// to the cache once, and leaves output out. Measured against what real
// sessions then spent, it under-predicted carrying on by about half:
//
//   - A session orients first: it reads files in a few big steps before
//     it first acts, and then works in many small ones, so the mean of
//     all steps since the boundary over-states the pace of the next slice
//     and under-states its requests. Pace leaves the orientation out: the
//     steps up to and including the first response that acts (an Edit,
//     Write or NotebookEdit, an AskUserQuestion or ExitPlanMode, or the
//     end of a turn — design §8's acting, less its path rule) are not
//     counted, after a compaction likewise. A session that works through
//     Bash alone never acts in that sense, so orientation also ends once
//     the context has grown by the design's RAMP_UP (60,000 tokens, its
//     estimate of what re-orienting takes) since it began. The mean of the steps after it
//     is shrunk towards the design's default (40 requests per 100k) with
//     the weight of a few requests, so an early estimate leans on the
//     default and a late one on the session. A plain mean, not a trimmed
//     one: once a session works, its big steps recur (a test run's log, a
//     file read mid-task), and leaving them out under-states its pace.
//   - A request re-writes the whole context to the cache when the cache
//     expired (a long tool run past the TTL, an idle operator), the model
//     changed, or old tool results were pruned. Pace measures the tokens
//     written beyond each request's growth, as a share of the context
//     carried (the rewrite ratio), and the forecast charges that share of
//     every request in the slice.
//   - Output is paid on every request. Pace keeps the mean output per
//     response over the whole session, shrunk towards the design's 700
//     tokens. Output costs a fresh session the same per request, so it
//     cancels out of the saving and the lines, but belongs in the
//     carrying-on figure a notice quotes.
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
	var sum int64
	for _, s := range p.Steps {
		sum += max(int64(s), 0)
	}
	step := (float64(sum) + DefaultStep*PriorWeight) / float64(len(p.Steps)+PriorWeight)
	return max(step, 1)
}

// Q is the forecast requests per token of growth.
func (p *Pace) Q() float64 { return 1 / p.Step() }

// Rewrite is the forecast share of the context a request re-writes to the
// cache, beyond its growth.
func (p *Pace) Rewrite() float64 {
	n := p.Rewrites
	if n == 0 || p.Carried <= 0 {
		return DefaultRewrite
	}
	prior := RewritePriorWeight * float64(p.Carried) / float64(n)
	return (float64(p.Rewritten) + DefaultRewrite*prior) / (float64(p.Carried) + prior)
}

// OutPerRequest is the forecast output tokens per request.
func (p *Pace) OutPerRequest() float64 {
	return (float64(p.Output) + DefaultOut*PriorWeight) / float64(p.Responses+PriorWeight)
}

// Family is a model id's family, the key of the fitted priors: the id
// without its "claude-" prefix and its date, e.g. claude-opus-4-5-20251101
// → opus-4-5.
func Family(model string) string {
	// ASCII only: strings.ToLower turns a byte that is not UTF-8 into
	// U+FFFD, three bytes (a fuzzer's find); model ids are ASCII.
	m := strings.TrimPrefix(lowerASCII(model), "claude-")
	if i := strings.LastIndexByte(m, '-'); i >= 0 && len(m)-i-1 == 8 && isDigits(m[i+1:]) {
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

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
