package fuse

import (
	"errors"
	"fmt"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// Target is the session the budget verbs of the CLI act on: its project,
// id and transcript, the environment they read and the time they act at.
type Target struct {
	Root, ID, Transcript string
	Getenv               func(string) string
	Now                  time.Time
}

// Status is what budget status shows: the caps; the session's whole
// spend and the part of it in subagents' own files; the spend of the
// last 5 minutes (Burn); a loop halt standing; the halts, oldest first;
// the models with no price (a dollar cap counts nothing of them); what
// the tally refused to let lower it; whether the CLI disarmed the
// session's cap; and the fuse's variables in force (the CLI's
// environment, else what the hook last saw in the session).
type Status struct {
	Caps               []CapStatus
	Total, Subagents   Sum
	Burn               float64
	Loop               *Loop
	Halts              []Halt
	Unpriced, Tampered []string
	Disarmed           bool
	Tuning             tuning.Fuse
}

// CapStatus is one cap, "session" or "day" (Kind), and its spend.
type CapStatus struct {
	Kind, Source string
	Cap          tuning.Amount
	Spent        Sum
}

// Share is the part of the cap spent.
func (c CapStatus) Share() float64 { return shareOf(c.Cap, c.Spent) }

// SpentText writes the spend that counts against the cap, in its unit.
func (c CapStatus) SpentText() string { return spentIn(c.Cap, c.Spent) }

// ErrNoCap reports a reset with no session cap to reset.
var ErrNoCap = errors.New("the session has no cap to reset")

// update brings a session's tally up to date under the fuse's lock,
// reading every file to its end (the CLI has no hook's deadline), then
// lets change see it and change the arm file. A tally that cannot be
// read is counted afresh from the transcripts when fresh is set (a reset,
// an arm: the user's act sets a new baseline); otherwise it is an error.
// A reading (not fresh) adds to tampered what its arm file or tally held
// less of than their witness.
func update(tg Target, fresh bool, tampered *[]string, change func(fo *folder, t *Tally, a *Arm, s tuning.Fuse) error) error {
	dir := Dir(tg.Getenv, tg.Root)
	fo, err := openFolder(dir, true)
	if err != nil {
		return fmt.Errorf("the fuse's folder cannot be used: %w", err)
	}
	defer fo.close()
	unlock, err := fo.lockSession(tg.ID, time.Time{})
	if err != nil {
		return err
	}
	defer unlock()
	// Writers killed partway leave their temporary files: the user's
	// command clears them, the hook has no time to.
	config, below := rel(dir)
	atomicfile.Clean(config, below, "")
	// The user's act sets the arm and its witness anew; a reading holds
	// the arm and the tally to their witness as the hook does, restoring
	// removed ones and showing what was tampered with, and changes
	// neither.
	wdir := witnessDir(tg.Getenv, dir)
	w, wok, err := peekWitness(wdir, tg.ID)
	if err != nil && !fresh {
		return err
	}
	t, err := loadTally(fo, tg.ID)
	if err != nil {
		if !fresh {
			return fmt.Errorf("the tally (%s) cannot be read: %w", TallyName(dir, tg.ID), err)
		}
		t = &Tally{Files: map[string]*File{}}
	}
	if cause := t.floorFrom(w, wok); cause != "" && !fresh {
		*tampered = append(*tampered, cause)
	}
	if tg.Transcript == "" {
		tg.Transcript = t.Transcript
	}
	if tg.Transcript != "" {
		t.Read(Files(tg.Transcript), hookPricer(fo, tg.Root, tg.Getenv), &reading.Pass{}, "")
	}
	s := tuningFor(tg.Getenv, t)
	a, aok, err := fo.loadArm(tg.ID)
	if err != nil && !fresh {
		return fmt.Errorf("the arm file (%s) cannot be read: %w", FileName(dir, tg.ID), err)
	}
	before := a
	var v verdict
	if !fresh {
		v = judge(a, aok, w, wok, s.Spend)
		if v.Tamper != "" {
			before = v.Use
			*tampered = append(*tampered, v.Tamper)
		}
		a = v.Use
	}
	if err := change(fo, t, &a, s); err != nil {
		return err
	}
	if err := fo.saveTally(tg.ID, t); err != nil {
		return err
	}
	if a != before || a.Loop != before.Loop {
		if err := fo.saveArm(tg.ID, a); err != nil {
			return err
		}
	}
	if wdir != "" && a.Set && (fresh || v.Rewrite) {
		return saveWitness(wdir, tg.ID, a, t.Total())
	}
	return nil
}

// tuningFor is the fuse's variables as the CLI's environment sets them,
// else as the session's hook last saw them: the session's env (from its
// settings) is not the user's shell's.
func tuningFor(getenv func(string) string, t *Tally) tuning.Fuse {
	s, err := tuning.FuseFromEnv(getenv)
	if err != nil {
		s = tuning.Fuse{Loop: tuning.DefaultLoop}
	}
	if s.Spend.IsZero() {
		s.Spend, _ = tuning.ParseAmount(t.Notes["env session"])
	}
	if s.Day.IsZero() {
		s.Day, _ = tuning.ParseAmount(t.Notes["env day"])
	}
	return s
}

// ReadStatus measures a session for budget status.
func ReadStatus(tg Target) (Status, error) {
	var st Status
	dir := Dir(tg.Getenv, tg.Root)
	var tampered []string
	err := update(tg, false, &tampered, func(fo *folder, t *Tally, a *Arm, s tuning.Fuse) error {
		for _, cs := range capsOf(s, *a) {
			if err := cs.count(t, a.Base, fo, tg.Root, tg.ID, tg.Now, time.Time{}); err != nil {
				return err
			}
			st.Caps = append(st.Caps, CapStatus{Kind: cs.kind, Source: cs.source, Cap: cs.cap, Spent: cs.spent})
		}
		st.Total, st.Subagents = t.Total(), t.Subagents()
		st.Burn = t.Since(tg.Now.Add(-burnWindow)).USD
		st.Loop, st.Unpriced, st.Tampered, st.Tuning = a.Loop, t.Unpriced, append(tampered, t.Tampered...), s
		st.Disarmed = a.Set && a.Cap.IsZero()
		return nil
	})
	st.Halts = Halts(dir, tg.ID)
	return st, err
}

// ArmCap arms a session cap from now: the baseline is the spend so far.
func ArmCap(tg Target, cap tuning.Amount) error {
	return update(tg, true, nil, func(_ *folder, t *Tally, a *Arm, _ tuning.Fuse) error {
		*a = Arm{Cap: cap, Set: true, Base: t.Total(), At: tg.Now.UTC().Format(time.RFC3339Nano), Loop: a.Loop}
		return nil
	})
}

// Reset sets a new baseline for the session's cap (the CLI's, else the
// environment's), releases a loop halt, and clears what the tally saw
// of tampering: only the user lowers what counts.
func Reset(tg Target) error {
	defer clearCalls(state.Dir(tg.Root), tg.ID)
	return update(tg, true, nil, func(_ *folder, t *Tally, a *Arm, s tuning.Fuse) error {
		cap := s.Spend
		if a.Set {
			cap = a.Cap
		}
		if cap.IsZero() && a.Loop == nil {
			return ErrNoCap
		}
		if !cap.IsZero() {
			*a = Arm{Cap: cap, Set: true, Base: t.Total(), At: tg.Now.UTC().Format(time.RFC3339Nano)}
		}
		a.Loop, t.Tampered = nil, nil
		return nil
	})
}

// Disarm drops the session's cap, the environment's too, and releases a
// loop halt. The project's daily cap is the environment's alone.
func Disarm(tg Target) error {
	return update(tg, true, nil, func(_ *folder, t *Tally, a *Arm, _ tuning.Fuse) error {
		*a = Arm{Set: true, Base: t.Total(), At: tg.Now.UTC().Format(time.RFC3339Nano)}
		return nil
	})
}
