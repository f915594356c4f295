package chain

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/settings"
	"github.com/muthur/context-budget/internal/state"
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

// drain bounds the wait for the session's output once it has exited: a
// process it started may still hold the pipe.
const drain = 2 * time.Second

// session runs one session, s, with budget dollars left (0: no budget),
// and decides from how it ended whether the chain stops, and why: ""
// when it handed over, and a successor may follow.
func (r *runner) session(s *Session, budget float64) Reason {
	start, err := snapshot(r.cfg.Dir)
	if err != nil {
		s.Ended, s.Note = EndFailed, err.Error()
		fmt.Fprintf(r.cfg.Notes, "context-budget: run: %v\n", err)
		return Failed
	}
	r.announce(s, budget)
	env := r.sessionEnv(s, budget)
	out, err := r.claude(s, budget, env)
	if err != nil {
		s.Ended, s.Note, s.Exit = EndFailed, err.Error(), -1
		fmt.Fprintf(r.cfg.Notes, "context-budget: run: %v\n", err)
		return Failed
	}
	s.Exit = out.exit
	if res := out.result; res != nil {
		if state.PlainName(res.SessionID) {
			s.ID = res.SessionID
		}
		s.Terminal, s.Subtype = res.TerminalReason, res.Subtype
		if res.TotalCostUSD != nil {
			s.CostUSD = *res.TotalCostUSD
		}
	}
	if out.relay != "" {
		r.relay = out.relay
	}
	s.Transcript = findTranscript(env, s.ID)
	root := r.cfg.Dir
	row := rowOf(root, s.ID)
	if row == nil && s.Transcript != "" && r.cfg.Record != nil {
		// Its Stop hook did not run: every session of a chain has its row.
		if err := r.cfg.Record(root, s.Transcript, s.ID, r.sum.Chain, s.Place); err != nil {
			fmt.Fprintf(r.cfg.Notes, "context-budget: run: the ledger row of session %s: %v\n", s.ID, err)
		}
		row = rowOf(root, s.ID)
	}
	if (out.result == nil || out.result.TotalCostUSD == nil) && row != nil {
		s.CostUSD = row.Total.CostUSD
	}
	stop := r.ended(s, out, start, env, root)
	if out.signal == nil {
		// Not after Ctrl-C: the person asked for the chain to end now,
		// and their branch is left as the session left it.
		if note := commitRow(root, s.ID); note != "" {
			fmt.Fprintf(r.cfg.Notes, "context-budget: run: %s\n", note)
		}
	}
	fmt.Fprintf(r.cfg.Out, "context-budget run: session %d ended: %s; it cost %s%s\n", s.Place, s.Ended, usd(s.CostUSD), noteWords(s.Note))
	return stop
}

// ended decides how s ended and whether the chain stops there.
func (r *runner) ended(s *Session, out outcome, start tree, env []string, root string) Reason {
	res := out.result
	switch {
	case out.signal != nil:
		s.Ended = EndInterrupted
		return Interrupted
	case res != nil && res.Subtype == subtypeOverBudget:
		s.Ended, s.Note = EndOverBudget, "Claude Code's --max-budget-usd ended it"
		return MaxUSD
	case res != nil && (res.TerminalReason == terminalHook || res.TerminalReason == terminalStopHook):
		s.Ended = EndHalted
		if r.cfg.Halt != nil {
			s.Note = r.cfg.Halt(root, s.ID, s.Transcript, lookup(env))
		}
		if s.Note == "" && out.hookSaid != "" {
			s.Note = out.hookSaid
		}
		if s.Note == "" {
			s.Note = "a hook stopped it (" + res.TerminalReason + "), and the spend fuse recorded no halt"
		}
		return Halted
	case out.exit != 0:
		s.Ended, s.Note = EndFailed, fmt.Sprintf("claude exited with status %d", out.exit)
		if res != nil && len(res.Errors) > 0 {
			s.Note += ": " + strings.Join(res.Errors, "; ")
		}
		return Failed
	case res == nil:
		s.Ended, s.Note = EndFailed, "claude gave no result"
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
			s.Ended, s.Note = EndPaused, "it paused for its context budget and offered /relay: the chain waits for you"
			return Paused
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
		fmt.Fprintf(r.cfg.Notes, "context-budget: run: progress not measured: %v\n", err)
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
// starts.
func (r *runner) announce(s *Session, budget float64) {
	bounds := fmt.Sprintf("at most %d sessions", r.cfg.MaxRelays+1)
	if r.cfg.MaxUSD > 0 {
		bounds += fmt.Sprintf(", %s of %s left", usd(budget), usd(r.cfg.MaxUSD))
	}
	if s.Place == 1 {
		fmt.Fprintf(r.cfg.Out, "context-budget run: session 1 of chain %s starts (%s), with %s\n", r.sum.Chain, bounds, s.Why)
		return
	}
	fmt.Fprintf(r.cfg.Out, "context-budget run: session %d starts (%s): %s; its prompt: %s\n", s.Place, bounds, s.Why, s.Prompt)
}

// sessionEnv is the environment of session s: the runner's, cleaned, with
// the chain's id, the session's place and the budget left as the spend
// fuse's cap.
func (r *runner) sessionEnv(s *Session, budget float64) []string {
	env := make([]string, 0, len(r.env)+3)
	for _, kv := range r.env {
		if budget > 0 && strings.HasPrefix(kv, tuning.EnvSpend+"=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, EnvChain+"="+r.sum.Chain, EnvPlace+"="+strconv.Itoa(s.Place))
	if budget > 0 {
		env = append(env, tuning.EnvSpend+"=$"+dollars(budget))
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
	// signal is the signal forwarded to the session, nil for none.
	signal os.Signal
}

// claude runs the session's claude process, printing its text as it
// arrives, until it exits. A signal that arrives meanwhile is forwarded
// to it. err is set only when it could not start.
func (r *runner) claude(s *Session, budget float64, env []string) (outcome, error) {
	args := []string{"-p", "--output-format", "stream-json", "--verbose", "--session-id", s.ID}
	if budget > 0 {
		args = append(args, "--max-budget-usd", dollars(budget))
	}
	args = append(args, r.cfg.Args...)
	// The prompt after "--": an option of Args that takes several values
	// (--allowed-tools A B) would otherwise take it for one of them.
	args = append(args, "--", s.Prompt)
	cmd := exec.Command(r.cfg.Claude, args...)
	cmd.Dir, cmd.Env = r.cfg.Dir, env
	cmd.Stderr = r.cfg.Notes
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
	go func() { read <- follow(pr, r.cfg.Out) }()
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
				killGroup(cmd)
				continue
			}
			out.signal = sig
			fmt.Fprintf(r.cfg.Out, "context-budget run: %v: passing it to session %d and ending the chain\n", sig, s.Place)
			signalGroup(cmd, sig)
			kill = time.After(grace)
		case <-kill:
			killGroup(cmd)
		}
	}
	// A tool the session left running (a background shell) ends with it.
	killGroup(cmd)
	var st streamed
	select {
	case st = <-read:
	case <-time.After(drain):
		pr.Close()
		st = <-read
	}
	out.result, out.relay, out.hookSaid = st.result, st.relay, st.hookSaid
	// The process's own status: Wait's error may only say that a process
	// it started still held an output when claude had exited.
	out.exit = -1
	if cmd.ProcessState != nil {
		out.exit = cmd.ProcessState.ExitCode()
	}
	return out, nil
}

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
	if top, err := gitOut(dir, nil, "rev-parse", "--show-toplevel"); err == nil && top != "" && top != dir {
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
	get := lookup(env)
	home := get("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	found, _ := filepath.Glob(filepath.Join(settings.ConfigDir(get, home), "projects", "*", session+".jsonl"))
	for _, f := range found {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			return f
		}
	}
	return ""
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
