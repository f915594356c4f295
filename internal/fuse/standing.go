package fuse

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/tuning"
)

// Standing is what the status line shows of a session's spend fuse: each
// cap in force and what counts against it, as the fuse last counted it
// (its saved tally, the project's count of the day), read without its
// lock and changing nothing; nil when no cap is armed or the counts do
// not read. It runs as often as the status line: with no cap in the
// environment and no fuse folder (no cap was ever armed from the shell)
// it costs an environment look-up and a stat of the state root and of
// the witness's (witness.go); with the folder, what the fuse's own
// unarmed check costs, the project's key and one open.
func Standing(getenv func(string) string, root, session string, now time.Time) []CapStatus {
	s, err := tuning.FuseFromEnv(getenv)
	if err != nil {
		return nil
	}
	if s.Spend.IsZero() && s.Day.IsZero() {
		_, err := os.Stat(filepath.Join(StateRoot(getenv), "fuse"))
		if err != nil {
			_, err = os.Stat(filepath.Join(WitnessRoot(getenv), "fuse"))
		}
		if err != nil {
			return nil
		}
	}
	// With no fuse folder yet, a cap from the environment has counted
	// nothing so far.
	var arm Arm
	t, dc := &Tally{Files: map[string]*File{}}, dayCount{Sessions: map[string]Sum{}}
	dir := Dir(getenv, root)
	fo, err := openFolder(dir, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fo = nil
	case err != nil:
		return nil
	default:
		defer fo.close()
		if arm, _, err = fo.loadArm(session); err != nil {
			return nil
		}
	}
	var w witness
	wok := false
	if !arm.Set {
		// The state removed: the witness's arm and floor hold until the
		// hook restores them.
		if w, wok, err = peekWitness(witnessDir(getenv, dir), session); err == nil && wok && w.Arm.Set {
			arm = w.Arm
		}
	}
	caps := capsOf(s, arm)
	if len(caps) == 0 {
		return nil
	}
	if fo != nil {
		if t, err = loadTally(fo, session); err != nil {
			return nil
		}
	}
	t.floorFrom(w, wok)
	var out []CapStatus
	for _, cs := range caps {
		spent := t.Total().Sub(arm.Base)
		if cs.kind == "day" {
			day := now.UTC().Format(time.DateOnly)
			if fo != nil {
				if dc, err = fo.loadDay(dayName(day)); err != nil {
					return nil
				}
			}
			// This session's count of the day may be ahead of the
			// project's, which the fuse raises as it meters.
			raise(dc.Sessions, session, t.Day(day))
			if spent, err = dc.total(); err != nil {
				return nil
			}
		}
		out = append(out, CapStatus{Kind: cs.kind, Source: cs.source, Cap: cs.cap, Spent: spent})
	}
	return out
}

// Short says the cap's spend in a few characters, as the status line
// shows it: "$1.20/$5.00", or "1.20m/2.00m tokens" for a cap in tokens.
func (c CapStatus) Short() string {
	if c.Cap.Tokens > 0 {
		return tuning.FormatTokens(c.Spent.Tokens) + "/" + tuning.FormatTokens(c.Cap.Tokens) + " tokens"
	}
	return fmt.Sprintf("$%.2f/$%.2f", c.Spent.USD, c.Cap.USD)
}
