// Package chain runs a relay chain (design §15): an unattended run that
// carries on across relays. It starts `claude -p PROMPT` in a git work
// tree, and when that session handed over (committed a hand-over summary
// under .claude/context-budget/relay/), starts its successor with
// `claude -p "/relay take <branch>"`, and so on, under three bounds: a
// number of sessions, a budget in dollars (given to each session as
// Claude Code's own --max-budget-usd and as the spend fuse's cap, in a
// --settings that a project's settings may lower and never raise), and
// no progress (two handed-over sessions in a row that changed nothing
// outside .claude/). A signal reaches the running session and ends the
// chain.
//
// The runner is for the person who walks away, and the agent in the
// sessions has their shell: so what it spent comes from the transcripts
// Claude Code wrote (fuse.Sessions: every session of the work tree since
// the chain started, nested ones included), never from claude's standard
// output, which the agent's tools can write to; its git runs without the
// repository's hooks or programs; each session's whole process tree ends
// with it (Keep). Each session's stream-json text is printed as it
// arrives. A session that ends asking for a person stops the chain as
// waiting; every stop but finished says the command that carries on in
// the same chain (Next). Between sessions the runner commits the
// finished session's ledger row alone. The sessions learn the chain's id
// and their place from their environment (EnvChain, EnvPlace), cleaned of
// Claude Code's markers of a parent session (Markers).
package chain

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
)

// Reason is why a chain stopped.
type Reason string

// The reasons, each with its exit status (Exit).
const (
	// Finished: a session ended without handing over, without a halt and
	// without asking for a person.
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
	// Waiting: the session ended without handing over, asking a person
	// something (the waiting marker, or a last sentence that asks).
	Waiting Reason = "waiting"
	// Failed: a session failed (another non-zero exit, no transcript),
	// or the runner could not go on.
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
	case Waiting:
		return 7
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
	EndWaiting     Ended = "waiting"
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
	// branch that has a commit (CheckTree).
	Dir string
	// Chain, when set, is the chain this run carries on: its id goes in
	// the rows, places count on from its rows' last, and what its rows
	// say the sessions spent counts against MaxUSD.
	Chain string
	// Resume, when set, is the session the run's first place resumes,
	// with Prompt as what the person answers it.
	Resume string
	// MaxRelays bounds the chain's places: at most MaxRelays+1, counted
	// over the whole chain.
	MaxRelays int
	// MaxUSD is the whole chain's budget in dollars at API rates; 0 for
	// none.
	MaxUSD float64
	// Environ is the runner's environment; the sessions get it cleaned.
	Environ []string
	// Out gets the sessions' text and a line before and after each;
	// Notes gets what went wrong on the way (a row not committed).
	Out, Notes io.Writer
	// Signals, when a signal arrives, is forwarded to the running
	// session, and the chain ends.
	Signals <-chan os.Signal
	// Price prices the responses of the transcripts the spend is taken
	// from.
	Price fuse.Pricer
	// Keeper is the command, before claude's own, that keeps a session's
	// process tree (context-budget-cli keep, which runs Keep); nil runs
	// claude directly, its process group ended with it.
	Keeper []string
	// Halt says in words what the spend fuse recorded of a session's
	// halt since since, "" when it recorded none, and whether that halt
	// ends the turn (a cap, a loop); getenv is the session's
	// environment.
	Halt func(root, session string, getenv func(string) string, since time.Time) (words string, ends bool)
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
	// ID is Claude Code's session id, the name of its transcript: the
	// runner's choice (--session-id), or the session it resumed.
	ID string
	// Place is 1 for the chain's first session.
	Place  int
	Prompt string
	// Resumed is set when the session resumed an earlier one (ID) with
	// the person's answer as its prompt.
	Resumed bool
	// Why says why it started.
	Why   string
	Ended Ended
	// HandedOver is set when it committed a hand-over summary; Summary
	// is that file, Branch the branch it handed over on.
	HandedOver      bool
	Summary, Branch string
	// CostUSD is what the chain spent while it ran, from the transcripts:
	// its own and those of the sessions in Counted.
	CostUSD float64
	// Counted are the other sessions whose spend counted while it ran:
	// sessions it started itself, by whatever program.
	Counted []Counted
	// Tampered is what the fuse's tally of it saw of tampering (its
	// transcript emptied or rewritten): its cost is the tally's.
	Tampered []string
	// Retried are the causes of its starts that failed before their
	// first response and were made again.
	Retried []string
	// Exit is claude's exit status (-1 when a signal ended it).
	Exit int
	// Transcript is its transcript, "" when none was found.
	Transcript string
	// Terminal and Subtype are its result's terminal_reason and subtype.
	Terminal, Subtype string
	// LastWords is its last message, when it ended waiting for a person.
	LastWords string
	// Note says more about how it ended: what halted it, why it failed.
	Note string
}

// Counted is another session whose spend counted in the chain's.
type Counted struct {
	ID      string
	CostUSD float64
}

// Summary is how a chain went.
type Summary struct {
	// Chain is the chain's id, in every session's ledger row.
	Chain   string
	Stopped Reason
	// Sessions are this run's.
	Sessions []Session
	// CostUSD is what this run's sessions cost; EarlierUSD what the
	// chain's earlier sessions cost, from their ledger rows (a run that
	// carries a chain on).
	CostUSD, EarlierUSD float64
	// MaxRelays and MaxUSD are the bounds the chain ran under.
	MaxRelays int
	MaxUSD    float64
	// Next is what carries on, in the same chain; nil when it finished.
	Next *Next
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
	r := &runner{cfg: cfg, env: Clean(cfg.Environ), relay: "/relay", started: time.Now(), first: 1}
	r.sum.Chain, r.sum.MaxRelays, r.sum.MaxUSD = cfg.Chain, cfg.MaxRelays, cfg.MaxUSD
	fuseDir := fuse.Dir(lookup(r.env), cfg.Dir)
	if cfg.Chain == "" {
		r.sum.Chain = NewID()
	} else {
		earlier, last := chainRows(cfg.Dir, cfg.Chain, fuseDir, cfg.Price)
		r.sum.EarlierUSD, r.first = earlier, last+1
	}
	r.spend = &fuse.Sessions{Projects: projectsDir(r.env), Root: workTree(cfg.Dir), From: r.started, Price: cfg.Price,
		Fuse: fuseDir}
	r.sum.Stopped = r.run()
	r.sum.Next = r.next()
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
	// started is when this run started: the transcripts' responses from
	// then on are its spend.
	started time.Time
	// first is the place of this run's first session.
	first int
	// spend tallies the transcripts.
	spend *fuse.Sessions
	// resource is the running session's OTEL_RESOURCE_ATTRIBUTES, stamped
	// with the chain (otel.go); "" leaves the runner's own.
	resource string
}

// run runs the sessions, one after another, and says why it stopped.
func (r *runner) run() Reason {
	prompt, why, resume := r.cfg.Prompt, "the prompt given", r.cfg.Resume
	switch {
	case resume != "":
		why = "the answer given to session " + resume
	case r.cfg.Chain != "":
		why = "the prompt that carries it on"
	}
	for place := r.first; ; place++ {
		if r.signalled() {
			return Interrupted
		}
		if place > r.cfg.MaxRelays+1 {
			return MaxRelays
		}
		s := Session{ID: NewID(), Place: place, Prompt: prompt, Why: why}
		if resume != "" {
			s.ID, s.Resumed, resume = r.cfg.Resume, true, ""
		}
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
		if place >= r.cfg.MaxRelays+1 {
			return MaxRelays
		}
		prompt = r.relay + " take " + s.Branch
		why = fmt.Sprintf("session %d handed over on %s (%s)", place, s.Branch, s.Summary)
	}
}

// spent is what the chain has spent: its earlier sessions' rows, and
// this run's transcripts.
func (r *runner) spent() float64 {
	return r.sum.EarlierUSD + r.spend.Total().USD
}

// remaining is the budget left for the next session, rounded down to a
// hundredth of a cent; ok is false when none is left. With no budget it
// is 0 and ok.
func (r *runner) remaining() (float64, bool) {
	if r.cfg.MaxUSD <= 0 {
		return 0, true
	}
	left := math.Floor((r.cfg.MaxUSD-r.spent())*1e4) / 1e4
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
