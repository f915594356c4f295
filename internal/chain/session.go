package chain

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry"
	"github.com/muthur/context-budget/internal/tuning"
)

// Claude Code's words in a result event: its own budget ends a session
// with this subtype; a hook's continue: false, from PreToolUse or from
// Stop, with one of these terminal reasons.
const (
	subtypeOverBudget = "error_max_budget_usd"
	terminalHook      = "hook_stopped"
	terminalStopHook  = "stop_hook_prevented"
)

// grace is how long a session has to end after the signal is forwarded
// to it; then it is killed. A second signal kills it at once.
const grace = 5 * time.Second

// drain bounds the wait for the session's output once its process tree
// has ended, and for a git command's once git has.
const drain = 2 * time.Second

// retries bounds the starts made again of a session that failed before
// its first response for a transient cause; retryWait is the wait before
// the first, doubled before each next.
const retries = 3

var retryWait = 2 * time.Second

// session runs one session, s, with budget dollars left (0: no budget),
// and decides from how it ended whether the chain stops, and why: ""
// when it handed over, and a successor may follow.
func (r *runner) session(s *Session, budget float64) Reason {
	args, err := parseArgs(r.cfg.Dir, r.cfg.Args)
	if err != nil {
		return r.fail(s, err)
	}
	start, err := snapshot(r.cfg.Dir)
	if err != nil {
		return r.fail(s, err)
	}
	r.announce(s, budget)
	// A resumed session's fuse counts it from its launch: its cap is the
	// budget left plus what it spent before.
	base := 0.0
	if s.Resumed {
		if t := findTranscript(r.env, s.ID); t != "" {
			var own fuse.Tally
			own.Update(fuse.Files(t), r.cfg.Price)
			base = own.Total().USD
			r.spend.Earlier(s.ID, t)
		}
	}
	pins := r.pins(args, budget, base)
	r.stampTelemetry(s, args, pins)
	env := r.sessionEnv(s, pins)
	r.spend.Update()
	before, beforeEach := r.spend.Total(), r.spend.Each()
	began := time.Now()
	var out outcome
	for try := 0; ; try++ {
		out, err = r.claude(s, budget, env, args.with(pins))
		if err != nil {
			return r.fail(s, err)
		}
		r.spend.Update()
		cause := transient(out, r.spend.Each()[s.ID])
		if cause == "" || try == retries || out.signal != nil {
			break
		}
		wait := retryWait << try
		s.Retried = append(s.Retried, cause)
		fmt.Fprintf(r.cfg.Out, "context-budget run: session %d failed before its first response (%s); starting it again in %v (retry %d of %d)\n",
			s.Place, cause, wait, try+1, retries)
		select {
		case sig := <-r.cfg.Signals:
			out = outcome{exit: out.exit, signal: sig}
		case <-time.After(wait):
		}
		if out.signal != nil {
			break
		}
		if !s.Resumed {
			// Claude Code may have kept the failed start's transcript
			// under its id: the new start takes a new one.
			s.ID = NewID()
			env = r.sessionEnv(s, pins)
		}
	}
	s.Exit = out.exit
	if res := out.result; res != nil {
		s.Terminal, s.Subtype = res.TerminalReason, res.Subtype
	}
	if out.relay != "" {
		r.relay = out.relay
	}
	s.CostUSD = r.spend.Total().Sub(before).USD
	s.Tampered = r.spend.Tampered(s.ID)
	for id, sum := range r.spend.Each() {
		if id != s.ID && sum.USD > beforeEach[id].USD {
			s.Counted = append(s.Counted, Counted{ID: id, CostUSD: sum.Sub(beforeEach[id]).USD})
		}
	}
	slices.SortFunc(s.Counted, func(a, b Counted) int { return strings.Compare(a.ID, b.ID) })
	s.Transcript = r.spend.Transcript(s.ID)
	if s.Transcript == "" {
		s.Transcript = findTranscript(env, s.ID)
	}
	root := r.cfg.Dir
	if row := rowOf(root, s.ID); (row == nil || row.Place != s.Place) && s.Transcript != "" && r.cfg.Record != nil {
		// Its Stop hook did not run (a resumed session's row still names
		// its earlier place): every session of a chain has its row.
		if err := r.cfg.Record(root, s.Transcript, s.ID, r.sum.Chain, s.Place); err != nil {
			fmt.Fprintf(r.cfg.Notes, "context-budget run: the ledger row of session %s: %v\n", s.ID, err)
		}
	}
	stop := r.ended(s, out, start, env, began)
	// Every row is committed, after Ctrl-C too: the session's, and those
	// of the sessions it started that wrote one here.
	for _, id := range append([]string{s.ID}, countedIDs(s.Counted)...) {
		if note := commitRow(root, id); note != "" && (id == s.ID || rowFile(root, id) != "") {
			fmt.Fprintf(r.cfg.Notes, "context-budget run: %s\n", note)
		}
	}
	r.reportTelemetry(s, env)
	fmt.Fprintf(r.cfg.Out, "context-budget run: session %d ended: %s; the chain spent %s while it ran%s\n", s.Place, s.Ended, usd(s.CostUSD), noteWords(s.Note))
	return stop
}

// fail ends a session the runner could not run.
func (r *runner) fail(s *Session, err error) Reason {
	s.Ended, s.Note, s.Exit = EndFailed, err.Error(), -1
	fmt.Fprintf(r.cfg.Notes, "context-budget run: %v\n", err)
	return Failed
}

func countedIDs(cs []Counted) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// transient says why a session's start failed before its first response
// for a cause that passes (the API overloaded, a server error, the
// connection), "" when it did not fail so: it exited non-zero, and its
// transcript holds no response a model served.
func transient(out outcome, own fuse.Sum) string {
	if out.exit == 0 || out.signal != nil || own.Responses > 0 {
		return ""
	}
	said := out.stderr
	if res := out.result; res != nil {
		said = strings.Join(append([]string{res.Result}, res.Errors...), " ") + " " + said
	}
	lower := strings.ToLower(said)
	for _, w := range []string{"overloaded", "api error: 5", "internal server error", "server_error", "service unavailable",
		"bad gateway", "gateway timeout", "connection error", "econnrefused", "econnreset", "etimedout", "socket hang up",
		"fetch failed", "request timed out"} {
		if strings.Contains(lower, w) {
			if line := []rune(OneLine(said)); len(line) > 160 {
				return string(line[:160]) + "…"
			}
			return cmp.Or(OneLine(said), w)
		}
	}
	return ""
}

// ended decides how s ended and whether the chain stops there, from its
// exit status, what the fuse recorded and its transcript; its result
// event (the last with its id) only tells Claude Code's own budget and a
// hook's stop apart.
func (r *runner) ended(s *Session, out outcome, start tree, env []string, began time.Time) Reason {
	res, root := out.result, r.cfg.Dir
	halt, ends := "", false
	if r.cfg.Halt != nil {
		halt, ends = r.cfg.Halt(root, s.ID, lookup(env), began)
	}
	_, left := r.remaining()
	hookStopped := res != nil && (res.TerminalReason == terminalHook || res.TerminalReason == terminalStopHook)
	switch {
	case out.signal != nil:
		s.Ended = EndInterrupted
		return Interrupted
	case halt != "" && (ends || hookStopped):
		s.Ended, s.Note = EndHalted, halt
		if !left {
			// The fuse's cap was the chain's budget left: it is spent.
			return MaxUSD
		}
		return Halted
	case out.exit != 0 && (!left || res != nil && res.Subtype == subtypeOverBudget):
		// Claude Code's own budget ends a session with exit status 1: a
		// result line saying so on a session that exited 0 is not its.
		s.Ended, s.Note = EndOverBudget, "the chain's budget is spent"
		if res != nil && res.Subtype == subtypeOverBudget {
			s.Note = "Claude Code's --max-budget-usd ended it"
		}
		return MaxUSD
	case hookStopped:
		s.Ended = EndHalted
		s.Note = out.hookSaid
		if s.Note == "" {
			s.Note = "a hook stopped it (" + res.TerminalReason + "), and the spend fuse recorded no halt"
		}
		return Halted
	case out.exit != 0:
		s.Ended, s.Note = EndFailed, fmt.Sprintf("claude exited with status %d", out.exit)
		if res != nil && len(res.Errors) > 0 {
			s.Note += ": " + strings.Join(res.Errors, "; ")
		}
		if len(s.Retried) > 0 {
			s.Note += fmt.Sprintf(" (after %d retries)", len(s.Retried))
		}
		return Failed
	case s.Transcript == "":
		s.Ended, s.Note = EndFailed, "no transcript of the session was found"
		return Failed
	}
	summary, err := handedOver(r.cfg.Dir, start.head)
	if err != nil {
		s.Ended, s.Note = EndFailed, err.Error()
		return Failed
	}
	if summary == "" {
		if p, ok := pauseOf(root, s.ID); ok && p.Manual {
			s.Ended, s.Note = EndPaused, "it paused for its context budget and offered /relay: it waits for your answer"
			return Paused
		}
		if msg := lastMessage(s.Transcript); Waits(msg) {
			s.Ended, s.LastWords = EndWaiting, lastWords(msg)
			return Waiting
		}
		s.Ended = EndFinished
		return Finished
	}
	s.Ended, s.HandedOver, s.Summary = EndHandedOver, true, summary
	branch, err := currentBranch(r.cfg.Dir)
	if err != nil {
		s.Note = err.Error()
		return Failed
	}
	s.Branch = branch
	end, err := snapshot(r.cfg.Dir)
	switch {
	case err != nil:
		// Unknown: count it as progress rather than stop a chain that
		// may be working.
		fmt.Fprintf(r.cfg.Notes, "context-budget run: progress not measured: %v\n", err)
		r.idle = 0
	case end.work == start.work:
		r.idle++
		s.Note = "it changed nothing outside .claude/"
	default:
		r.idle = 0
	}
	if r.idle >= 2 {
		return NoProgress
	}
	return ""
}

// announce prints the line before a session: which it is and why it
// starts, and the bounds it runs under.
func (r *runner) announce(s *Session, budget float64) {
	bounds := fmt.Sprintf("at most %d sessions", r.cfg.MaxRelays+1)
	if r.cfg.MaxUSD > 0 {
		bounds += fmt.Sprintf(", %s of the chain's %s left", usd(budget), usd(r.cfg.MaxUSD))
	} else {
		bounds += ", no budget"
	}
	switch {
	case s.Place == r.first && r.cfg.Chain == "":
		fmt.Fprintf(r.cfg.Out, "context-budget run: session 1 of chain %s starts (%s), with %s\n", r.sum.Chain, bounds, s.Why)
	case s.Place == r.first:
		fmt.Fprintf(r.cfg.Out, "context-budget run: chain %s carries on at session %d (%s; %s spent before), with %s; its prompt: %s\n",
			r.sum.Chain, s.Place, bounds, usd(r.sum.EarlierUSD), s.Why, s.Prompt)
	default:
		fmt.Fprintf(r.cfg.Out, "context-budget run: session %d starts (%s): %s; its prompt: %s\n", s.Place, bounds, s.Why, s.Prompt)
	}
}

// sessionEnv is the environment of session s: the runner's, cleaned, with
// the chain's id, the session's place, the pinned caps and the stamped
// resource attributes (r.resource).
func (r *runner) sessionEnv(s *Session, pins map[string]string) []string {
	env := make([]string, 0, len(r.env)+len(pins)+3)
	for _, kv := range r.env {
		name, _, _ := strings.Cut(kv, "=")
		if _, pinned := pins[name]; !pinned && (name != telemetry.EnvResource || r.resource == "") {
			env = append(env, kv)
		}
	}
	env = append(env, EnvChain+"="+r.sum.Chain, EnvPlace+"="+strconv.Itoa(s.Place))
	for _, name := range []string{tuning.EnvSpend, tuning.EnvSpendDay, "CLAUDE_CONFIG_DIR"} {
		if v, ok := pins[name]; ok {
			env = append(env, name+"="+v)
		}
	}
	if r.resource != "" {
		env = append(env, telemetry.EnvResource+"="+r.resource)
	}
	return env
}

// outcome is what a claude process left.
type outcome struct {
	exit   int
	result *result
	// relay is the relay skill's name from the session's list, "" when
	// it lists none.
	relay string
	// hookSaid is the latest message a hook's stop gave the user.
	hookSaid string
	// stderr is the end of what claude wrote on its standard error.
	stderr string
	// signal is the signal forwarded to the session, nil for none.
	signal os.Signal
}

// claude runs the session's claude process (under the keeper, when there
// is one), printing its text as it arrives, until its whole process tree
// has ended. A signal that arrives meanwhile is forwarded to it. err is
// set only when it could not start.
func (r *runner) claude(s *Session, budget float64, env, extra []string) (outcome, error) {
	args := []string{"-p", "--output-format", "stream-json", "--verbose"}
	if s.Resumed {
		args = append(args, "--resume", s.ID)
	} else {
		args = append(args, "--session-id", s.ID)
	}
	if budget > 0 {
		args = append(args, "--max-budget-usd", dollars(budget))
	}
	args = append(args, extra...)
	// The prompt after "--": an option of Args that takes several values
	// (--allowed-tools A B) would otherwise take it for one of them.
	args = append(args, "--", s.Prompt)
	argv := append(append([]string{}, r.cfg.Keeper...), r.cfg.Claude)
	cmd := exec.Command(argv[0], append(argv[1:], args...)...)
	cmd.Dir, cmd.Env = r.cfg.Dir, env
	errTail := &tail{w: r.cfg.Notes}
	cmd.Stderr = errTail
	cmd.WaitDelay = drain
	ownGroup(cmd)
	pr, pw, err := os.Pipe()
	if err != nil {
		return outcome{}, err
	}
	defer pr.Close()
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return outcome{}, fmt.Errorf("starting %s: %w", r.cfg.Claude, err)
	}
	pw.Close()
	read := make(chan streamed, 1)
	go func() { read <- follow(pr, r.cfg.Out, s.ID) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var out outcome
	var kill <-chan time.Time
wait:
	for {
		select {
		case <-done:
			break wait
		case sig := <-r.cfg.Signals:
			if out.signal != nil {
				// A second signal: the keeper ends the tree at once.
				signalGroup(cmd, sig)
				if r.cfg.Keeper == nil {
					killGroup(cmd)
				}
				continue
			}
			out.signal = sig
			fmt.Fprintf(r.cfg.Out, "context-budget run: %v: passing it to session %d and ending the chain\n", sig, s.Place)
			signalGroup(cmd, sig)
			// The keeper kills the tree after its own grace; this one
			// only ends a keeper that did not.
			kill = time.After(2 * grace)
			if r.cfg.Keeper == nil {
				kill = time.After(grace)
			}
		case <-kill:
			killGroup(cmd)
		}
	}
	// What is left of its process group ends with it (the keeper has
	// ended the rest of its tree).
	killGroup(cmd)
	var st streamed
	select {
	case st = <-read:
	case <-time.After(drain):
		pr.Close()
		st = <-read
	}
	out.result, out.relay, out.hookSaid = st.result, st.relay, st.hookSaid
	out.stderr = errTail.String()
	// The process's own status: Wait's error may only say that a process
	// it started still held an output when claude had exited.
	out.exit = -1
	if cmd.ProcessState != nil {
		out.exit = cmd.ProcessState.ExitCode()
	}
	return out, nil
}

// tail passes what is written on to w, keeping the last tailSize bytes.
type tail struct {
	w   interface{ Write([]byte) (int, error) }
	buf []byte
}

const tailSize = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return t.w.Write(p)
}

func (t *tail) String() string { return string(t.buf) }

// pauseOf reads the session's pause record, from the state folder of the
// folder it ran in, else of the work tree's top.
func pauseOf(dir, session string) (operator.Pause, bool) {
	for _, d := range candidates(dir) {
		if p, ok := operator.ReadPause(state.Dir(d), session); ok {
			return p, true
		}
	}
	return operator.Pause{}, false
}

// candidates are the folders a session's files may be under: the folder
// it ran in, which its hooks take for the project's root, and the top of
// its work tree.
func candidates(dir string) []string {
	out := []string{dir}
	if top := workTree(dir); top != dir {
		out = append(out, top)
	}
	return out
}

// findTranscript is the session's transcript under Claude Code's
// configuration folder (as env sets it), "" when there is none.
func findTranscript(env []string, session string) string {
	if !state.PlainName(session) {
		return ""
	}
	found, _ := filepath.Glob(filepath.Join(projectsDir(env), "*", session+".jsonl"))
	for _, f := range found {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// configDir is Claude Code's configuration folder as env sets it.
func configDir(env []string) string {
	get := lookup(env)
	home := get("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return settings.ConfigDir(get, home)
}

// lookup reads an environment list as os.Getenv reads the process's: the
// last entry of a name wins, as os/exec passes it.
func lookup(env []string) func(string) string {
	return func(name string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v
			}
		}
		return ""
	}
}

// dollars writes an amount for --max-budget-usd and the fuse's cap.
func dollars(v float64) string {
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// usd writes dollars for people.
func usd(v float64) string {
	return fmt.Sprintf("$%.2f", v)
}

func noteWords(note string) string {
	if note == "" {
		return ""
	}
	return " (" + note + ")"
}
