// Package fuse is the spend fuse (design §13): the tally of what a
// session has spent, the caps a session and a project may spend, the
// warning at 80% of a cap, the halt at 100% (every tool call denied, the
// run ended at its stop), the loop of one tool call repeated, the burn
// rate, and the tool calls by which an agent would lift its own fuse.
//
// A session's fuse lives in the state folder (design §5): <session_id>.fuse
// holds the cap armed from the CLI, its baseline, and a loop halt recorded
// by the PostToolUse hook; <session_id>.spend the tally; <session_id>.calls
// the last tool call and its count. With no cap in the environment and no
// fuse file, the PreToolUse and Stop hooks decide from one stat.
package fuse

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

// The hook events the fuse answers.
const (
	PreToolUse   = "PreToolUse"
	Stop         = "Stop"
	SubagentStop = "SubagentStop"
)

// Call is one hook call, as the fuse sees it.
type Call struct {
	Event      string
	Root       string
	Session    string
	Transcript string
	// Agent is the subagent's id, "" in the session's own turns: the fuse
	// applies inside subagents too.
	Agent     string
	ToolName  string
	ToolInput json.RawMessage
	Now       time.Time
	Getenv    func(string) string
	// Armed, when set, is called once the fuse is found armed, before any
	// of its work: the hook starts its deadline's timers there, which the
	// unarmed check, an environment look-up and one open, does not need.
	Armed func()
}

// Answer is what the fuse says; all empty is silence.
type Answer struct {
	// Deny is the reason a tool call is denied, shown to the model.
	Deny string
	// Context is a notice to the model, beside the call.
	Context string
	// System is a message to the user.
	System string
	// Stop ends the run (continue: false) with this reason to the user.
	Stop string
}

// warnShare is the share of a cap at which the fuse warns.
const warnShare = 0.8

// burnWindow is the span the burn rate is measured over.
const burnWindow = 5 * time.Minute

// Decide answers one PreToolUse, Stop or SubagentStop call. Unmetered and
// unarmed, it reads the environment and tries one file, and returns.
func Decide(c Call) (Answer, error) {
	if !state.PlainName(c.Session) || c.Root == "" {
		return Answer{}, nil
	}
	s, err := tuning.FuseFromEnv(c.Getenv)
	if err != nil {
		return Answer{}, err
	}
	dir := state.Dir(c.Root)
	arm, armed := LoadArm(dir, c.Session)
	if !s.Metered() && !armed {
		return Answer{}, nil
	}
	if c.Armed != nil {
		c.Armed()
	}
	if arm.Loop != nil {
		return loopAnswer(c, dir, arm.Loop)
	}
	caps := capsOf(s, arm, armed)
	if len(caps) == 0 && s.BurnUSD == 0 {
		return Answer{}, nil
	}
	if c.Transcript == "" {
		return Answer{}, nil
	}
	m, err := meter(c, dir, s, caps)
	if err != nil {
		return Answer{}, err
	}
	switch c.Event {
	case Stop, SubagentStop:
		if len(m.held) > 0 {
			return Answer{Stop: haltText(m.held, false)}, nil
		}
		return Answer{}, nil
	}
	// A warning recorded on this call goes out with whatever the call
	// gets: it was recorded, so it will not come again.
	if IsStatus(c.ToolName, c.ToolInput) {
		return m.warnings, nil
	}
	if len(m.held) > 0 {
		return Answer{Deny: haltText(m.held, true)}, nil
	}
	if len(caps) > 0 {
		if why := Lifts(c.ToolName, c.ToolInput, c.Root); why != "" {
			return Answer{Deny: liftText(why), System: m.warnings.System}, nil
		}
	}
	return m.warnings, nil
}

// capState is one cap in force and what counts against it.
type capState struct {
	kind   string // "session" or "day"
	cap    tuning.Amount
	source string
	spent  Sum
	// period names the cap's period, so its warning fires once in it.
	period string
}

// capsOf lists the caps in force: the session's (the CLI's, else the
// environment's) and the project's per day.
func capsOf(s tuning.Fuse, arm Arm, armed bool) []capState {
	var caps []capState
	switch {
	case armed && arm.Set:
		if !arm.Cap.IsZero() {
			caps = append(caps, capState{kind: "session", cap: arm.Cap, source: "context-budget budget arm", period: "armed " + arm.At})
		}
	case !s.Spend.IsZero():
		caps = append(caps, capState{kind: "session", cap: s.Spend, source: tuning.EnvSpend, period: "launch " + s.Spend.String()})
	}
	if !s.Day.IsZero() {
		caps = append(caps, capState{kind: "day", cap: s.Day, source: tuning.EnvSpendDay})
	}
	return caps
}

// metered is the outcome of one metered call.
type metered struct {
	held     []capState
	warnings Answer
}

// meter brings the session's tally up to date, under the fuse's lock, and
// decides the caps held and the warnings due, recording each warning
// before it is sent.
func meter(c Call, dir string, s tuning.Fuse, caps []capState) (metered, error) {
	unlock, err := lockFuse(dir, c.Session)
	if err != nil {
		return metered{}, err
	}
	defer unlock()
	// The CLI may have armed, reset or disarmed since the unlocked read.
	arm, armed := LoadArm(dir, c.Session)
	if arm.Loop == nil {
		caps = capsOf(s, arm, armed)
	}
	t := Load(TallyName(dir, c.Session))
	notesBefore := maps.Clone(t.Notes)
	changed := t.Update(Files(c.Transcript), hookPricer(filepath.Join(dir, prices.CacheName), c.Root, c.Getenv))
	day := c.Now.UTC().Format(time.DateOnly)
	// The CLI runs in the user's shell, without the session's env: keep
	// the caps from launch where budget status can read them.
	setNote(t, "env session", noteOf(s.Spend))
	setNote(t, "env day", noteOf(s.Day))
	var m metered
	var notes []string
	for i := range caps {
		cs := &caps[i]
		if cs.kind == "session" {
			cs.spent = t.Total().Sub(arm.Base)
		} else {
			cs.spent = ProjectDay(dir, ledger.Dir(c.Root), c.Session, t, day)
			cs.period = day
		}
		share := shareOf(cs.cap, cs.spent)
		key := "warn " + cs.kind
		switch {
		case share >= 1:
			m.held = append(m.held, *cs)
		case share >= warnShare && t.Notes[key] != cs.period:
			setNote(t, key, cs.period)
			notes = append(notes, warnText(*cs, t.Unpriced))
		}
	}
	if s.BurnUSD > 0 {
		burn := t.Since(c.Now.Add(-burnWindow)).USD
		switch {
		case burn >= s.BurnUSD && t.Notes["burn"] == "":
			setNote(t, "burn", c.Now.UTC().Format(time.RFC3339))
			notes = append(notes, burnText(burn, s.BurnUSD))
		case burn < s.BurnUSD && t.Notes["burn"] != "":
			delete(t.Notes, "burn")
		}
	}
	// Parallel calls of one response find nothing new: no write then.
	if changed || !maps.Equal(notesBefore, t.Notes) {
		if err := saveTally(dir, c.Session, t); err != nil {
			return metered{held: m.held}, nil
		}
	}
	if len(notes) > 0 && c.Event == PreToolUse {
		m.warnings = Answer{Context: strings.Join(notes, "\n\n"), System: strings.Join(notes, " ")}
	}
	return m, nil
}

// shareOf returns how much of cap a has been spent: 1 is the whole cap. A
// dollar cap counts no spend that has no price.
func shareOf(a tuning.Amount, s Sum) float64 {
	if a.Tokens > 0 {
		return float64(s.Tokens) / float64(a.Tokens)
	}
	if a.USD > 0 {
		return s.USD / a.USD
	}
	return 0
}

// spentIn writes what of s counts against a, in a's unit.
func spentIn(a tuning.Amount, s Sum) string {
	if a.Tokens > 0 {
		return tuning.FormatTokens(s.Tokens) + " tokens"
	}
	return fmt.Sprintf("$%.2f", s.USD)
}

func noteOf(a tuning.Amount) string {
	if a.IsZero() {
		return ""
	}
	if a.Tokens > 0 {
		return fmt.Sprint(a.Tokens)
	}
	return fmt.Sprintf("$%g", a.USD)
}

// lockFuse takes the session's fuse lock, making the state folder only
// when the lock cannot be opened: on most calls it is there.
func lockFuse(dir, session string) (func(), error) {
	unlock, err := state.Lock(lockName(dir, session))
	if err == nil {
		return unlock, nil
	}
	if err := state.Ensure(dir); err != nil {
		return nil, err
	}
	return state.Lock(lockName(dir, session))
}

func setNote(t *Tally, key, value string) {
	if value == "" {
		delete(t.Notes, key)
		return
	}
	if t.Notes == nil {
		t.Notes = map[string]string{}
	}
	t.Notes[key] = value
}

// loopAnswer denies every call but budget status while a loop halt
// stands, and ends the run at its stop, which releases the halt: the next
// prompt starts afresh.
func loopAnswer(c Call, dir string, l *Loop) (Answer, error) {
	text := fmt.Sprintf("context-budget loop fuse: the same tool call ran %d times in a row (%s), so the run is halted.", l.Count, l.Call)
	switch c.Event {
	case Stop, SubagentStop:
		err := ChangeArm(dir, c.Session, func(a *Arm) error { a.Loop = nil; return nil })
		if err != nil {
			return Answer{}, err
		}
		clearCalls(dir, c.Session)
		return Answer{Stop: text + " The loop halt is released for the next prompt."}, nil
	}
	if IsStatus(c.ToolName, c.ToolInput) {
		return Answer{}, nil
	}
	return Answer{Deny: text + " Every tool call is denied until this turn ends. Do not retry it: end your turn now and say what you were trying to do and what kept failing."}, nil
}

func (cs capState) what() string {
	if cs.kind == "day" {
		return fmt.Sprintf("this project has spent %s today (UTC) of its %s daily cap (%s)", spentIn(cs.cap, cs.spent), cs.cap, cs.source)
	}
	return fmt.Sprintf("this session has spent %s of its %s cap (%s)", spentIn(cs.cap, cs.spent), cs.cap, cs.source)
}

// haltText is the reason of a halt: what was spent, the cap, what to do.
func haltText(held []capState, toModel bool) string {
	var parts []string
	for _, cs := range held {
		parts = append(parts, cs.what())
	}
	text := "context-budget spend fuse: " + strings.Join(parts, "; ") + "."
	if toModel {
		return text + " Every tool call is denied. Stop here: end your turn with a short note of where the work stands and what is left. Only the user can raise or lift the cap, from their own shell (context-budget budget status|reset|arm|disarm)."
	}
	return text + " The run is stopped. Raise or lift the cap from your shell: context-budget budget reset|arm AMOUNT|disarm (see context-budget budget status)."
}

// warnText is the notice at 80% of a cap.
func warnText(cs capState, unpriced []string) string {
	text := fmt.Sprintf("context-budget spend notice: %s, %.0f%% of it. At the cap every tool call is denied and the run stops. Steer to a stopping point now: finish the step in hand, leave the work in a state another session can pick up, and write down what is left. Stopping partway releases the plan; running into the cap mid-step does not.",
		cs.what(), 100*shareOf(cs.cap, cs.spent))
	if cs.cap.USD > 0 && len(unpriced) > 0 {
		text += fmt.Sprintf(" (Responses of %s have no price and count nothing against a dollar cap.)", strings.Join(unpriced, ", "))
	}
	return text
}

func burnText(burn, limit float64) string {
	return fmt.Sprintf("context-budget burn notice: this session spent $%.2f in the last 5 minutes, above the $%.2f set by %s. Check that the work is going somewhere; a loop or a runaway subagent costs this much.", burn, limit, tuning.EnvBurn)
}

func liftText(why string) string {
	return "context-budget spend fuse: this call would " + why + ", which lifts the spend cap; that is the user's act, from their own shell, and the call is denied while a cap holds. context-budget budget status shows the spend."
}
