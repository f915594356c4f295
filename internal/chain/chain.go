// Package chain runs a relay chain (design §15): an unattended run that
// carries on across relays. It starts `claude -p PROMPT` in a git work
// tree, and when that session handed over (committed a hand-over summary
// under .claude/context-budget/relay/), starts its successor with
// `claude -p "/relay take <branch>"`, and so on, under three bounds: a
// number of relays, a budget in dollars (given to each session as Claude
// Code's own --max-budget-usd and as the spend fuse's cap), and no
// progress (two handed-over sessions in a row that changed nothing
// outside .claude/). A signal reaches the running session and ends the
// chain.
//
// Each session's stream-json text is printed as it arrives; its result
// event says what it cost and how it ended. Between sessions the runner
// commits the finished session's ledger row alone. The sessions learn the
// chain's id and their place from their environment (EnvChain, EnvPlace),
// cleaned of Claude Code's markers of a parent session (Markers).
package chain

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"github.com/muthur/context-budget/internal/lines"
)

// Reason is why a chain stopped.
type Reason string

// The reasons, each with its exit status (Exit).
const (
	// Finished: a session ended without handing over and without a halt.
	Finished Reason = "finished"
	// MaxRelays: the chain handed over as often as it may.
	MaxRelays Reason = "max-relays"
	// MaxUSD: the chain's budget is spent, or Claude Code's own budget
	// stopped a session.
	MaxUSD Reason = "max-usd"
	// Halted: a hook stopped the session (the spend fuse, a loop halt).
	Halted Reason = "halted"
	// NoProgress: two sessions in a row handed over having changed
	// nothing outside .claude/.
	NoProgress Reason = "no-progress"
	// Paused: the session paused for its context budget and offered
	// /relay (manual mode): the chain waits for a person.
	Paused Reason = "paused"
	// Failed: a session failed (another non-zero exit, no result, no
	// transcript), or the runner could not go on.
	Failed Reason = "failed"
	// Interrupted: a signal (Ctrl-C) ended the chain.
	Interrupted Reason = "interrupted"
)

// Exit is the runner's exit status for r.
func (r Reason) Exit() int {
	switch r {
	case Finished:
		return 0
	case MaxRelays, MaxUSD:
		return 3
	case Halted:
		return 4
	case NoProgress:
		return 5
	case Paused:
		return 6
	case Interrupted:
		return 130
	}
	return 1
}

// Ended says how one session ended.
type Ended string

// How a session ends.
const (
	EndHandedOver  Ended = "handed over"
	EndFinished    Ended = "finished"
	EndOverBudget  Ended = "over budget"
	EndHalted      Ended = "halted"
	EndPaused      Ended = "paused"
	EndFailed      Ended = "failed"
	EndInterrupted Ended = "interrupted"
)

// Config is what a chain runs.
type Config struct {
	// Claude is the claude program; Prompt the first session's prompt;
	// Args what goes to every session after the runner's own flags.
	Claude string
	Prompt string
	Args   []string
	// Dir is the folder the sessions run in, inside a git work tree on a
	// branch (CheckTree).
	Dir string
	// MaxRelays bounds the relays: at most MaxRelays+1 sessions.
	MaxRelays int
	// MaxUSD is the chain's budget in dollars at API rates; 0 for none.
	MaxUSD float64
	// Environ is the runner's environment; the sessions get it cleaned.
	Environ []string
	// Out gets the sessions' text and a line before and after each;
	// Notes gets what went wrong on the way (a row not committed).
	Out, Notes io.Writer
	// Signals, when a signal arrives, is forwarded to the running
	// session, and the chain ends.
	Signals <-chan os.Signal
	// Halt says in words what the spend fuse recorded of a halted
	// session, "" when it recorded nothing; getenv is the session's
	// environment.
	Halt func(root, session, transcript string, getenv func(string) string) string
	// Record writes a session's ledger row, naming the chain and its
	// place, as its Stop hook would have: for a session whose Stop hook
	// did not run (Claude Code's budget ended it, a signal did). Nil:
	// such a session has no row.
	Record func(root, transcript, session, chain string, place int) error
	// Decide is a finished session's cost model at its last reading,
	// for the forecast; ok is false when it has none (an unpriced
	// model). Nil: no forecast.
	Decide func(root, transcript, session string) (d lines.Decision, reading int64, ok bool)
}

// Session is one session of a chain.
type Session struct {
	// ID is Claude Code's session id, the name of its transcript.
	ID string
	// Place is 1 for the first session.
	Place  int
	Prompt string
	// Why says why it started.
	Why   string
	Ended Ended
	// HandedOver is set when it committed a hand-over summary; Summary
	// is that file, Branch the branch it handed over on.
	HandedOver      bool
	Summary, Branch string
	// CostUSD is what Claude Code says it cost (its result's
	// total_cost_usd), else what its ledger row says.
	CostUSD float64
	// Exit is claude's exit status (-1 when a signal ended it).
	Exit int
	// Transcript is its transcript, "" when none was found.
	Transcript string
	// Terminal and Subtype are its result's terminal_reason and subtype.
	Terminal, Subtype string
	// Note says more about how it ended: what halted it, why it failed.
	Note string
}

// Summary is how a chain went.
type Summary struct {
	// Chain is the chain's id, in every session's ledger row.
	Chain    string
	Stopped  Reason
	Sessions []Session
	// CostUSD is what the sessions cost.
	CostUSD float64
	// Forecast is what one session carrying on would have cost, by the
	// cost model; nil when there is nothing to compare (one session) or
	// the first session has no cost model.
	Forecast *Forecast
}

// Run runs the chain cfg describes and says how it went. It returns when
// the chain stops; the reason is in the summary.
func Run(cfg Config) Summary {
	// The session's text and the runner's own lines come from two
	// goroutines.
	cfg.Out = &lockedWriter{w: cfg.Out}
	r := &runner{cfg: cfg, env: Clean(cfg.Environ), relay: "/relay"}
	r.sum.Chain = NewID()
	r.sum.Stopped = r.run()
	r.sum.Forecast = forecastOf(cfg, r.sum.Sessions)
	return r.sum
}

// runner is a chain under way.
type runner struct {
	cfg Config
	env []string
	sum Summary
	// relay is the relay skill's name as the sessions list it: /relay,
	// or /context-budget:relay from the plugin.
	relay string
	// idle counts the sessions in a row that handed over with no
	// progress.
	idle int
}

// run runs the sessions, one after another, and says why it stopped.
func (r *runner) run() Reason {
	prompt, why := r.cfg.Prompt, "the prompt given"
	for place := 1; ; place++ {
		if r.signalled() {
			return Interrupted
		}
		s := Session{ID: NewID(), Place: place, Prompt: prompt, Why: why}
		budget, ok := r.remaining()
		if !ok {
			return MaxUSD
		}
		stop := r.session(&s, budget)
		r.sum.Sessions = append(r.sum.Sessions, s)
		r.sum.CostUSD += s.CostUSD
		if stop != "" {
			return stop
		}
		// Handed over: a successor, unless a bound says no.
		if _, left := r.remaining(); !left {
			return MaxUSD
		}
		if place > r.cfg.MaxRelays {
			return MaxRelays
		}
		prompt = r.relay + " take " + s.Branch
		why = fmt.Sprintf("session %d handed over on %s (%s)", place, s.Branch, s.Summary)
	}
}

// remaining is the budget left for the next session, rounded down to a
// hundredth of a cent; ok is false when none is left. With no budget it
// is 0 and ok.
func (r *runner) remaining() (float64, bool) {
	if r.cfg.MaxUSD <= 0 {
		return 0, true
	}
	left := math.Floor((r.cfg.MaxUSD-r.sum.CostUSD)*1e4) / 1e4
	return left, left > 0
}

// signalled reports whether a signal came while no session ran.
func (r *runner) signalled() bool {
	select {
	case <-r.cfg.Signals:
		return true
	default:
		return false
	}
}

// lockedWriter writes to w one write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
