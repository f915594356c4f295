// Package fuse is the spend fuse (design §13): the tally of what a
// session has spent, the session's and the project's daily caps, the
// warning at 80% of a cap, the halt at 100% (every tool call denied and
// the turn ended), the loop halt, the burn rate, and the guard against
// the tool calls by which an agent would lift its own fuse.
//
// Its state lives in the user's Claude Code config folder (Dir), outside
// the agent's tree: <session_id>.fuse (the CLI's cap, its baseline, a
// loop halt), .spend (the tally), .halts, day-<date>.json (the project's
// spend of a day) and prices.json (the CLI's merged price table); only
// the loop's call count stays in the project's state folder. A witness of
// the arm and of a floor under the tally is kept in the user's state
// folder (witness.go). Unarmed, a call costs an environment look-up, one
// open and one look for its witness; armed, a call that cannot decide
// denies (fails closed), naming why and the user's way out.
package fuse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/fuse/guard"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

// The hook events the fuse answers.
const (
	PreToolUse   = "PreToolUse"
	Stop         = "Stop"
	SubagentStop = "SubagentStop"
)

// Call is one hook call, as the fuse sees it. Cwd is where a Bash
// command starts; Agent the subagent's id ("" in the session's own
// turns: the fuse applies inside subagents too); Now the time days and
// warnings count at.
type Call struct {
	Event, Root, Cwd, Session, Transcript, Agent string
	ToolName, ToolUseID                          string
	ToolInput                                    json.RawMessage
	Now                                          time.Time
	Getenv                                       func(string) string
	// Armed, when set, is called once the fuse is found armed, before any
	// of its work, with what the call must answer should its deadline
	// come first (late records that halt and returns the answer): the
	// hook starts its deadline's timers there, which the unarmed check
	// does not need.
	Armed func(late func() Answer)
	// Record, when set, is asked before the tally is written: false once
	// the deadline has answered; true holds the deadline off until the
	// call answers, so that no write is cut short.
	Record func() bool
}

// Answer is what the fuse says; all empty is silence. Deny is why a tool
// call is denied, to the model; Context a notice to the model; System a
// message to the user; Stop ends the turn (continue: false) with this
// reason to the user (with Deny, at the denied call).
type Answer struct {
	Deny, Context, System, Stop string
}

const (
	warnShare  = 0.8             // the share of a cap at which the fuse warns
	burnWindow = 5 * time.Minute // the span the burn rate is measured over
	// maxSubagentFiles bounds the subagent files an armed call reads:
	// past it the fuse cannot count in time, and says so.
	maxSubagentFiles = 4096
)

// The armed call's bounds, from its start: the wait for the call's own
// record, for the fuse's lock, and the reading of the transcripts. The
// hook answers by one second whatever happens (its deadline gives the
// answer Armed was handed).
const (
	recordWait = 200 * time.Millisecond
	lockWait   = 600 * time.Millisecond
	readWait   = 750 * time.Millisecond
)

// Decide answers one PreToolUse, Stop or SubagentStop call. Unmetered and
// unarmed, it reads the environment, tries one file, looks for its
// witness, and returns.
func Decide(c Call) (Answer, error) {
	if !state.PlainName(c.Session) || c.Root == "" {
		return Answer{}, nil
	}
	s, err := tuning.FuseFromEnv(c.Getenv)
	if err != nil {
		return invalid(c, err)
	}
	dir := Dir(c.Getenv, c.Root)
	wdir := witnessDir(c.Getenv, dir)
	var arm Arm
	aok := false
	armErr := errors.New("neither CLAUDE_CONFIG_DIR nor HOME is set, so it has no state folder")
	if dir != "" {
		// A folder on the way that is missing: nothing armed there. One
		// that is there and is not a real folder (a file, a FIFO, a link,
		// dangling or not), or an arm file with another name: the fuse
		// cannot tell what was armed, and denies.
		arm, aok, armErr = peekArm(dir, c.Session)
	}
	caps := capsOf(s, arm)
	capped := len(caps) > 0
	switch {
	case armErr != nil && dir == "" && !capped:
		return Answer{}, nil
	case armErr == nil && !capped && arm.Loop == nil && s.BurnUSD == 0:
		// No arm file, or one that arms nothing: unless the witness
		// holds an arm (the state removed, or a disarm written by other
		// hands), the call is free. The common call, never armed, looks
		// for its witness once; armed, the metered call compares the two
		// under the lock.
		if !witnessed(wdir, c.Session) {
			return Answer{}, nil
		}
		w, wok, err := peekWitness(wdir, c.Session)
		if err == nil {
			v := judge(arm, aok, w, wok, s.Spend)
			if v.Tamper == "" && len(capsOf(s, v.Use)) == 0 {
				return Answer{}, nil
			}
			arm = v.Use
		}
		armErr = err
		caps = capsOf(s, arm)
		capped = len(caps) > 0
	}
	f := &fused{Call: c, dir: dir, wdir: wdir, s: s, arm: arm, caps: caps, began: time.Now()}
	if c.Armed != nil {
		// The deadline's answer is made when it comes, from a copy: the
		// call goes on changing f meanwhile.
		late := *f
		late.caps = slices.Clone(f.caps)
		c.Armed(func() Answer { return late.undecided("its deadline passed") })
	}
	switch {
	case armErr != nil:
		return f.undecided(armErr.Error()), nil
	case arm.Loop != nil:
		return f.loopAnswer()
	case !capped:
		// The burn rate alone: a warning, never a deny.
		m, _ := f.meter()
		return m.warnings, nil
	}
	status := c.Event == PreToolUse && guard.StatusOnly(c.ToolName, c.ToolInput)
	lift := ""
	if c.Event == PreToolUse && !status {
		lift = guard.Lifts(guard.Call{Root: c.Root, Cwd: c.Cwd, Transcript: c.Transcript, StateRoot: StateRoot(c.Getenv), Session: c.Session,
			Witness:  WitnessRoot(c.Getenv),
			ToolName: c.ToolName, ToolInput: c.ToolInput, Getenv: c.Getenv})
	}
	m, err := f.meter()
	switch {
	case status:
		// The one call open past the cap: it only reads.
		return m.warnings, nil
	case len(m.held) > 0:
		for _, cs := range m.held {
			recordHalt(f.dir, f.Session, Halt{Reason: cs.reason(), Cap: cs.cap.String(), Words: cs.words("the", "spent")})
		}
		return f.stopped(haltText(m.held, true), haltText(m.held, false)), nil
	case errors.Is(err, errBehind) && c.Event == PreToolUse:
		// Still counting a long transcript (a session resumed under a cap
		// from launch): this call is denied, and the turn goes on, since
		// the next call reads on from where this one stopped.
		f.recordUndecided(err.Error())
		return Answer{Deny: "context-budget spend fuse: a cap of " + strings.Join(f.capsNamed(), " and ") +
			" is armed, and the fuse is still counting what the session spent before: this call is denied, and the next one reads on from where it stopped. Retry the call."}, nil
	case err != nil:
		return f.undecided(err.Error()), nil
	case lift != "":
		return Answer{Deny: "context-budget spend fuse: this call would " + lift + ", which lifts the spend cap; that is the user's act, from their own shell, and the call is denied while a cap holds. context-budget budget status shows the spend.",
			System: m.warnings.System}, nil
	case c.Event == PreToolUse:
		return m.warnings, nil
	}
	return Answer{}, nil
}

// fused is one armed call on its way.
type fused struct {
	Call
	dir   string
	wdir  string // the witness folder (witness.go)
	s     tuning.Fuse
	arm   Arm
	caps  []capState
	began time.Time
}

// stopped is a halt's answer: at PreToolUse the call denied and the turn
// ended, at Stop the run ended.
func (f *fused) stopped(toModel, toUser string) Answer {
	if f.Event == PreToolUse {
		return Answer{Deny: toModel, Stop: toUser, System: toUser}
	}
	return Answer{Stop: toUser, System: toUser}
}

// undecided is the answer of an armed call that cannot decide: denied,
// and the turn ended, with the cause and the user's way out; recorded as
// a halt.
func (f *fused) undecided(cause string) Answer {
	f.recordUndecided(cause)
	caps := f.capsNamed()
	armed := "a cap is armed"
	if len(caps) > 0 {
		armed = "a cap of " + strings.Join(caps, " and ") + " is armed"
	}
	text := "context-budget spend fuse: " + armed + ", and the fuse cannot decide this call: " + cause + "."
	out := " From your own shell, context-budget budget status shows the spend and reads what the hook could not; context-budget budget disarm (or unsetting the variable) lifts the cap."
	return f.stopped(text+" Every tool call is denied until it can: stop here and tell the user."+out, text+out)
}

// capsNamed names the caps in force.
func (f *fused) capsNamed() []string {
	var caps []string
	for _, cs := range f.caps {
		caps = append(caps, cs.cap.String()+" ("+cs.source+")")
	}
	return caps
}

func (f *fused) recordUndecided(cause string) {
	if f.dir != "" {
		recordHalt(f.dir, f.Session, Halt{Reason: HaltFuse, Cap: strings.Join(f.capsNamed(), ", "), Words: cause})
	}
}

// capState is one cap in force and what counts against it; period names
// the cap's period, so its warning fires once in it.
type capState struct {
	kind, source, period string // kind: "session" or "day"
	cap                  tuning.Amount
	spent                Sum
}

// reason is the halt a held cap records.
func (cs capState) reason() string {
	if cs.kind == "day" {
		return HaltDay
	}
	return HaltCap
}

// capsOf lists the caps in force: the session's (the CLI's, else the
// environment's) and the project's per day.
func capsOf(s tuning.Fuse, arm Arm) []capState {
	var caps []capState
	switch {
	case arm.Set:
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

// count sets what counts against the cap: the session's spend past
// base, or the project's on the day of now, its count's lock taken by by.
func (cs *capState) count(t *Tally, base Sum, fo *folder, root, session string, now, by time.Time) error {
	if cs.kind == "session" {
		cs.spent = t.Total().Sub(base)
		return nil
	}
	day := now.UTC().Format(time.DateOnly)
	var err error
	cs.spent, err = projectDay(fo, ledger.Dir(root), session, t.Day(day), day, by)
	cs.period = day
	return err
}

// metered is the outcome of one metered call.
type metered struct {
	held     []capState
	warnings Answer
}

// meter brings the session's tally up to date, under the fuse's lock, and
// decides the caps held and the warnings due, recording each warning
// before it is sent. An error says why it could not decide; the caps it
// found held by then are held.
func (f *fused) meter() (m metered, err error) {
	if f.Transcript == "" {
		return m, errors.New("the call names no transcript")
	}
	files, more := transcript.SubagentFilesMax(f.Transcript, maxSubagentFiles)
	if more {
		return m, fmt.Errorf("the session has more than %d subagent transcripts, more than it can read in time", maxSubagentFiles)
	}
	files = append([]string{f.Transcript}, files...)
	fo, err := openFolder(f.dir, true)
	if err != nil {
		return m, fmt.Errorf("its state folder cannot be used: %w", err)
	}
	defer fo.close()
	unlock, err := fo.lockSession(f.Session, f.began.Add(lockWait))
	if err != nil {
		return m, fmt.Errorf("its lock (%s) cannot be taken: %w", lockName(f.dir, f.Session), err)
	}
	defer func() { unlock() }()
	// The CLI may have armed, reset or disarmed since the unlocked read.
	arm, aok, err := fo.loadArm(f.Session)
	if err != nil {
		return m, fmt.Errorf("its arm file (%s) cannot be read: %w", FileName(f.dir, f.Session), err)
	}
	w, wok, err := peekWitness(f.wdir, f.Session)
	if err != nil {
		return m, err
	}
	v := judge(arm, aok, w, wok, f.s.Spend)
	if v.Use.Loop == nil {
		f.arm, f.caps = v.Use, capsOf(f.s, v.Use)
	}
	if v.Tamper != "" {
		return m, errors.New(v.Tamper)
	}
	if v.Restore {
		if err := fo.saveArm(f.Session, v.Use); err != nil {
			return m, fmt.Errorf("its arm file (%s) cannot be restored from its witness: %w", FileName(f.dir, f.Session), err)
		}
	}
	t, err := loadTally(fo, f.Session)
	if err != nil {
		return m, fmt.Errorf("its tally (%s) cannot be read: %w", TallyName(f.dir, f.Session), err)
	}
	if cause := t.floorFrom(w, wok); cause != "" {
		return m, errors.New(cause)
	}
	notesBefore := maps.Clone(t.Notes)
	price := hookPricer(fo, f.Root, f.Getenv)
	pass := &reading.Pass{Deadline: f.began.Add(readWait)}
	p := t.Read(files, price, pass, f.ToolUseID)
	if f.Event == PreToolUse && f.ToolUseID != "" && !p.Seen && !p.Behind && !onDisk(f.ownFile(), f.ToolUseID) {
		// The call's own record may not be on disk yet: wait for it a
		// little, without the lock, then count what is there.
		unlock()
		unlock = func() {}
		waitFor(f.ownFile(), f.ToolUseID, f.began.Add(recordWait))
		if unlock, err = fo.lockSession(f.Session, f.began.Add(lockWait)); err != nil {
			unlock = func() {}
			return m, fmt.Errorf("its lock (%s) cannot be taken: %w", lockName(f.dir, f.Session), err)
		}
		if t, err = loadTally(fo, f.Session); err != nil {
			return m, fmt.Errorf("its tally (%s) cannot be read: %w", TallyName(f.dir, f.Session), err)
		}
		p2 := t.Read(files, price, pass, "")
		p.Changed, p.Behind = true, p2.Behind
	}
	// The CLI runs in the user's shell, without the session's env: keep
	// the caps from launch where budget status can read them.
	setNote(t, "env session", noteOf(f.s.Spend))
	setNote(t, "env day", noteOf(f.s.Day))
	var notes []string
	var dayErr error
	for i := range f.caps {
		cs := &f.caps[i]
		if err := cs.count(t, f.arm.Base, fo, f.Root, f.Session, f.Now, f.began.Add(lockWait)); err != nil {
			dayErr = err
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
	if f.s.BurnUSD > 0 {
		burn := t.Since(f.Now.Add(-burnWindow)).USD
		switch {
		case burn >= f.s.BurnUSD && t.Notes["burn"] == "":
			setNote(t, "burn", f.Now.UTC().Format(time.RFC3339))
			notes = append(notes, fmt.Sprintf("context-budget burn notice: this session spent $%.2f in the last 5 minutes, above the $%.2f set by %s. Check that the work is going somewhere; a loop or a runaway subagent costs this much.", burn, f.s.BurnUSD, tuning.EnvBurn))
		case burn < f.s.BurnUSD && t.Notes["burn"] != "":
			delete(t.Notes, "burn")
		}
	}
	// Parallel calls of one response find nothing new: no write then.
	if p.Changed || !maps.Equal(notesBefore, t.Notes) {
		if f.Record != nil && !f.Record() {
			return m, errors.New("its deadline passed")
		}
		if err := fo.saveTally(f.Session, t); err != nil {
			return m, fmt.Errorf("its tally (%s) cannot be saved: %w", TallyName(f.dir, f.Session), err)
		}
	}
	if f.wdir != "" && (v.Rewrite || markDue(f.caps, t.Total(), f.arm.Base, w) || !wok && len(f.caps) > 0) {
		if err := saveWitness(f.wdir, f.Session, f.arm, t.Total()); err != nil {
			return m, err
		}
	}
	switch {
	case dayErr != nil:
		return m, fmt.Errorf("the project's count of the day cannot be kept: %w", dayErr)
	case p.Behind:
		return m, errBehind
	}
	if len(notes) > 0 && f.Event == PreToolUse {
		m.warnings = Answer{Context: strings.Join(notes, "\n\n"), System: strings.Join(notes, " ")}
	}
	return m, nil
}

// errBehind reports a tally that has not read the session's transcripts
// to their end in the time a call has.
var errBehind = errors.New("it has not finished reading the session's transcripts in the time a call has; the next call reads on from where this one stopped")

// ownFile is the transcript the call's own record lands in.
func (f *fused) ownFile() string {
	if f.Agent != "" && state.PlainName(f.Agent) {
		return transcript.SubagentFile(f.Transcript, f.Agent)
	}
	return f.Transcript
}

// ownTail is how much of a transcript's end onDisk looks at.
const ownTail = 256 << 10

// onDisk reports whether the last ownTail bytes of a transcript hold the
// tool call toolUseID.
func onDisk(name, toolUseID string) bool {
	file, fi, err := reading.Open(name)
	if err != nil {
		return false
	}
	defer file.Close()
	n := min(fi.Size(), ownTail)
	buf := make([]byte, n)
	if _, err := file.ReadAt(buf, fi.Size()-n); err != nil {
		return false
	}
	return bytes.Contains(buf, []byte(`"`+toolUseID+`"`))
}

// waitFor waits until the transcript holds the tool call or until by. Its
// caller has just looked (onDisk), so it sleeps before each look.
func waitFor(name, toolUseID string, by time.Time) {
	for time.Now().Before(by) {
		time.Sleep(3 * time.Millisecond)
		if onDisk(name, toolUseID) {
			return
		}
	}
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
		return fmt.Sprint(a.Tokens) + " tokens"
	}
	return fmt.Sprintf("$%g", a.USD)
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

// loopAnswer denies the call and ends the turn while a loop halt stands,
// and releases the halt there (or at a stop): the next prompt starts
// afresh. budget status stays open.
func (f *fused) loopAnswer() (Answer, error) {
	l := f.arm.Loop
	what := loopWords(l.Count, l.Call)
	if f.Event == PreToolUse && guard.StatusOnly(f.ToolName, f.ToolInput) {
		return Answer{}, nil
	}
	err := ChangeArm(f.dir, f.Session, func(a *Arm) error { a.Loop = nil; return nil })
	if err != nil {
		return f.undecided("a loop halt stands and cannot be released: " + err.Error()), nil
	}
	clearCalls(state.Dir(f.Root), f.Session)
	recordHalt(f.dir, f.Session, Halt{Reason: HaltLoop, Cap: fmt.Sprintf("%d calls", l.Count), Words: what})
	text := "context-budget loop fuse: " + what + ", so the turn is halted; the next prompt starts afresh."
	out := fmt.Sprintf(" To lift it at once: context-budget budget reset, from your own shell; to turn the loop halt off: %s=0.", tuning.EnvLoop)
	return f.stopped(text+" Do not retry it: say what you were trying to do and what kept failing."+out, text+out), nil
}

// words says what a cap's project or session spent of it: "the"
// project "spent" for the halts, "this" project "has spent" for the
// model and the user.
func (cs capState) words(this, spent string) string {
	if cs.kind == "day" {
		return fmt.Sprintf("%s project %s %s today (UTC) of its %s daily cap (%s)", this, spent, spentIn(cs.cap, cs.spent), cs.cap, cs.source)
	}
	return fmt.Sprintf("%s session %s %s of its %s cap (%s)", this, spent, spentIn(cs.cap, cs.spent), cs.cap, cs.source)
}

// haltText is the reason of a halt: what was spent, the cap, what to do.
func haltText(held []capState, toModel bool) string {
	var parts []string
	for _, cs := range held {
		parts = append(parts, cs.words("this", "has spent"))
	}
	text := "context-budget spend fuse: " + strings.Join(parts, "; ") + "."
	if toModel {
		return text + " Every tool call is denied and the turn ends here. Stop: end with a short note of where the work stands and what is left. Only the user can raise or lift the cap, from their own shell (context-budget budget status|reset|arm|disarm)."
	}
	return text + " The run is stopped. Raise or lift the cap from your shell: context-budget budget reset|arm AMOUNT|disarm (see context-budget budget status)."
}

// warnText is the notice at 80% of a cap.
func warnText(cs capState, unpriced []string) string {
	text := fmt.Sprintf("context-budget spend notice: %s, %.0f%% of it. At the cap every tool call is denied and the run stops. Steer to a stopping point now: finish the step in hand, leave the work in a state another session can pick up, and write down what is left. Stopping partway releases the plan; running into the cap mid-step does not.",
		cs.words("this", "has spent"), 100*shareOf(cs.cap, cs.spent))
	if cs.cap.USD > 0 && len(unpriced) > 0 {
		text += fmt.Sprintf(" (Responses of %s have no price and count nothing against a dollar cap.)", strings.Join(unpriced, ", "))
	}
	return text
}
